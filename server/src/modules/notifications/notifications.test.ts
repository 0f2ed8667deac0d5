import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import { NOTIFICATION_MESSAGE_MAX } from '@shared/schemas/notifications';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestTenant, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';
import { connectAs } from '../../realtime/realtime.test-support';

let server: TestServer;
let platform: TestTenant;
let superadmin: TestUser & { token: string };

type Caller = TestUser & { token: string };

beforeAll(async () => {
  server = await startIsolatedTestServer();
  platform = await platformTenant(server);
  superadmin = await signedIn(platform.id, 'superadmin');
});
afterAll(async () => server?.close());

async function signedIn(tenantId: number, profile: Profile): Promise<Caller> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

async function send(body: unknown, token = superadmin.token) {
  return server.request('POST', '/admin/notifications', { token, body });
}

async function inbox(caller: Caller, query = '') {
  const res = await server.request('GET', `/notifications${query}`, { token: caller.token });
  expect(res.status).toBe(200);
  return res.body as { notifications: { id: number; message: string; read: boolean; kind: string; link: string | null }[]; unreadCount: number; hasMore: boolean };
}

const sees = async (caller: Caller, id: number) => (await inbox(caller, '?limit=100')).notifications.find((n) => n.id === id);
const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);
const count = async (sql: string, params: unknown[] = []) => Number((await server.deps.dataSource.query(sql, params))[0].n);

describe('sending notifications', () => {
  it('a notification to chosen tenants reaches every profile there and nobody elsewhere; one row, no per-user rows', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const c = await server.createTenantWithUsers();
    const rowsBefore = await count(`SELECT count(*) AS n FROM notifications`);
    const res = await send({ message: '  Manutenção às 22h  ', tenantIds: [a.tenant.id, b.tenant.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'Manutenção às 22h',
      profiles: null,
      readCount: 0,
      tenants: expect.arrayContaining([{ id: a.tenant.id, name: a.tenant.name }, { id: b.tenant.id, name: b.tenant.name }]),
    });
    const id = res.body.id as number;
    expect(await count(`SELECT count(*) AS n FROM notifications`)).toBe(rowsBefore + 1);
    expect(await count(`SELECT count(*) AS n FROM notification_reads WHERE "notificationId" = $1`, [id])).toBe(0);

    for (const user of [...Object.values(a.users), ...Object.values(b.users)]) {
      const seen = await sees(user, id);
      expect(seen, `${user.profile}@${user.tenantId}`).toMatchObject({ id, message: 'Manutenção às 22h', read: false, kind: 'broadcast', link: null });
    }
    for (const user of [...Object.values(c.users), superadmin]) {
      expect(await sees(user, id), `${user.profile}@${user.tenantId}`).toBeUndefined();
      const mark = await server.request('PUT', `/notifications/${id}/read`, { token: user.token });
      expect(mark.status).toBe(404);
      expect(mark.body.error).toBe('ERR_NO_NOTIFICATION_FOUND');
    }
    // One event per targeted tenant, to the whole tenant; none in the others.
    for (const t of [a.tenant, b.tenant]) {
      const event = await lastEvent(server, t.id, SOCKET_EVENTS.notificationCreate);
      expect(event?.audience).toEqual({ scope: 'tenant' });
      expect(event?.payload.notification).toMatchObject({ id, message: 'Manutenção às 22h', read: false });
    }
    expect(await lastEvent(server, c.tenant.id, SOCKET_EVENTS.notificationCreate)).toBeUndefined();
  });

  it('with profiles, only users of those profiles see it', async () => {
    const a = await server.createTenantWithUsers();
    const res = await send({ message: 'Só para administradores e supervisores', tenantIds: [a.tenant.id], profiles: ['admin', 'super'] });
    expect(res.status).toBe(201);
    expect(res.body.profiles).toEqual(['admin', 'super']);
    expect(await sees(a.users.admin, res.body.id)).toMatchObject({ id: res.body.id });
    expect(await sees(a.users.super, res.body.id)).toMatchObject({ id: res.body.id });
    expect(await sees(a.users.user, res.body.id)).toBeUndefined();
    expect((await lastEvent(server, a.tenant.id, SOCKET_EVENTS.notificationCreate))?.audience).toEqual({ scope: 'profiles', profiles: ['admin', 'super'] });
  });

  it('without tenants it goes to every tenant, including the platform tenant', async () => {
    const a = await server.createTenantWithUsers();
    const res = await send({ message: 'Para todos' });
    expect(res.status).toBe(201);
    expect(res.body.tenants).toBeNull();
    expect(await sees(a.users.user, res.body.id)).toMatchObject({ id: res.body.id });
    expect(await sees(superadmin, res.body.id)).toMatchObject({ id: res.body.id });
    expect((await lastEvent(server, a.tenant.id, SOCKET_EVENTS.notificationCreate))?.payload.notification.id).toBe(res.body.id);
    expect((await lastEvent(server, platform.id, SOCKET_EVENTS.notificationCreate))?.payload.notification.id).toBe(res.body.id);
  });

  it('the super administrator lists what was sent (newest first, tenant names, read counts) and deletes it from every bell', async () => {
    const a = await server.createTenantWithUsers();
    const first = (await send({ message: 'primeira', tenantIds: [a.tenant.id] })).body;
    const second = (await send({ message: 'segunda', tenantIds: [a.tenant.id] })).body;
    await server.request('PUT', `/notifications/${first.id}/read`, { token: a.users.admin.token });
    await server.request('PUT', `/notifications/${first.id}/read`, { token: a.users.user.token });

    const page = await server.request('GET', '/admin/notifications?limit=2', { token: superadmin.token });
    expect(page.status).toBe(200);
    expect(page.body.notifications.map((n: { id: number }) => n.id)).toEqual([second.id, first.id]);
    expect(page.body.notifications[1]).toMatchObject({ message: 'primeira', readCount: 2, tenants: [{ id: a.tenant.id, name: a.tenant.name }] });
    // Keyset: below the second, the first comes next, and nothing at or above the cursor.
    const older = await server.request('GET', `/admin/notifications?before=${second.id}&limit=100`, { token: superadmin.token });
    expect(older.body.notifications[0].id).toBe(first.id);
    expect(older.body.notifications.every((n: { id: number }) => n.id < second.id)).toBe(true);

    const del = await server.request('DELETE', `/admin/notifications/${first.id}`, { token: superadmin.token });
    expect(del.status).toBe(204);
    expect(await sees(a.users.user, first.id)).toBeUndefined();
    expect(await sees(a.users.user, second.id)).toMatchObject({ id: second.id });
    expect((await lastEvent(server, a.tenant.id, SOCKET_EVENTS.notificationDelete))?.payload).toEqual({ action: 'delete', id: first.id });
    expect((await server.request('DELETE', `/admin/notifications/${first.id}`, { token: superadmin.token })).status).toBe(404);

    const targets = await server.request('GET', '/admin/notifications/tenants', { token: superadmin.token });
    expect(targets.status).toBe(200);
    expect(targets.body).toEqual(expect.arrayContaining([{ id: a.tenant.id, name: a.tenant.name, status: 'active' }]));
  });
});

describe('read flags', () => {
  it('are per user: one user reading leaves the others unread; read-all clears only the caller', async () => {
    const a = await server.createTenantWithUsers();
    const one = (await send({ message: 'um', tenantIds: [a.tenant.id] })).body.id as number;
    const two = (await send({ message: 'dois', tenantIds: [a.tenant.id] })).body.id as number;
    const { admin, super: supervisor, user } = a.users;
    const unreadBefore = (await inbox(admin)).unreadCount;

    const marked = await server.request('PUT', `/notifications/${one}/read`, { token: admin.token });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ unreadCount: unreadBefore - 1 });
    // Marking twice is harmless: still one read row.
    expect((await server.request('PUT', `/notifications/${one}/read`, { token: admin.token })).body).toEqual({ unreadCount: unreadBefore - 1 });
    expect(await count(`SELECT count(*) AS n FROM notification_reads WHERE "notificationId" = $1`, [one])).toBe(1);

    expect((await sees(admin, one))?.read).toBe(true);
    expect((await sees(admin, two))?.read).toBe(false);
    expect((await sees(user, one))?.read).toBe(false);
    expect((await sees(supervisor, one))?.read).toBe(false);

    const all = await server.request('PUT', '/notifications/read-all', { token: supervisor.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ unreadCount: 0 });
    expect((await inbox(supervisor)).unreadCount).toBe(0);
    expect((await sees(supervisor, two))?.read).toBe(true);
    expect((await sees(user, two))?.read).toBe(false);
    expect((await inbox(user)).unreadCount).toBeGreaterThanOrEqual(2);
  });

  it('pages the inbox newest first with hasMore', async () => {
    const a = await server.createTenantWithUsers();
    const ids: number[] = [];
    for (const m of ['a', 'b', 'c']) ids.push((await send({ message: m, tenantIds: [a.tenant.id] })).body.id);
    const first = await inbox(a.users.user, '?limit=2');
    expect(first.notifications.map((n) => n.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    const next = await inbox(a.users.user, `?limit=2&before=${ids[1]}`);
    expect(next.notifications[0].id).toBe(ids[0]);
  });
});

describe('realtime', () => {
  it('online users of the targeted tenant get notification:create once; a user of another tenant never does', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const targeted = await connectAs(server.url, a.users.admin.token);
    const otherProfile = await connectAs(server.url, a.users.user.token);
    const outsider = await connectAs(server.url, b.users.admin.token);
    try {
      const res = await send({ message: 'ao vivo', tenantIds: [a.tenant.id], profiles: ['admin'] });
      const id = res.body.id as number;
      const named = (s: typeof targeted) => s.envelopes.filter((e) => e.name === SOCKET_EVENTS.notificationCreate);
      await expect.poll(() => named(targeted).length).toBe(1);
      await new Promise((r) => setTimeout(r, 400));
      expect(named(targeted)).toHaveLength(1);
      expect((named(targeted)[0].payload as { notification: { id: number } }).notification.id).toBe(id);
      expect(targeted.received.filter(([n]) => n === `${a.tenant.id}:${SOCKET_EVENTS.notificationCreate}`)).toHaveLength(1);
      expect(named(otherProfile)).toHaveLength(0);
      expect(named(outsider)).toHaveLength(0);
      expect(outsider.received.some(([n]) => n.includes('notification'))).toBe(false);
      // Nor does /sync replay it to the other tenant.
      const sync = await server.request('GET', '/sync?since=0', { token: b.users.admin.token });
      expect(sync.status).toBe(200);
      expect(JSON.stringify(sync.body)).not.toContain('ao vivo');
    } finally {
      targeted.close();
      otherProfile.close();
      outsider.close();
    }
  });
});

describe('permissions and input', () => {
  it('refuses every super-administrator call to every other profile of two tenants (403), storing nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const sent = (await send({ message: 'existente', tenantIds: [a.tenant.id] })).body.id as number;
    const callers = [
      ...Object.values(a.users),
      ...Object.values(b.users),
      await signedIn(a.tenant.id, 'superadmin'),
      await signedIn(b.tenant.id, 'superadmin'),
      await signedIn(platform.id, 'admin'),
    ];
    const rows = await count(`SELECT count(*) AS n FROM notifications`);
    const events = await eventCount(server, a.tenant.id);
    for (const caller of callers) {
      const label = `${caller.profile}@${caller.tenantId}`;
      const calls: [string, string, unknown?][] = [
        ['POST', '/admin/notifications', { message: 'golpe', tenantIds: [b.tenant.id] }],
        ['POST', '/admin/notifications', { nonsense: true }],
        ['GET', '/admin/notifications'],
        ['GET', '/admin/notifications/tenants'],
        ['DELETE', `/admin/notifications/${sent}`],
      ];
      for (const [method, url, body] of calls) {
        const res = await server.request(method, url, { token: caller.token, body });
        expect(res.status, `${label} ${method} ${url}`).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
    }
    expect(await count(`SELECT count(*) AS n FROM notifications`)).toBe(rows);
    expect(await eventCount(server, a.tenant.id)).toBe(events);
    for (const [method, url] of [['GET', '/notifications'], ['PUT', '/notifications/read-all'], ['POST', '/admin/notifications'], ['GET', '/admin/notifications']]) {
      expect((await server.request(method, url, { body: method === 'POST' ? { message: 'x' } : undefined })).status, url).toBe(401);
    }
  });

  it('rejects malformed sends with 400 naming the field, storing nothing', async () => {
    const rows = await count(`SELECT count(*) AS n FROM notifications`);
    const cases: [unknown, string][] = [
      [{}, 'message'],
      [{ message: '   ' }, 'message'],
      [{ message: 42 }, 'message'],
      [{ message: 'x'.repeat(NOTIFICATION_MESSAGE_MAX + 1) }, 'message'],
      [{ message: 'ok', tenantIds: 'all' }, 'tenantIds'],
      [{ message: 'ok', tenantIds: [] }, 'tenantIds'],
      [{ message: 'ok', tenantIds: [0] }, 'tenantIds.0'],
      [{ message: 'ok', tenantIds: [2147483648] }, 'tenantIds.0'],
      [{ message: 'ok', tenantIds: [2147483000] }, 'tenantIds'],
      [{ message: 'ok', profiles: ['root'] }, 'profiles.0'],
      [{ message: 'ok', profiles: [] }, 'profiles'],
      [{ message: 'ok', userId: 5 }, 'userId'],
      [['message'], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect(await count(`SELECT count(*) AS n FROM notifications`)).toBe(rows);

    const { users } = await server.createTenantWithUsers();
    expect((await server.request('GET', '/notifications?limit=0', { token: users.user.token })).status).toBe(400);
    expect((await server.request('GET', '/notifications?before=abc', { token: users.user.token })).status).toBe(400);
    expect((await server.request('PUT', '/notifications/abc/read', { token: users.user.token })).status).toBe(400);
    const unknown = await server.request('PUT', '/notifications/2147483000/read', { token: users.user.token });
    expect(unknown.status).toBe(404);
    expect((await server.request('DELETE', '/admin/notifications/abc', { token: superadmin.token })).status).toBe(400);
  });
});
