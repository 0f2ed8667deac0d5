import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { CHAT_SOCKET_EVENTS } from '@shared/schemas/internal-chat';
import { startTestServer, type TestServer, type TestTenant, type TestUser } from '../../../tests/helpers/test-server';
import { presenceOf } from '../modules/users/presence';
import { presenceFromSockets } from './presence';
import { ABSENCE_WAIT_MS, connectAs, issueToken, sleep, waitFor, type RecordingSocket } from './realtime.test-support';

let server: TestServer;
const open: RecordingSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function socketOf(user: TestUser, token?: string): Promise<RecordingSocket> {
  const s = await connectAs(server.url, token ?? (await issueToken(server, user)).token);
  open.push(s);
  return s;
}

async function tenantWithUsers(): Promise<{ tenant: TestTenant; admin: TestUser; agent: TestUser }> {
  const tenant = await server.createTenant();
  return {
    tenant,
    admin: await server.createUser(tenant.id, { profile: 'admin' }),
    agent: await server.createUser(tenant.id, { profile: 'user' }),
  };
}

/** The `user:status` payloads a socket received, in order. */
const statuses = (watcher: RecordingSocket, tenantId: number) =>
  watcher.received.filter(([name]) => name === `${tenantId}:${SOCKET_EVENTS.userStatus}`).map(([, payload]) => payload);

async function storedPresence(userId: number) {
  const [row] = await server.deps.dataSource.query(`SELECT "isOnline", away FROM users WHERE id = $1`, [userId]);
  return presenceOf(row);
}

const announce = (s: RecordingSocket, tenantId: number) => s.socket.emit(`${tenantId}:${SOCKET_EVENTS.setUserActive}`);
const report = (s: RecordingSocket, presence: unknown) => s.socket.emitWithAck(CHAT_SOCKET_EVENTS.presence, presence);

describe('presenceFromSockets', () => {
  it('is online if any announced socket is active, away if all are idle, offline with none announced', () => {
    expect(presenceFromSockets([])).toBe('offline');
    expect(presenceFromSockets([undefined, undefined])).toBe('offline');
    expect(presenceFromSockets(['away', 'online', 'away'])).toBe('online');
    expect(presenceFromSockets(['away', 'away'])).toBe('away');
    expect(presenceFromSockets(['away', undefined])).toBe('away');
    expect(presenceFromSockets([undefined, 'online'])).toBe('online');
  });
});

describe('presence over several connections', () => {
  it('online while any app is active, away only when all are idle, offline when none is connected; one event per change, only to the tenant', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const otherTenant = await socketOf(b.admin);
    const desktop = await socketOf(a.agent);
    const browser = await socketOf(a.agent);
    const seen = () => statuses(watcher, a.tenant.id);
    const expectStatuses = async (expected: unknown[], what: string) => {
      await waitFor(() => seen().length >= expected.length, what);
      await sleep(ABSENCE_WAIT_MS);
      expect(seen()).toEqual(expected);
    };
    const online = { userId: a.agent.id, isOnline: true, presence: 'online' };
    const away = { userId: a.agent.id, isOnline: true, presence: 'away' };
    const offline = { userId: a.agent.id, isOnline: false, presence: 'offline' };

    announce(desktop, a.tenant.id);
    announce(browser, a.tenant.id);
    await expectStatuses([online], 'online');
    expect(await storedPresence(a.agent.id)).toBe('online');

    // One app idle, the other active: still online, nothing announced.
    expect(await report(desktop, { presence: 'away' })).toEqual({ presence: 'online' });
    await expectStatuses([online], 'no change');

    // Both idle: away.
    expect(await report(browser, { presence: 'away' })).toEqual({ presence: 'away' });
    await expectStatuses([online, away], 'away');
    expect(await storedPresence(a.agent.id)).toBe('away');
    // Saying it again changes nothing.
    expect(await report(browser, { presence: 'away' })).toEqual({ presence: 'away' });

    // Activity on one app: online again.
    expect(await report(desktop, { presence: 'online' })).toEqual({ presence: 'online' });
    await expectStatuses([online, away, online], 'online again');

    // The active app leaves while the other is idle: away.
    desktop.close();
    await expectStatuses([online, away, online, away], 'away after the active app left');

    // The last app leaves: offline.
    browser.close();
    await expectStatuses([online, away, online, away, offline], 'offline');
    expect(await storedPresence(a.agent.id)).toBe('offline');

    // The same changes were recorded as domain events of tenant A only.
    const events = await server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq`,
      [a.tenant.id, SOCKET_EVENTS.userStatus],
    );
    expect(events.map((e: { payload: unknown }) => e.payload)).toEqual([online, away, online, away, offline]);
    expect(otherTenant.received).toEqual([]);
    const leaked = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = $1`, [b.tenant.id]);
    expect(leaked[0].n).toBe(0);
  });

  it('an app that reconnects idle goes straight to away, without a moment online', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const app = await socketOf(a.agent);
    // The client reports its idle state before announcing itself (realtime-client.ts).
    await report(app, { presence: 'away' });
    announce(app, a.tenant.id);
    await waitFor(() => statuses(watcher, a.tenant.id).length >= 1, 'the away status');
    await sleep(ABSENCE_WAIT_MS);
    expect(statuses(watcher, a.tenant.id)).toEqual([{ userId: a.agent.id, isOnline: true, presence: 'away' }]);
  });

  it('many reports at once from several apps end in the presence of the last reports', async () => {
    const a = await tenantWithUsers();
    const apps = await Promise.all([1, 2, 3, 4].map(() => socketOf(a.agent)));
    await Promise.all(apps.map((s, i) => report(s, { presence: i % 2 === 0 ? 'online' : 'away' })));
    expect(await storedPresence(a.agent.id)).toBe('online');
    await Promise.all(apps.map((s) => report(s, { presence: 'away' })));
    expect(await storedPresence(a.agent.id)).toBe('away');
    await Promise.all(apps.map((s) => report(s, { presence: 'online' })));
    expect(await storedPresence(a.agent.id)).toBe('online');
  });

  it('a socket that never announced itself does not keep its user online', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const announced = await socketOf(a.agent);
    await socketOf(a.agent); // connected, silent
    announce(announced, a.tenant.id);
    await waitFor(() => statuses(watcher, a.tenant.id).length === 1, 'online');
    announced.close();
    await waitFor(() => statuses(watcher, a.tenant.id).length === 2, 'offline');
    expect(statuses(watcher, a.tenant.id)[1]).toEqual({ userId: a.agent.id, isOnline: false, presence: 'offline' });
  });

  it('logging out of one device leaves the user online through another connected one', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const other = await socketOf(a.agent);
    announce(other, a.tenant.id);
    await waitFor(async () => (await storedPresence(a.agent.id)) === 'online', 'online');
    const login = await server.login(a.agent);
    const device = await socketOf(a.agent, login.token);
    announce(device, a.tenant.id);

    const logout = await server.request('POST', '/auth/logout', { token: login.token });
    expect(logout.status).toBe(204);
    // Logout marks the user offline; the device's socket leaving settles from the apps still connected.
    const presences = () => (statuses(watcher, a.tenant.id) as { presence: string }[]).map((p) => p.presence);
    await waitFor(() => presences().includes('offline') && presences().at(-1) === 'online', 'online again');
    expect(presences().slice(presences().indexOf('offline'))).toEqual(['offline', 'online']);
    expect(await storedPresence(a.agent.id)).toBe('online');
  });

  it('ignores a malformed user:presence and answers its acknowledgement with the error', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const app = await socketOf(a.agent);
    announce(app, a.tenant.id);
    await waitFor(() => statuses(watcher, a.tenant.id).length === 1, 'online');
    for (const body of [{ presence: 'offline' }, { presence: 'away', extra: true }, {}, 'away', null, { presence: 1 }]) {
      const answer = (await report(app, body)) as { error: string; message: string; fields: { path: string }[] };
      expect(answer.error, JSON.stringify(body)).toBe('ERR_VALIDATION');
      expect(answer.message).toMatch(/^Ops! Verifique os erros\.\.\./);
      expect(answer.fields.length).toBeGreaterThan(0);
    }
    // Without an acknowledgement it is dropped quietly, and the socket keeps working.
    app.socket.emit(CHAT_SOCKET_EVENTS.presence, { presence: 'gone' });
    await sleep(ABSENCE_WAIT_MS);
    expect(statuses(watcher, a.tenant.id)).toHaveLength(1);
    expect(await storedPresence(a.agent.id)).toBe('online');
    expect(await report(app, { presence: 'away' })).toEqual({ presence: 'away' });
  });
});

describe('presence in the users lists', () => {
  it('GET /users and GET /users/chat-privado show each user presence', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const app = await socketOf(users.user);
    await report(app, { presence: 'away' });
    announce(app, tenant.id);
    await waitFor(async () => (await storedPresence(users.user.id)) === 'away', 'away');
    await server.deps.dataSource.query(`UPDATE users SET "isOnline" = false, away = false WHERE id = $1`, [users.super.id]);

    const list = await server.request('GET', '/users', { token: users.admin.token });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.users.map((u: any) => [u.id, u]));
    expect(byId.get(users.user.id)).toMatchObject({ isOnline: true, presence: 'away' });
    expect(byId.get(users.super.id)).toMatchObject({ isOnline: false, presence: 'offline' });
    expect(byId.get(users.admin.id)).toMatchObject({ isOnline: true, presence: 'online' });

    const chat = await server.request('GET', '/users/chat-privado', { token: users.admin.token });
    expect(chat.status).toBe(200);
    const chatById = new Map(chat.body.map((u: any) => [u.id, u]));
    expect(chatById.get(users.user.id)).toMatchObject({ isOnline: true, presence: 'away' });
    expect(chatById.get(users.super.id)).toMatchObject({ isOnline: false, presence: 'offline' });

    // PUT /usersIsOnline sets online (not away) or offline, and says so.
    const put = await server.request('PUT', `/usersIsOnline/${users.user.id}`, { token: users.user.token, body: { isOnline: true } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ isOnline: true, presence: 'online' });
  });
});

const clusterMissing = ['DATABASE_URL', 'REDIS_URL'].filter((v) => !process.env[v]);
describe.skipIf(clusterMissing.length > 0)(
  clusterMissing.length ? `presence across servers (skipped: needs ${clusterMissing.join(' and ')})` : 'presence across servers',
  () => {
    const prefix = `test-presence-${randomBytes(5).toString('hex')}`;
    let first: TestServer;
    let second: TestServer;
    beforeAll(async () => {
      first = await startTestServer({}, { redisPrefix: prefix });
      second = await startTestServer({}, { redisPrefix: prefix });
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
    });

    it("settles from the user's sockets on every server", async () => {
      const tenant = await first.createTenant();
      const agent = await first.createUser(tenant.id, { profile: 'user' });
      const onFirst = await connectAs(first.url, (await issueToken(first, agent)).token);
      const onSecond = await connectAs(second.url, (await issueToken(second, agent)).token);
      const stored = async () => presenceOf((await first.deps.dataSource.query(`SELECT "isOnline", away FROM users WHERE id = $1`, [agent.id]))[0]);
      try {
        await onFirst.socket.emitWithAck(CHAT_SOCKET_EVENTS.presence, { presence: 'online' });
        // The app on the second server goes idle: the one on the first is still active.
        expect(await onSecond.socket.emitWithAck(CHAT_SOCKET_EVENTS.presence, { presence: 'away' })).toEqual({ presence: 'online' });
        expect(await onFirst.socket.emitWithAck(CHAT_SOCKET_EVENTS.presence, { presence: 'away' })).toEqual({ presence: 'away' });
        onSecond.close();
        await sleep(ABSENCE_WAIT_MS);
        expect(await stored()).toBe('away');
        onFirst.close();
        await waitFor(async () => (await stored()) === 'offline', 'offline once both left');
      } finally {
        onFirst.close();
        onSecond.close();
      }
    });
  },
);
