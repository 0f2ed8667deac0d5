import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';

/**
 * Users administration through the real app: GET /users, POST /users, PUT /users/{id},
 * DELETE /users/{id}, GET /users/chat-privado. Every route: success, another tenant, a profile
 * without the right, a malformed request and no token; plus the plan limit (also under
 * concurrency), unique e-mails, session revocation and the last-administrator rule.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

type SignedIn = TestUser & { token: string };

const unique = () => randomBytes(4).toString('hex');
const STRONG_PASSWORD = 'Senha-forte1';
const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);
const query = (sql: string, params: unknown[] = []) => server.deps.dataSource.query(sql, params);

async function signedIn(tenantId: number, profile: Profile): Promise<SignedIn> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

/** A tenant whose only users are one admin (and what the test adds). */
async function tenantWithAdmin(maxUsers = 10) {
  const tenant = await server.createTenant({ maxUsers });
  const admin = await signedIn(tenant.id, 'admin');
  return { tenant, admin };
}

const newUserBody = (over: Record<string, unknown> = {}) => ({
  name: `Agente ${unique()}`,
  email: `agente-${unique()}@test.example.com`,
  password: STRONG_PASSWORD,
  profile: 'user',
  ...over,
});

async function userCount(tenantId: number): Promise<number> {
  return (await query(`SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1`, [tenantId]))[0].n;
}

async function userRow(id: number) {
  const [row] = await query(
    `SELECT id, name, email, profile, queues, "allowedConnections", "blockVoice", "tokenVersion", "passwordHash" FROM users WHERE id = $1`,
    [id],
  );
  return row;
}

async function insertQueue(tenantId: number): Promise<number> {
  return (await query(`INSERT INTO queues ("tenantId", name) VALUES ($1, $2) RETURNING id`, [tenantId, `Fila ${unique()}`]))[0]
    .id;
}

async function insertChannel(tenantId: number): Promise<number> {
  return (
    await query(`INSERT INTO channels ("tenantId", name, type) VALUES ($1, $2, 'waba') RETURNING id`, [
      tenantId,
      `Canal ${unique()}`,
    ])
  )[0].id;
}

async function insertTicket(
  tenantId: number,
  userId: number,
  status: 'open' | 'pending' | 'closed',
): Promise<{ ticketId: number; contactId: number }> {
  const [contact] = await query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Cliente', $2) RETURNING id`, [
    tenantId,
    `55${Date.now()}${Math.floor(Math.random() * 1000)}`,
  ]);
  const [ticket] = await query(
    `INSERT INTO tickets ("tenantId", "contactId", "userId", status) VALUES ($1, $2, $3, $4) RETURNING id`,
    [tenantId, contact.id, userId, status],
  );
  return { ticketId: ticket.id, contactId: contact.id };
}

describe('GET /users', () => {
  it('answers admins a page of the tenant in name order, with the total and hasMore, never secrets', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('GET', '/users/', { token: users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.users.map((u: any) => u.name)).toEqual(['User admin', 'User super', 'User user']);
    expect(res.body.users[0]).toMatchObject({
      id: users.admin.id,
      email: users.admin.email,
      profile: 'admin',
      tenantId: tenant.id,
      queues: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenVersion|\$2[aby]\$/);

    const page1 = await server.request('GET', '/users?pageSize=2&pageNumber=1', { token: users.admin.token });
    expect(page1.body).toMatchObject({ count: 3, hasMore: true });
    expect(page1.body.users).toHaveLength(2);
    const page2 = await server.request('GET', '/users?pageSize=2&pageNumber=2', { token: users.admin.token });
    expect(page2.body).toMatchObject({ count: 3, hasMore: false });
    expect(page2.body.users.map((u: any) => u.id)).toEqual([users.user.id]);
  });

  it('searches name and e-mail case-insensitively, with % and _ taken literally', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const maria = await server.createUser(tenant.id, { name: 'Maria Souza', email: `maria.${unique()}@Example.com` });
    const byName = await server.request('GET', '/users?searchParam=mARIA', { token: users.admin.token });
    expect(byName.body.users.map((u: any) => u.id)).toEqual([maria.id]);
    expect(byName.body.count).toBe(1);
    const byEmail = await server.request('GET', `/users?searchParam=${encodeURIComponent(users.super.email.toUpperCase())}`, {
      token: users.admin.token,
    });
    expect(byEmail.body.users.map((u: any) => u.id)).toEqual([users.super.id]);
    const wildcard = await server.request('GET', '/users?searchParam=%25', { token: users.admin.token });
    expect(wildcard.body).toEqual({ users: [], count: 0, hasMore: false });
  });

  it('lets supervisors list (transfers) and refuses plain users (403)', async () => {
    const { users } = await server.createTenantWithUsers();
    const asSuper = await server.request('GET', '/users', { token: users.super.token });
    expect(asSuper.status).toBe(200);
    expect(asSuper.body.count).toBe(3);
    const asUser = await server.request('GET', '/users', { token: users.user.token });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error).toBe('ERR_NO_PERMISSION');
  });

  it("never shows another tenant's users, not even when searched by e-mail", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('GET', `/users?searchParam=${encodeURIComponent(a.users.user.email)}`, {
      token: b.users.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: [], count: 0, hasMore: false });
    const all = await server.request('GET', '/users?pageSize=100', { token: b.users.admin.token });
    expect(all.body.users.every((u: any) => u.tenantId === b.tenant.id)).toBe(true);
  });

  it('rejects a malformed query with 400 naming the parameter', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const [qs, field] of [
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['pageNumber=abc', 'pageNumber'],
      [`searchParam=${'x'.repeat(201)}`, 'searchParam'],
    ] as const) {
      const res = await server.request('GET', `/users?${qs}`, { token: users.admin.token });
      expect(res.status, qs).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain(field);
    }
  });

  it('requires a token (401)', async () => {
    const res = await server.request('GET', '/users');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_INVALID_TOKEN');
  });
});

describe('POST /users', () => {
  it("creates a user of the caller's tenant with its link, tells admins and supervisors, and the user can log in", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const queueId = await insertQueue(tenant.id);
    const channelId = await insertChannel(tenant.id);
    const body = newUserBody({
      email: `  Nova.${unique()}@Test.Example.com `,
      queues: [queueId, queueId],
      allowedConnections: [channelId],
      blockVoice: true,
    });
    const res = await server.request('POST', '/users', { token: users.admin.token, body });
    expect(res.status).toBe(201);
    const email = (body.email as string).trim().toLowerCase();
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: body.name,
      email,
      profile: 'user',
      tenantId: tenant.id,
      queues: [queueId],
      allowedConnections: [channelId],
      whatsappAllowed: [channelId],
      blockVoice: true,
      blockWavoip: true,
      isOnline: false,
      presence: 'offline',
      lastOnline: null,
      configs: { filtrosAtendimento: null, isDark: false },
    });
    const links = await query(`SELECT "tenantId" FROM user_tenants WHERE "userId" = $1`, [res.body.id]);
    expect(links).toEqual([{ tenantId: tenant.id }]);
    expect((await userRow(res.body.id)).passwordHash).not.toBe(STRONG_PASSWORD);

    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.userUpdate);
    expect(event?.payload).toEqual({ action: 'create', user: res.body });
    expect(event?.audience).toEqual({ scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] });

    const login = await server.login({ email, password: STRONG_PASSWORD });
    expect(login.userId).toBe(res.body.id);
  });

  it('refuses supervisors and users (403), creating nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    for (const caller of [users.super, users.user]) {
      const res = await server.request('POST', '/users', { token: caller.token, body: newUserBody() });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await userCount(tenant.id)).toBe(3);
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('never lets a tenant admin hand out the superadmin profile (403)', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('POST', '/users', {
      token: users.admin.token,
      body: newUserBody({ profile: 'superadmin' }),
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect(await userCount(tenant.id)).toBe(3);
  });

  it('refuses queue and channel ids of another tenant (400 naming the field), creating nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const foreignQueue = await insertQueue(b.tenant.id);
    const foreignChannel = await insertChannel(b.tenant.id);
    const ownQueue = await insertQueue(a.tenant.id);
    const res = await server.request('POST', '/users', {
      token: a.users.admin.token,
      body: newUserBody({ queues: [ownQueue, foreignQueue], allowedConnections: [foreignChannel] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(fieldPaths(res.body).sort()).toEqual(['allowedConnections', 'queues']);
    expect(JSON.stringify(res.body.fields)).toContain(String(foreignQueue));
    expect(JSON.stringify(res.body.fields)).not.toContain(String(ownQueue) + ',');
    expect(await userCount(a.tenant.id)).toBe(3);
  });

  it('rejects a malformed body with 400 ERR_VALIDATION naming the field', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const cases: [Record<string, unknown>, string][] = [
      [newUserBody({ name: undefined }), 'name'],
      [newUserBody({ name: '   ' }), 'name'],
      [newUserBody({ email: 'not-an-email' }), 'email'],
      [newUserBody({ password: 'abcdefg' }), 'password'],
      [newUserBody({ password: 'abc1!' }), 'password'],
      [newUserBody({ profile: 'root' }), 'profile'],
      [newUserBody({ profile: undefined }), 'profile'],
      [newUserBody({ queues: 'all' }), 'queues'],
      [newUserBody({ queues: [1, -2] }), 'queues.1'],
      [newUserBody({ allowedConnections: ['x'] }), 'allowedConnections.0'],
      [newUserBody({ blockVoice: 'yes' }), 'blockVoice'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('POST', '/users', { token: users.admin.token, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body), JSON.stringify(body)).toContain(field);
    }
    const notAnObject = await server.request('POST', '/users', { token: users.admin.token, body: '[1]' });
    expect(notAnObject.status).toBe(400);
    expect(await userCount(tenant.id)).toBe(3);
  });

  it('requires a token (401)', async () => {
    const { tenant } = await tenantWithAdmin();
    const res = await server.request('POST', '/users', { body: newUserBody() });
    expect(res.status).toBe(401);
    expect(await userCount(tenant.id)).toBe(1);
  });

  it('refuses an e-mail already used anywhere on the platform, whatever its case (409)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    for (const email of [a.users.user.email.toUpperCase(), b.users.user.email]) {
      const res = await server.request('POST', '/users', { token: a.users.admin.token, body: newUserBody({ email }) });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
      expect(res.body.message).toBe('Já existe um usuário com este e-mail.');
      expect(fieldPaths(res.body)).toEqual(['email']);
    }
    expect(await userCount(a.tenant.id)).toBe(3);
  });

  it('gives two concurrent creations of one e-mail one user and one 409', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const email = `corrida-${unique()}@test.example.com`;
    const answers = await Promise.all(
      [1, 2].map(() => server.request('POST', '/users', { token: admin.token, body: newUserBody({ email }) })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await userCount(tenant.id)).toBe(2);
  });

  it("creates up to the tenant's maxUsers and refuses the next with 'Limite de usuários atingido.'", async () => {
    const { tenant, admin } = await tenantWithAdmin(3);
    for (let i = 0; i < 2; i++) {
      const ok = await server.request('POST', '/users', { token: admin.token, body: newUserBody() });
      expect(ok.status).toBe(201);
    }
    const before = await eventCount(server, tenant.id);
    const refused = await server.request('POST', '/users', { token: admin.token, body: newUserBody() });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'ERR_USER_LIMIT', message: 'Limite de usuários atingido.' });
    expect(await userCount(tenant.id)).toBe(3);
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('never exceeds maxUsers under concurrent creations', async () => {
    const { tenant, admin } = await tenantWithAdmin(4);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.request('POST', '/users', { token: admin.token, body: newUserBody() })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 400).every((r) => r.body.error === 'ERR_USER_LIMIT')).toBe(true);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(await userCount(tenant.id)).toBe(4);
  });
});

describe('PUT /users/{id}', () => {
  it("lets an admin change a user's name, e-mail, queues, channels and voice flag, telling staff and the user", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const queueId = await insertQueue(tenant.id);
    const channelId = await insertChannel(tenant.id);
    const email = `renomeado-${unique()}@test.example.com`;
    const res = await server.request('PUT', `/users/${users.user.id}`, {
      token: users.admin.token,
      body: {
        name: 'Novo Nome',
        email: email.toUpperCase(),
        queues: [queueId],
        allowedConnections: [channelId],
        blockVoice: true,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: users.user.id,
      name: 'Novo Nome',
      email,
      queues: [queueId],
      allowedConnections: [channelId],
      blockVoice: true,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenVersion/);
    // Neither password nor profile changed: the user's session stays valid.
    const stillIn = await server.request('GET', `/users/${users.user.id}`, { token: users.user.token });
    expect(stillIn.status).toBe(200);
    expect((await userRow(users.user.id)).tokenVersion).toBe(0);

    const events = await query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq DESC LIMIT 2`,
      [tenant.id, SOCKET_EVENTS.userUpdate],
    );
    expect(events.map((e: any) => e.audience)).toEqual([
      { scope: 'user', userId: users.user.id },
      { scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] },
    ]);
    expect(events[0].payload).toEqual({ action: 'update', user: res.body });
  });

  it('lets a user change their own name, but nothing else of theirs (403)', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const ok = await server.request('PUT', `/users/${users.user.id}/`, { token: users.user.token, body: { name: 'Eu Mesmo' } });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Eu Mesmo');
    const queueId = await insertQueue(tenant.id);
    for (const body of [
      { profile: 'admin' },
      { queues: [queueId] },
      { name: 'X', blockVoice: false },
      { email: 'eu@test.example.com' },
    ]) {
      const res = await server.request('PUT', `/users/${users.user.id}`, { token: users.user.token, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await userRow(users.user.id)).toMatchObject({ name: 'Eu Mesmo', profile: 'user', queues: [], blockVoice: false });
  });

  it('refuses supervisors and users changing someone else (403), changing nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    for (const [caller, target] of [
      [users.super, users.user],
      [users.user, users.super],
      [users.super, users.admin],
    ] as const) {
      const res = await server.request('PUT', `/users/${target.id}`, { token: caller.token, body: { name: 'Invadido' } });
      expect(res.status, `${caller.profile} -> ${target.profile}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await userRow(users.user.id)).name).toBe('User user');
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('never lets a tenant admin hand out superadmin, nor touch a superadmin', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const promote = await server.request('PUT', `/users/${users.user.id}`, {
      token: users.admin.token,
      body: { profile: 'superadmin' },
    });
    expect(promote.status).toBe(403);
    expect((await userRow(users.user.id)).profile).toBe('user');
    // An admin of the platform tenant must not reset the super administrator's password.
    const platform = await platformTenant(server);
    const superadmin = await server.createUser(platform.id, { profile: 'superadmin' });
    const platformAdmin = await signedIn(platform.id, 'admin');
    const takeover = await server.request('PUT', `/users/${superadmin.id}`, {
      token: platformAdmin.token,
      body: { password: 'Tomada-123' },
    });
    expect(takeover.status).toBe(403);
    expect((await server.login(superadmin)).userId).toBe(superadmin.id);
    expect(tenant.id).not.toBe(platform.id);
  });

  it('answers an admin of another tenant 404 and changes nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const before = await eventCount(server, a.tenant.id);
    const res = await server.request('PUT', `/users/${a.users.user.id}`, {
      token: b.users.admin.token,
      body: { name: 'Invadido', password: 'Tomada-123' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    expect(await userRow(a.users.user.id)).toMatchObject({ name: 'User user', tokenVersion: 0 });
    expect(await eventCount(server, a.tenant.id)).toBe(before);
    expect((await server.request('GET', `/users/${a.users.user.id}`, { token: a.users.user.token })).status).toBe(200);
  });

  it('refuses queue and channel ids of another tenant (400), changing nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    for (const body of [
      { queues: [await insertQueue(b.tenant.id)] },
      { allowedConnections: [await insertChannel(b.tenant.id)] },
    ]) {
      const res = await server.request('PUT', `/users/${a.users.user.id}`, { token: a.users.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toEqual(Object.keys(body));
    }
    expect(await userRow(a.users.user.id)).toMatchObject({ queues: [], allowedConnections: [] });
  });

  it('rejects a malformed body or id with 400 naming the field', async () => {
    const { users } = await server.createTenantWithUsers();
    const cases: [unknown, string][] = [
      [{}, 'body'],
      [{ name: '' }, 'name'],
      [{ email: 'x@' }, 'email'],
      [{ password: 'semnumero!' }, 'password'],
      [{ profile: 'owner' }, 'profile'],
      [{ queues: [0] }, 'queues.0'],
      [{ blockVoice: 1 }, 'blockVoice'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PUT', `/users/${users.user.id}`, { token: users.admin.token, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain(field);
    }
    const badId = await server.request('PUT', '/users/abc', { token: users.admin.token, body: { name: 'X' } });
    expect(badId.status).toBe(400);
    expect(fieldPaths(badId.body)).toContain('id');
    expect((await userRow(users.user.id)).name).toBe('User user');
  });

  it('requires a token (401)', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.user.id}`, { body: { name: 'Anônimo' } });
    expect(res.status).toBe(401);
    expect((await userRow(users.user.id)).name).toBe('User user');
  });

  it('refuses an e-mail taken by another user (409)', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.user.id}`, {
      token: users.admin.token,
      body: { email: users.super.email },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    expect((await userRow(users.user.id)).email).toBe(users.user.email);
  });

  it("revokes the user's sessions when an admin changes their password: the old token is 401, the new password logs in", async () => {
    const { users } = await server.createTenantWithUsers();
    const ended = vi.spyOn(server.deps.sessions, 'endUserSessions');
    const res = await server.request('PUT', `/users/${users.user.id}`, {
      token: users.admin.token,
      body: { password: 'Trocada-99' },
    });
    expect(res.status).toBe(200);
    expect(ended).toHaveBeenCalledWith(users.user.id);
    const old = await server.request('GET', `/users/${users.user.id}`, { token: users.user.token });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_INVALID_TOKEN');
    const sessions = await query(`SELECT "revokedAt", "revokedReason" FROM auth_sessions WHERE "userId" = $1`, [users.user.id]);
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s: any) => s.revokedAt !== null && s.revokedReason === 'password_change')).toBe(true);
    await expect(server.login({ email: users.user.email, password: users.user.password })).rejects.toThrow(/401/);
    const fresh = await server.login({ email: users.user.email, password: 'Trocada-99' });
    expect((await server.request('GET', `/users/${users.user.id}`, { token: fresh.token })).status).toBe(200);
    // The admin's own session is untouched.
    expect((await server.request('GET', '/users', { token: users.admin.token })).status).toBe(200);
  });

  it("revokes the caller's own old token when they change their own password", async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/users/${users.super.id}`, {
      token: users.super.token,
      body: { password: 'Minha-nova1' },
    });
    expect(res.status).toBe(200);
    expect((await server.request('GET', `/users/${users.super.id}`, { token: users.super.token })).status).toBe(401);
  });

  it('revokes the sessions when the profile changes, and not when the same profile is sent', async () => {
    const { users } = await server.createTenantWithUsers();
    const same = await server.request('PUT', `/users/${users.user.id}`, { token: users.admin.token, body: { profile: 'user' } });
    expect(same.status).toBe(200);
    expect((await server.request('GET', `/users/${users.user.id}`, { token: users.user.token })).status).toBe(200);
    const promoted = await server.request('PUT', `/users/${users.user.id}`, {
      token: users.admin.token,
      body: { profile: 'super' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.profile).toBe('super');
    expect((await server.request('GET', `/users/${users.user.id}`, { token: users.user.token })).status).toBe(401);
    expect((await userRow(users.user.id)).tokenVersion).toBe(1);
  });

  it('refuses demoting the last admin of the tenant (400 ERR_LAST_ADMIN), and allows it when another admin remains', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const alone = await server.request('PUT', `/users/${users.admin.id}`, {
      token: users.admin.token,
      body: { profile: 'user' },
    });
    expect(alone.status).toBe(400);
    expect(alone.body).toMatchObject({ error: 'ERR_LAST_ADMIN', message: 'A empresa precisa de pelo menos um administrador.' });
    expect((await userRow(users.admin.id)).profile).toBe('admin');
    // The admin's session survived the refused change.
    expect((await server.request('GET', '/users', { token: users.admin.token })).status).toBe(200);

    const second = await signedIn(tenant.id, 'admin');
    const demoted = await server.request('PUT', `/users/${users.admin.id}`, { token: second.token, body: { profile: 'super' } });
    expect(demoted.status).toBe(200);
    const last = await server.request('PUT', `/users/${second.id}`, { token: second.token, body: { profile: 'user' } });
    expect(last.status).toBe(400);
    expect(last.body.error).toBe('ERR_LAST_ADMIN');
  });

  it("never deadlocks with the user's own writes (online flag) racing an admin's edit", async () => {
    const { users } = await server.createTenantWithUsers();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? server.request('PUT', `/users/${users.user.id}`, {
              token: users.admin.token,
              body: { name: `Nome ${i}`, blockVoice: i % 4 === 0 },
            })
          : server.request('PUT', `/usersIsOnline/${users.user.id}`, {
              token: users.user.token,
              body: { isOnline: i % 3 === 0 },
            }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
  });

  it('keeps an admin when two admins demote each other at once', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const other = await signedIn(tenant.id, 'admin');
    const answers = await Promise.all([
      server.request('PUT', `/users/${other.id}`, { token: admin.token, body: { profile: 'user' } }),
      server.request('PUT', `/users/${admin.id}`, { token: other.token, body: { profile: 'user' } }),
    ]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const admins = await query(`SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1 AND profile = 'admin'`, [tenant.id]);
    expect(admins[0].n).toBe(1);
  });
});

describe('DELETE /users/{id}', () => {
  it('deletes the user, keeping closed tickets without a user and dropping team and wallet rows; their token dies', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const [team] = await query(`INSERT INTO teams ("tenantId", name) VALUES ($1, $2) RETURNING id`, [
      tenant.id,
      `Equipe ${unique()}`,
    ]);
    await query(`INSERT INTO team_users ("teamId", "userId", "tenantId") VALUES ($1, $2, $3)`, [
      team.id,
      users.user.id,
      tenant.id,
    ]);
    const closed = await insertTicket(tenant.id, users.user.id, 'closed');
    await query(`INSERT INTO contact_wallets ("contactId", "userId", "tenantId") VALUES ($1, $2, $3)`, [
      closed.contactId,
      users.user.id,
      tenant.id,
    ]);
    const ended = vi.spyOn(server.deps.sessions, 'endUserSessions');

    const res = await server.request('DELETE', `/users/${users.user.id}`, { token: users.admin.token });
    expect(res.status).toBe(204);
    expect(await userRow(users.user.id)).toBeUndefined();
    expect(await query(`SELECT * FROM team_users WHERE "userId" = $1`, [users.user.id])).toEqual([]);
    expect(await query(`SELECT * FROM contact_wallets WHERE "userId" = $1`, [users.user.id])).toEqual([]);
    expect(await query(`SELECT * FROM user_tenants WHERE "userId" = $1`, [users.user.id])).toEqual([]);
    expect((await query(`SELECT "userId" FROM tickets WHERE id = $1`, [closed.ticketId]))[0].userId).toBeNull();
    expect(ended).toHaveBeenCalledWith(users.user.id);
    expect((await server.request('GET', '/users/chat-privado', { token: users.user.token })).status).toBe(401);

    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.userDelete);
    expect(event?.payload).toEqual({ action: 'delete', id: users.user.id });
    expect(event?.audience).toEqual({ scope: 'tenant' });
  });

  it('refuses a user with an open or pending ticket (ERR_USER_DELETE), deleting nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    for (const [target, status] of [
      [users.user, 'open'],
      [users.super, 'pending'],
    ] as const) {
      await insertTicket(tenant.id, target.id, status);
      const before = await eventCount(server, tenant.id);
      const res = await server.request('DELETE', `/users/${target.id}`, { token: users.admin.token });
      expect(res.status, status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'ERR_USER_DELETE',
        message: 'Não é possível deletar o usuário: ele possui 1 atendimento aberto ou pendente.',
      });
      expect(await userRow(target.id)).toBeDefined();
      expect(await eventCount(server, tenant.id)).toBe(before);
    }
  });

  it('refuses deleting oneself (ERR_USER_DELETE)', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await signedIn(tenant.id, 'admin');
    const res = await server.request('DELETE', `/users/${admin.id}`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_USER_DELETE', message: 'Não é possível deletar o próprio usuário.' });
    expect(await userRow(admin.id)).toBeDefined();
  });

  it('keeps an admin when two admins delete each other at once', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const other = await signedIn(tenant.id, 'admin');
    const answers = await Promise.all([
      server.request('DELETE', `/users/${other.id}`, { token: admin.token }),
      server.request('DELETE', `/users/${admin.id}`, { token: other.token }),
    ]);
    expect(answers.filter((r) => r.status === 204)).toHaveLength(1);
    // The loser is refused as the last admin, or, if the winner committed first, its session is gone.
    const loser = answers.find((r) => r.status !== 204)!;
    expect(['ERR_LAST_ADMIN', 'ERR_INVALID_TOKEN']).toContain(loser.body.error);
    const admins = await query(`SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1 AND profile = 'admin'`, [tenant.id]);
    expect(admins[0].n).toBe(1);
  });

  it('refuses supervisors and users (403), deleting nothing', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const [caller, target] of [
      [users.super, users.user],
      [users.user, users.super],
      [users.user, users.user],
    ] as const) {
      const res = await server.request('DELETE', `/users/${target.id}`, { token: caller.token });
      expect(res.status, `${caller.profile} -> ${target.profile}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await userRow(users.user.id)).toBeDefined();
    expect(await userRow(users.super.id)).toBeDefined();
  });

  it('answers an admin of another tenant 404 and deletes nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const before = await eventCount(server, a.tenant.id);
    const res = await server.request('DELETE', `/users/${a.users.user.id}`, { token: b.users.admin.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    expect(await userRow(a.users.user.id)).toBeDefined();
    expect(await eventCount(server, a.tenant.id)).toBe(before);
    expect((await server.request('GET', '/users/chat-privado', { token: a.users.user.token })).status).toBe(200);
  });

  it('answers a malformed id 400 naming it, and an unknown id 404', async () => {
    const { users } = await server.createTenantWithUsers();
    const bad = await server.request('DELETE', '/users/0', { token: users.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(fieldPaths(bad.body)).toContain('id');
    const missing = await server.request('DELETE', '/users/987654321', { token: users.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_USER_FOUND');
  });

  it('requires a token (401)', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('DELETE', `/users/${users.user.id}`);
    expect(res.status).toBe(401);
    expect(await userRow(users.user.id)).toBeDefined();
  });
});

describe('GET /users/chat-privado', () => {
  it('answers every profile the colleagues of its tenant, without itself and without queues or settings', async () => {
    const { users } = await server.createTenantWithUsers();
    await query(`UPDATE users SET "isOnline" = false, "lastOnline" = NULL WHERE id = $1`, [users.super.id]);
    for (const caller of [users.user, users.super, users.admin]) {
      const res = await server.request('GET', '/users/chat-privado/', { token: caller.token });
      expect(res.status, caller.profile).toBe(200);
      expect(res.body.map((u: any) => u.id).sort()).toEqual(
        [users.admin.id, users.super.id, users.user.id].filter((id) => id !== caller.id).sort(),
      );
    }
    const res = await server.request('GET', '/users/chat-privado', { token: users.user.token });
    expect(res.body.find((u: any) => u.id === users.super.id)).toEqual({
      id: users.super.id,
      name: 'User super',
      email: users.super.email,
      profile: 'super',
      isOnline: false,
      presence: 'offline',
      lastOnline: null,
    });
  });

  it('filters by name or e-mail with searchParam', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const joana = await server.createUser(tenant.id, { name: 'Joana Prado' });
    const res = await server.request('GET', '/users/chat-privado?searchParam=joANA', { token: users.user.token });
    expect(res.body.map((u: any) => u.id)).toEqual([joana.id]);
  });

  it("never lists another tenant's users", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('GET', `/users/chat-privado?searchParam=${encodeURIComponent(a.users.admin.email)}`, {
      token: b.users.user.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const all = await server.request('GET', '/users/chat-privado', { token: b.users.user.token });
    expect(all.body.map((u: any) => u.id).sort()).toEqual([b.users.admin.id, b.users.super.id].sort());
  });

  it('rejects a malformed query with 400 naming searchParam', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const qs of [`searchParam=${'y'.repeat(201)}`, 'searchParam=a&searchParam=b']) {
      const res = await server.request('GET', `/users/chat-privado?${qs}`, { token: users.user.token });
      expect(res.status).toBe(400);
      expect(fieldPaths(res.body)).toContain('searchParam');
    }
  });

  it('requires a token (401)', async () => {
    const res = await server.request('GET', '/users/chat-privado/');
    expect(res.status).toBe(401);
  });
});
