import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@shared/profiles';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';

/**
 * /userTenants through the real app: admins read their own tenant's links; only the platform
 * super administrator links users to other tenants, moves and removes links; the link of a user
 * to their own tenant is never moved or removed.
 */
let server: TestServer;
let superadmin: TestUser & { token: string };
beforeAll(async () => {
  server = await startTestServer();
  const platform = await platformTenant(server);
  superadmin = await signedIn(platform.id, 'superadmin');
});
afterAll(async () => server?.close());

async function signedIn(tenantId: number, profile: Profile): Promise<TestUser & { token: string }> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);

async function linksOf(userId: number): Promise<{ id: number; tenantId: number }[]> {
  return server.deps.dataSource.query(`SELECT id, "tenantId" FROM user_tenants WHERE "userId" = $1 ORDER BY id`, [userId]);
}

async function homeLinkId(userId: number): Promise<number> {
  return (await linksOf(userId))[0]!.id;
}

/** Links a user to a tenant directly (the POST route is tested on its own). */
async function insertLink(userId: number, tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2) RETURNING id`,
    [userId, tenantId],
  );
  return row.id;
}

describe('GET /userTenants', () => {
  it('answers an admin the links of their tenant, each with its user and tenant, home flagged', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const other = await server.createTenantWithUsers();
    // A user of another tenant linked into this one is one of this tenant's links.
    const guestLink = await insertLink(other.users.user.id, tenant.id);
    const res = await server.request('GET', '/userTenants/', { token: users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.userTenants.map((l: any) => l.userId)).toEqual([
      users.admin.id,
      users.super.id,
      users.user.id,
      other.users.user.id,
    ]);
    expect(res.body.userTenants[0]).toEqual({
      id: expect.any(Number),
      userId: users.admin.id,
      tenantId: tenant.id,
      home: true,
      createdAt: expect.any(String),
      user: { id: users.admin.id, name: 'User admin', email: users.admin.email, profile: 'admin' },
      tenant: { id: tenant.id, name: tenant.name },
    });
    expect(res.body.userTenants[3]).toMatchObject({ id: guestLink, home: false, tenantId: tenant.id });

    const one = await server.request('GET', `/userTenants?userId=${users.user.id}`, { token: users.admin.token });
    expect(one.body.userTenants.map((l: any) => l.userId)).toEqual([users.user.id]);
    const paged = await server.request('GET', '/userTenants?pageSize=3&pageNumber=1', { token: users.admin.token });
    expect(paged.body).toMatchObject({ count: 4, hasMore: true });
  });

  it("never shows an admin another tenant's links, whatever the parameters", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    // a's user is also linked to c: b's admin must not learn of it, nor a's admin of c's link.
    const c = await server.createTenant();
    await insertLink(a.users.user.id, c.id);
    for (const qs of [`tenantId=${a.tenant.id}`, `userId=${a.users.user.id}`, `tenantId=${c.id}`]) {
      const res = await server.request('GET', `/userTenants?${qs}`, { token: b.users.admin.token });
      expect(res.status, qs).toBe(200);
      expect(res.body).toEqual({ userTenants: [], count: 0, hasMore: false });
    }
    const own = await server.request('GET', `/userTenants?userId=${a.users.user.id}`, { token: a.users.admin.token });
    expect(own.body.userTenants.map((l: any) => l.tenantId)).toEqual([a.tenant.id]);
  });

  it("lets the platform super administrator read any tenant's links", async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('GET', `/userTenants?tenantId=${a.tenant.id}`, { token: superadmin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const byUser = await server.request('GET', `/userTenants?userId=${a.users.super.id}`, { token: superadmin.token });
    expect(byUser.body.userTenants).toHaveLength(1);
    expect(byUser.body.userTenants[0]).toMatchObject({ userId: a.users.super.id, tenantId: a.tenant.id, home: true });
  });

  it('refuses supervisors and users (403)', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const caller of [users.super, users.user]) {
      const res = await server.request('GET', '/userTenants', { token: caller.token });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('rejects a malformed query with 400 naming the parameter', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const [qs, field] of [
      ['userId=abc', 'userId'],
      ['tenantId=-1', 'tenantId'],
      ['pageSize=1000', 'pageSize'],
    ] as const) {
      const res = await server.request('GET', `/userTenants?${qs}`, { token: users.admin.token });
      expect(res.status, qs).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain(field);
    }
  });

  it('requires a token (401)', async () => {
    expect((await server.request('GET', '/userTenants')).status).toBe(401);
  });
});

describe('POST /userTenants', () => {
  it('lets the platform super administrator link a user to another tenant, whose admin then sees it', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('POST', '/userTenants', {
      token: superadmin.token,
      body: { userId: a.users.user.id, tenantId: b.tenant.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: a.users.user.id,
      tenantId: b.tenant.id,
      home: false,
      user: { id: a.users.user.id, email: a.users.user.email },
      tenant: { id: b.tenant.id, name: b.tenant.name },
    });
    expect((await linksOf(a.users.user.id)).map((l) => l.tenantId)).toEqual([a.tenant.id, b.tenant.id]);
    const seen = await server.request('GET', `/userTenants?userId=${a.users.user.id}`, { token: b.users.admin.token });
    expect(seen.body.userTenants.map((l: any) => l.id)).toEqual([res.body.id]);

    const again = await server.request('POST', '/userTenants', {
      token: superadmin.token,
      body: { userId: a.users.user.id, tenantId: b.tenant.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_USER_TENANT_EXISTS');
  });

  it('answers an unknown user or tenant 404, linking nothing', async () => {
    const a = await server.createTenantWithUsers();
    const noUser = await server.request('POST', '/userTenants', {
      token: superadmin.token,
      body: { userId: 987654321, tenantId: a.tenant.id },
    });
    expect(noUser.status).toBe(404);
    expect(noUser.body.error).toBe('ERR_NO_USER_FOUND');
    const noTenant = await server.request('POST', '/userTenants', {
      token: superadmin.token,
      body: { userId: a.users.user.id, tenantId: 987654321 },
    });
    expect(noTenant.status).toBe(404);
    expect(noTenant.body.error).toBe('ERR_NO_TENANT_FOUND');
    expect(await linksOf(a.users.user.id)).toHaveLength(1);
  });

  it('refuses tenant admins (even for their own tenant) and a "superadmin" outside the platform tenant (403)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const stray = await signedIn(b.tenant.id, 'superadmin');
    for (const [caller, body] of [
      [b.users.admin, { userId: a.users.user.id, tenantId: b.tenant.id }],
      [a.users.admin, { userId: a.users.user.id, tenantId: b.tenant.id }],
      [stray, { userId: a.users.user.id, tenantId: b.tenant.id }],
      [a.users.super, { userId: a.users.user.id, tenantId: b.tenant.id }],
    ] as const) {
      const res = await server.request('POST', '/userTenants', { token: caller.token, body });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await linksOf(a.users.user.id)).toHaveLength(1);
  });

  it('rejects a malformed body with 400 naming the field', async () => {
    const a = await server.createTenantWithUsers();
    for (const [body, field] of [
      [{ userId: 'x', tenantId: a.tenant.id }, 'userId'],
      [{ userId: a.users.user.id }, 'tenantId'],
      [{ userId: a.users.user.id, tenantId: 1.5 }, 'tenantId'],
    ] as const) {
      const res = await server.request('POST', '/userTenants', { token: superadmin.token, body });
      expect(res.status, field).toBe(400);
      expect(fieldPaths(res.body)).toContain(field);
    }
  });

  it('requires a token (401)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenant();
    const res = await server.request('POST', '/userTenants', { body: { userId: a.users.user.id, tenantId: b.id } });
    expect(res.status).toBe(401);
    expect(await linksOf(a.users.user.id)).toHaveLength(1);
  });
});

describe('PUT /userTenants/{id}', () => {
  it('lets the platform super administrator move a link to another tenant', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenant();
    const c = await server.createTenant();
    const link = await insertLink(a.users.user.id, b.id);
    const res = await server.request('PUT', `/userTenants/${link}`, { token: superadmin.token, body: { tenantId: c.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: link,
      userId: a.users.user.id,
      tenantId: c.id,
      home: false,
      tenant: { id: c.id, name: c.name },
    });
    expect((await linksOf(a.users.user.id)).map((l) => l.tenantId)).toEqual([a.tenant.id, c.id]);

    // Onto a tenant the user is already linked to (here: their own): 409, unchanged.
    const clash = await server.request('PUT', `/userTenants/${link}`, {
      token: superadmin.token,
      body: { tenantId: a.tenant.id },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('ERR_USER_TENANT_EXISTS');
    const noTenant = await server.request('PUT', `/userTenants/${link}`, {
      token: superadmin.token,
      body: { tenantId: 987654321 },
    });
    expect(noTenant.status).toBe(404);
    expect(noTenant.body.error).toBe('ERR_NO_TENANT_FOUND');
    expect((await linksOf(a.users.user.id)).map((l) => l.tenantId)).toEqual([a.tenant.id, c.id]);
  });

  it("refuses moving a user's own-tenant link (400), and answers an unknown link 404", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenant();
    const home = await homeLinkId(a.users.user.id);
    const res = await server.request('PUT', `/userTenants/${home}`, { token: superadmin.token, body: { tenantId: b.id } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_USER_TENANT_HOME');
    const missing = await server.request('PUT', '/userTenants/987654321', { token: superadmin.token, body: { tenantId: b.id } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_USER_TENANT_FOUND');
    expect((await linksOf(a.users.user.id)).map((l) => l.tenantId)).toEqual([a.tenant.id]);
  });

  it('refuses tenant admins (403), changing nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const link = await insertLink(b.users.user.id, a.tenant.id);
    for (const caller of [a.users.admin, b.users.admin, a.users.user]) {
      const res = await server.request('PUT', `/userTenants/${link}`, { token: caller.token, body: { tenantId: a.tenant.id } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await linksOf(b.users.user.id)).map((l) => l.tenantId)).toEqual([b.tenant.id, a.tenant.id]);
  });

  it('rejects a malformed body or id with 400 naming the field', async () => {
    const a = await server.createTenantWithUsers();
    const link = await insertLink(a.users.user.id, (await server.createTenant()).id);
    for (const body of [{}, { tenantId: 'dois' }]) {
      const res = await server.request('PUT', `/userTenants/${link}`, { token: superadmin.token, body });
      expect(res.status).toBe(400);
      expect(fieldPaths(res.body)).toContain('tenantId');
    }
    const badId = await server.request('PUT', '/userTenants/x', { token: superadmin.token, body: { tenantId: a.tenant.id } });
    expect(badId.status).toBe(400);
    expect(fieldPaths(badId.body)).toContain('id');
  });

  it('requires a token (401)', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('PUT', `/userTenants/${await homeLinkId(a.users.user.id)}`, {
      body: { tenantId: a.tenant.id },
    });
    expect(res.status).toBe(401);
  });
});

describe('DELETE /userTenants/{id}', () => {
  it('lets the platform super administrator remove a link, naming its tenant in the body', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenant();
    const link = await insertLink(a.users.user.id, b.id);
    const wrongTenant = await server.request('DELETE', `/userTenants/${link}`, {
      token: superadmin.token,
      body: { tenantId: a.tenant.id },
    });
    expect(wrongTenant.status).toBe(404);
    expect(wrongTenant.body.error).toBe('ERR_NO_USER_TENANT_FOUND');
    expect(await linksOf(a.users.user.id)).toHaveLength(2);

    const res = await server.request('DELETE', `/userTenants/${link}/`, { token: superadmin.token, body: { tenantId: b.id } });
    expect(res.status).toBe(204);
    expect((await linksOf(a.users.user.id)).map((l) => l.tenantId)).toEqual([a.tenant.id]);
  });

  it("refuses removing a user's own-tenant link (400)", async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('DELETE', `/userTenants/${await homeLinkId(a.users.user.id)}`, {
      token: superadmin.token,
      body: { tenantId: a.tenant.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_USER_TENANT_HOME');
    expect(await linksOf(a.users.user.id)).toHaveLength(1);
  });

  it('refuses tenant admins, even for a link into their own tenant (403), removing nothing', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const link = await insertLink(b.users.user.id, a.tenant.id);
    for (const caller of [a.users.admin, b.users.admin, a.users.super]) {
      const res = await server.request('DELETE', `/userTenants/${link}`, {
        token: caller.token,
        body: { tenantId: a.tenant.id },
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await linksOf(b.users.user.id)).toHaveLength(2);
  });

  it('rejects a missing or malformed tenantId with 400 naming it', async () => {
    const a = await server.createTenantWithUsers();
    const link = await insertLink(a.users.user.id, (await server.createTenant()).id);
    for (const body of [undefined, { tenantId: 'x' }]) {
      const res = await server.request('DELETE', `/userTenants/${link}`, { token: superadmin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body)).toContain('tenantId');
    }
    const notJson = await server.request('DELETE', `/userTenants/${link}`, { token: superadmin.token, body: '{"tenantId":' });
    expect(notJson.status).toBe(400);
    expect(await linksOf(a.users.user.id)).toHaveLength(2);
  });

  it('requires a token (401)', async () => {
    const a = await server.createTenantWithUsers();
    const link = await insertLink(a.users.user.id, (await server.createTenant()).id);
    const res = await server.request('DELETE', `/userTenants/${link}`, { body: { tenantId: a.tenant.id } });
    expect(res.status).toBe(401);
    expect(await linksOf(a.users.user.id)).toHaveLength(2);
  });
});
