import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type SignedIn = TestUser & { token: string };

async function signedIn(tenantId: number, profile: Profile): Promise<SignedIn> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

/** Tenant A with one user of each profile, and tenant B with its own admin and user. */
async function twoTenants() {
  const a = await server.createTenantWithUsers();
  const b = await server.createTenantWithUsers();
  return { a, b };
}

/** Login marks a user online; these tests start from an offline user never seen online. */
async function setOffline(id: number): Promise<void> {
  await server.deps.dataSource.query(`UPDATE users SET "isOnline" = false, "lastOnline" = NULL WHERE id = $1`, [id]);
}

async function userRow(id: number) {
  const [row] = await server.deps.dataSource.query(`SELECT configs, "isOnline", "lastOnline" FROM users WHERE id = $1`, [id]);
  return row;
}

const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);

describe('GET /users/{id}', () => {
  it('answers the caller their own profile, without secrets', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    await server.deps.dataSource.query(
      `UPDATE users SET queues = '[3,4]'::jsonb, "allowedConnections" = '[7]'::jsonb, "blockVoice" = true,
              configs = '{"isDark":true}'::jsonb, "isOnline" = false, "lastOnline" = NULL WHERE id = $1`,
      [users.user.id],
    );
    const res = await server.request('GET', `/users/${users.user.id}`, { token: users.user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: users.user.id,
      name: 'User user',
      email: users.user.email,
      profile: 'user',
      tenantId: tenant.id,
      queues: [3, 4],
      allowedConnections: [7],
      whatsappAllowed: [7],
      blockVoice: true,
      blockWavoip: true,
      isOnline: false,
      presence: 'offline',
      lastOnline: null,
      configs: { filtrosAtendimento: null, isDark: true },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenVersion|\$2[aby]\$/);
  });

  it('lets admins and supervisors of the tenant read another user, and the super administrator any user', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const reader of [users.admin, users.super]) {
      const res = await server.request('GET', `/users/${users.user.id}`, { token: reader.token });
      expect(res.status, reader.profile).toBe(200);
      expect(res.body.id).toBe(users.user.id);
    }
    const platform = await platformTenant(server);
    const superadmin = await signedIn(platform.id, 'superadmin');
    const res = await server.request('GET', `/users/${users.user.id}`, { token: superadmin.token });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(users.user.email);
  });

  it('answers another tenant\'s user as not found, leaking nothing, even to a "superadmin" outside the platform tenant', async () => {
    const { a, b } = await twoTenants();
    const strayAdmin = await signedIn(b.tenant.id, 'superadmin');
    for (const caller of [b.users.admin, b.users.user, strayAdmin]) {
      const res = await server.request('GET', `/users/${a.users.user.id}`, { token: caller.token });
      expect(res.status, caller.profile).toBe(404);
      expect(res.body.error).toBe('ERR_NO_USER_FOUND');
      expect(JSON.stringify(res.body)).not.toContain(a.users.user.email);
    }
  });

  it('refuses a plain user reading someone else (403 ERR_NO_PERMISSION)', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('GET', `/users/${users.admin.id}`, { token: users.user.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('answers an unknown id 404 and a malformed id 400 naming the param', async () => {
    const { users } = await server.createTenantWithUsers();
    const missing = await server.request('GET', '/users/987654321', { token: users.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_USER_FOUND');
    const bad = await server.request('GET', '/users/abc', { token: users.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(fieldPaths(bad.body)).toContain('id');
  });

  it('requires a valid token (401)', async () => {
    const { users } = await server.createTenantWithUsers();
    const none = await server.request('GET', `/users/${users.user.id}`);
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('ERR_INVALID_TOKEN');
    const forged = await server.request('GET', `/users/${users.user.id}`, { token: 'not-a-jwt' });
    expect(forged.status).toBe(401);
  });
});

describe('PUT /users/{id}/configs', () => {
  it("merges the given keys into the caller's configs and tells only that user", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const first = await server.request('PUT', `/users/${users.user.id}/configs`, {
      token: users.user.token,
      body: { isDark: true },
    });
    expect(first.status).toBe(200);
    expect(first.body.configs).toEqual({ filtrosAtendimento: null, isDark: true });

    const filters = {
      status: ['open', 'pending'],
      queuesIds: [1, 2],
      showAll: false,
      searchParam: 'maria',
      customFlag: 'kept',
      selectedUser: [3, 4],
      tags: [7],
      kanbanIds: ['9'],
    };
    const second = await server.request('PUT', `/users/${users.user.id}/configs/`, {
      token: users.user.token,
      body: { filtrosAtendimento: filters },
    });
    expect(second.status).toBe(200);
    // isDark from the first call is kept: the body is merged, not a replacement.
    expect(second.body.configs).toEqual({ filtrosAtendimento: filters, isDark: true });
    expect((await userRow(users.user.id)).configs).toEqual({ filtrosAtendimento: filters, isDark: true });

    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.userUpdate);
    expect(event?.audience).toEqual({ scope: 'user', userId: users.user.id });
    expect(event?.payload).toMatchObject({ action: 'update', user: { id: users.user.id, configs: { isDark: true } } });
    expect(JSON.stringify(event?.payload)).not.toMatch(/passwordHash|tokenVersion/);
  });

  it('refuses a malformed filter (tags not a list of ids) and stores nothing', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.user.id}/configs`, {
      token: users.user.token,
      body: { filtrosAtendimento: { tags: 'vip', selectedUser: { id: 1 } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual([
      'filtrosAtendimento.selectedUser',
      'filtrosAtendimento.tags',
    ]);
    expect((await userRow(users.user.id)).configs).toEqual({});
  });

  it("lets an admin of the tenant change another user's configs", async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.user.id}/configs`, {
      token: users.admin.token,
      body: { isDark: true },
    });
    expect(res.status).toBe(200);
    expect((await userRow(users.user.id)).configs).toEqual({ isDark: true });
  });

  it('refuses supervisors and users changing someone else (403), changing nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    for (const caller of [users.super, users.user]) {
      const res = await server.request('PUT', `/users/${users.admin.id}/configs`, {
        token: caller.token,
        body: { isDark: true },
      });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await userRow(users.admin.id)).configs).toEqual({});
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('answers an admin of another tenant 404 and changes nothing', async () => {
    const { a, b } = await twoTenants();
    const before = await eventCount(server, a.tenant.id);
    const res = await server.request('PUT', `/users/${a.users.user.id}/configs`, {
      token: b.users.admin.token,
      body: { isDark: true },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    expect((await userRow(a.users.user.id)).configs).toEqual({});
    expect(await eventCount(server, a.tenant.id)).toBe(before);
  });

  it('rejects a malformed body with 400 ERR_VALIDATION naming the field', async () => {
    const { users } = await server.createTenantWithUsers();
    const url = `/users/${users.user.id}/configs`;
    const cases: [unknown, string][] = [
      [{ isDark: 'yes' }, 'isDark'],
      [{ filtrosAtendimento: 'open' }, 'filtrosAtendimento'],
      [{ filtrosAtendimento: { showAll: 'sim' } }, 'filtrosAtendimento.showAll'],
      [{ filtrosAtendimento: { searchParam: 'x'.repeat(9000) } }, 'filtrosAtendimento.searchParam'],
      [{}, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PUT', url, { token: users.user.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain(field);
    }
    expect((await userRow(users.user.id)).configs).toEqual({});
  });

  it('requires a token (401)', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.user.id}/configs`, { body: { isDark: true } });
    expect(res.status).toBe(401);
    expect((await userRow(users.user.id)).configs).toEqual({});
  });
});

describe('PUT /usersIsOnline/{id}', () => {
  it('sets the caller online with the time and tells the tenant', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    await setOffline(users.user.id);
    const startedAt = Date.now();
    const res = await server.request('PUT', `/usersIsOnline/${users.user.id}`, {
      token: users.user.token,
      body: { isOnline: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: users.user.id, isOnline: true });
    expect(new Date(res.body.lastOnline).getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    const row = await userRow(users.user.id);
    expect(row.isOnline).toBe(true);
    expect(row.lastOnline).not.toBeNull();

    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.userStatus);
    expect(event?.audience).toEqual({ scope: 'tenant' });
    expect(event?.payload).toEqual({ userId: users.user.id, isOnline: true, presence: 'online', lastOnline: res.body.lastOnline });
  });

  it('lets an admin of the tenant set another user offline', async () => {
    const { users } = await server.createTenantWithUsers();
    await server.deps.dataSource.query(`UPDATE users SET "isOnline" = true WHERE id = $1`, [users.user.id]);
    const res = await server.request('PUT', `/usersIsOnline/${users.user.id}/`, {
      token: users.admin.token,
      body: { isOnline: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.isOnline).toBe(false);
    expect((await userRow(users.user.id)).isOnline).toBe(false);
  });

  it('refuses supervisors and users changing someone else (403), changing nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    await setOffline(users.admin.id);
    for (const caller of [users.super, users.user]) {
      const res = await server.request('PUT', `/usersIsOnline/${users.admin.id}`, {
        token: caller.token,
        body: { isOnline: true },
      });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await userRow(users.admin.id)).isOnline).toBe(false);
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('answers an admin of another tenant 404 and changes nothing', async () => {
    const { a, b } = await twoTenants();
    await setOffline(a.users.user.id);
    const before = await eventCount(server, a.tenant.id);
    const res = await server.request('PUT', `/usersIsOnline/${a.users.user.id}`, {
      token: b.users.admin.token,
      body: { isOnline: true },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    const row = await userRow(a.users.user.id);
    expect(row.isOnline).toBe(false);
    expect(row.lastOnline).toBeNull();
    expect(await eventCount(server, a.tenant.id)).toBe(before);
  });

  it('rejects a malformed body with 400 ERR_VALIDATION naming the field', async () => {
    const { users } = await server.createTenantWithUsers();
    await setOffline(users.user.id);
    for (const body of [{ isOnline: 'true' }, {}, { isOnline: null }]) {
      const res = await server.request('PUT', `/usersIsOnline/${users.user.id}`, { token: users.user.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain('isOnline');
    }
    expect((await userRow(users.user.id)).lastOnline).toBeNull();
  });

  it('requires a token (401)', async () => {
    const { users } = await server.createTenantWithUsers();
    await setOffline(users.user.id);
    const res = await server.request('PUT', `/usersIsOnline/${users.user.id}`, { body: { isOnline: true } });
    expect(res.status).toBe(401);
    expect((await userRow(users.user.id)).isOnline).toBe(false);
  });
});
