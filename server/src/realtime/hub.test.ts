import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { startTestServer, type TestServer, type TestTenant, type TestUser } from '../../../tests/helpers/test-server';
import { signAccessToken } from '../modules/auth/tokens';
import {
  ABSENCE_WAIT_MS,
  connectAs,
  connectExpectingRefusal,
  issueToken,
  sleep,
  waitFor,
  type RecordingSocket,
} from './realtime.test-support';

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

async function socketOf(user: TestUser): Promise<RecordingSocket> {
  const { token } = await issueToken(server, user);
  const s = await connectAs(server.url, token);
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

const currentSeq = async (tenantId: number) =>
  Number((await server.deps.dataSource.query(`SELECT "eventSeq" FROM tenants WHERE id = $1`, [tenantId]))[0].eventSeq);

describe('socket handshake', () => {
  it('tells a socket with a garbage token why, then disconnects it', async () => {
    const { payload, reason } = await connectExpectingRefusal(server.url, 'not-a-jwt');
    expect(payload).toEqual({ error: 'ERR_INVALID_TOKEN', message: expect.stringContaining('Token inválido') });
    expect(reason).toBe('io server disconnect');
  });

  it('refuses a token signed with another secret', async () => {
    const forged = signAccessToken('another-secret-0123456789', { sub: '1', tid: 1, sid: 'x', profile: 'superadmin' }, 900);
    const { payload, reason } = await connectExpectingRefusal(server.url, forged);
    expect(payload.error).toBe('ERR_INVALID_TOKEN');
    expect(reason).toBe('io server disconnect');
  });

  it('tells a socket with an expired token that the session expired, then disconnects it', async () => {
    const { admin } = await tenantWithUsers();
    const { token } = await issueToken(server, admin, { ttlSeconds: -60 });
    const { payload, reason } = await connectExpectingRefusal(server.url, token);
    expect(payload).toEqual({ error: 'ERR_SESSION_EXPIRED', message: expect.stringContaining('sessão expirou') });
    expect(reason).toBe('io server disconnect');
  });

  it('refuses a socket without a token and one whose session was revoked', async () => {
    expect((await connectExpectingRefusal(server.url, undefined)).payload.error).toBe('ERR_INVALID_TOKEN');
    const { admin } = await tenantWithUsers();
    const { token, sessionId } = await issueToken(server, admin);
    await server.deps.dataSource.query(`UPDATE auth_sessions SET "revokedAt" = now() WHERE id = $1`, [sessionId]);
    expect((await connectExpectingRefusal(server.url, token)).payload.error).toBe('ERR_INVALID_TOKEN');
  });

  it('keeps a socket with a good token connected', async () => {
    const { agent } = await tenantWithUsers();
    const s = await socketOf(agent);
    await sleep(ABSENCE_WAIT_MS);
    expect(s.socket.connected).toBe(true);
    expect(s.received.map(([name]) => name)).not.toContain(SOCKET_EVENTS.invalidToken);
  });
});

describe('event fan-out', () => {
  it('delivers a tenant event with its seq to sockets of that tenant only', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    const [adminA, agentA, adminB] = [await socketOf(a.admin), await socketOf(a.agent), await socketOf(b.admin)];
    const before = await currentSeq(a.tenant.id);

    await server.deps.events.transaction(async (_tx, emit) => {
      await emit(a.tenant.id, SOCKET_EVENTS.contactUpdate, { id: 7, name: 'Maria' });
    });

    await waitFor(() => adminA.envelopes.length === 1 && agentA.envelopes.length === 1, 'the event on both sockets of tenant A');
    expect(adminA.envelopes[0]).toMatchObject({
      seq: before + 1,
      tenantId: a.tenant.id,
      name: 'contact:update',
      payload: { id: 7, name: 'Maria' },
    });
    expect(new Date(adminA.envelopes[0].createdAt).toString()).not.toBe('Invalid Date');
    // The anchor clients' naming carries the bare payload.
    await waitFor(() => adminA.received.some(([n]) => n === `${a.tenant.id}:contact:update`), 'the named event');
    expect(adminA.received.find(([n]) => n === `${a.tenant.id}:contact:update`)?.[1]).toEqual({ id: 7, name: 'Maria' });

    await sleep(ABSENCE_WAIT_MS);
    expect(adminB.received).toEqual([]);
  });

  it('delivers a user-audience event to that user only', async () => {
    const a = await tenantWithUsers();
    const [adminA, agentA] = [await socketOf(a.admin), await socketOf(a.agent)];
    const agentSecondTab = await socketOf(a.agent);

    await server.deps.events.emit(a.tenant.id, SOCKET_EVENTS.privateMessage, { text: 'oi' }, { scope: 'user', userId: a.agent.id });

    await waitFor(() => agentA.envelopes.length === 1 && agentSecondTab.envelopes.length === 1, 'the event on both of the agent’s sockets');
    expect(agentA.envelopes[0]).toMatchObject({ name: 'chat:privateMessage', payload: { text: 'oi' } });
    await sleep(ABSENCE_WAIT_MS);
    expect(adminA.received).toEqual([]);
  });

  it('delivers a profiles-audience event only to users of those profiles', async () => {
    const a = await tenantWithUsers();
    const [adminA, agentA] = [await socketOf(a.admin), await socketOf(a.agent)];

    await server.deps.events.emit(a.tenant.id, SOCKET_EVENTS.settingsUpdate, { key: 'x' }, { scope: 'profiles', profiles: ['admin', 'super'] });

    await waitFor(() => adminA.envelopes.length === 1, 'the event on the admin socket');
    await sleep(ABSENCE_WAIT_MS);
    expect(agentA.received).toEqual([]);
  });

  it('numbers events per tenant: strictly increasing, independent between tenants', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    const [sa, sb] = [await socketOf(a.admin), await socketOf(b.admin)];

    await Promise.all(Array.from({ length: 6 }, (_, i) => server.deps.events.emit(a.tenant.id, 'ticket:update', { i })));
    for (let i = 0; i < 3; i++) await server.deps.events.emit(b.tenant.id, 'ticket:update', { i });

    await waitFor(() => sa.envelopes.length === 6 && sb.envelopes.length === 3, 'all events');
    const seqA = sa.envelopes.map((e) => e.seq).sort((x, y) => x - y);
    expect(seqA).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sb.envelopes.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(await currentSeq(a.tenant.id)).toBe(6);
    expect(await currentSeq(b.tenant.id)).toBe(3);
  });

  it('publishes nothing from a transaction that rolls back, and leaves the seq untouched', async () => {
    const a = await tenantWithUsers();
    const s = await socketOf(a.admin);
    const before = await currentSeq(a.tenant.id);

    await expect(
      server.deps.events.transaction(async (_tx, emit) => {
        await emit(a.tenant.id, 'ticket:update', { id: 1 });
        throw new Error('the write failed after recording its event');
      }),
    ).rejects.toThrow('the write failed');

    await sleep(ABSENCE_WAIT_MS);
    expect(s.received).toEqual([]);
    expect(await currentSeq(a.tenant.id)).toBe(before);
    const rows = await server.deps.dataSource.query(`SELECT 1 FROM domain_events WHERE "tenantId" = $1`, [a.tenant.id]);
    expect(rows).toHaveLength(0);

    // The next committed event takes the seq the rolled-back one would have had: no holes.
    await server.deps.events.emit(a.tenant.id, 'ticket:update', { id: 2 });
    await waitFor(() => s.envelopes.length === 1, 'the committed event');
    expect(s.envelopes[0].seq).toBe(before + 1);
  });
});

describe('presence', () => {
  it('{tenantId}:setUserActive marks the user online and tells the tenant; the last socket leaving marks offline', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    const [watcher, otherTenant] = [await socketOf(a.admin), await socketOf(b.admin)];
    const agent = await socketOf(a.agent);

    agent.socket.emit(`${a.tenant.id}:${SOCKET_EVENTS.setUserActive}`);

    const statusEvent = `${a.tenant.id}:${SOCKET_EVENTS.userStatus}`;
    await waitFor(() => watcher.received.some(([n]) => n === statusEvent), 'the user status event');
    expect(watcher.received.find(([n]) => n === statusEvent)?.[1]).toEqual({ userId: a.agent.id, isOnline: true, presence: 'online' });
    const [row] = await server.deps.dataSource.query(`SELECT "isOnline", "lastOnline" FROM users WHERE id = $1`, [a.agent.id]);
    expect(row.isOnline).toBe(true);
    expect(row.lastOnline).not.toBeNull();

    agent.close();
    await waitFor(
      () => watcher.received.filter(([n]) => n === statusEvent).length === 2,
      'the offline status event',
    );
    expect(watcher.received.filter(([n]) => n === statusEvent)[1][1]).toEqual({ userId: a.agent.id, isOnline: false, presence: 'offline' });
    const [after] = await server.deps.dataSource.query(`SELECT "isOnline" FROM users WHERE id = $1`, [a.agent.id]);
    expect(after.isOnline).toBe(false);

    expect(otherTenant.received).toEqual([]);
  });

  it('announces only changes: a repeated setUserActive updates lastOnline without a new event', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const agent = await socketOf(a.agent);
    const statusEvent = `${a.tenant.id}:${SOCKET_EVENTS.userStatus}`;

    agent.socket.emit(`${a.tenant.id}:${SOCKET_EVENTS.setUserActive}`);
    await waitFor(() => watcher.received.some(([n]) => n === statusEvent), 'the first status event');
    const [first] = await server.deps.dataSource.query(`SELECT "lastOnline" FROM users WHERE id = $1`, [a.agent.id]);
    agent.socket.emit(`${a.tenant.id}:${SOCKET_EVENTS.setUserActive}`);
    await waitFor(async () => {
      const [row] = await server.deps.dataSource.query(`SELECT "lastOnline" FROM users WHERE id = $1`, [a.agent.id]);
      return new Date(row.lastOnline).getTime() > new Date(first.lastOnline).getTime();
    }, 'lastOnline to move');
    await sleep(ABSENCE_WAIT_MS);
    expect(watcher.received.filter(([n]) => n === statusEvent)).toHaveLength(1);
  });

  it('does not announce a user leaving who never went online', async () => {
    const a = await tenantWithUsers();
    const watcher = await socketOf(a.admin);
    const agent = await socketOf(a.agent);
    agent.close();
    await sleep(ABSENCE_WAIT_MS);
    expect(watcher.received).toEqual([]);
  });

  it('ignores setUserActive sent for another tenant', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    const watcherB = await socketOf(b.admin);
    const agentA = await socketOf(a.agent);

    agentA.socket.emit(`${b.tenant.id}:${SOCKET_EVENTS.setUserActive}`);

    await sleep(ABSENCE_WAIT_MS);
    expect(watcherB.received).toEqual([]);
    const [row] = await server.deps.dataSource.query(`SELECT "isOnline" FROM users WHERE id = $1`, [a.agent.id]);
    expect(row.isOnline).toBe(false);
  });
});
