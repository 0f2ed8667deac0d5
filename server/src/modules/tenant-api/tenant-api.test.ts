import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer, type TestTenant } from '../../../../tests/helpers/test-server';
import { hashApiToken, tenantOfApiToken } from './tenant-api.service';

let server: TestServer;
let superadmin: string;
let tenantA: TestTenant;
let tenantB: TestTenant;
let others: { label: string; token: string }[];

beforeAll(async () => {
  server = await startTestServer();
  const platform = await platformTenant(server);
  superadmin = (await server.login(await server.createUser(platform.id, { profile: 'superadmin' }))).token;
  others = [
    { label: 'platform admin', token: (await server.login(await server.createUser(platform.id, { profile: 'admin' }))).token },
  ];
  const a = await server.createTenantWithUsers();
  const b = await server.createTenantWithUsers();
  tenantA = a.tenant;
  tenantB = b.tenant;
  for (const [name, t] of [
    ['A', a],
    ['B', b],
  ] as const) {
    for (const profile of ['admin', 'super', 'user'] as const)
      others.push({ label: `tenant ${name} ${profile}`, token: t.users[profile].token });
    others.push({
      label: `tenant ${name} superadmin`,
      token: (await server.login(await server.createUser(t.tenant.id, { profile: 'superadmin' }))).token,
    });
  }
});
afterAll(async () => server?.close());

const create = (body: unknown, token = superadmin) => server.request('POST', '/platform/tenant-api-tokens', { token, body });

describe('tenant API tokens (/tenantApi)', () => {
  it('creates a token for a tenant, shows it once and stores only its hash', async () => {
    const res = await create({ tenantId: tenantA.id, name: 'Integração ERP' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tenantId: tenantA.id, tenantName: tenantA.name, name: 'Integração ERP', revokedAt: null });
    expect(res.body.token).toMatch(/^atk_[A-Za-z0-9_-]{43}$/);
    expect(res.body.tokenPrefix).toBe(res.body.token.slice(0, 12));

    const [row] = await server.deps.dataSource.query(`SELECT "tokenHash" FROM tenant_api_tokens WHERE id = $1`, [res.body.id]);
    expect(row.tokenHash).toBe(hashApiToken(res.body.token));
    const stored = JSON.stringify(
      await server.deps.dataSource.query(`SELECT * FROM tenant_api_tokens WHERE id = $1`, [res.body.id]),
    );
    expect(stored).not.toContain(res.body.token);

    const list = await server.request('GET', '/platform/tenant-api-tokens', { token: superadmin });
    const listed = list.body.find((t: { id: number }) => t.id === res.body.id);
    expect(listed).toEqual({
      id: res.body.id,
      tenantId: tenantA.id,
      tenantName: tenantA.name,
      name: 'Integração ERP',
      tokenPrefix: res.body.tokenPrefix,
      createdAt: res.body.createdAt,
      revokedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    expect(await tenantOfApiToken(server.deps.dataSource, res.body.token)).toEqual({
      tenantId: tenantA.id,
      tokenId: res.body.id,
    });
  });

  it('filters the list by tenant and lists the tenants a token can be made for', async () => {
    const a = await create({ tenantId: tenantA.id, name: 'A' });
    const b = await create({ tenantId: tenantB.id, name: 'B' });
    const onlyB = await server.request('GET', `/platform/tenant-api-tokens?tenantId=${tenantB.id}`, { token: superadmin });
    expect(onlyB.body.map((t: { id: number }) => t.id)).toContain(b.body.id);
    expect(onlyB.body.map((t: { id: number }) => t.id)).not.toContain(a.body.id);
    expect(onlyB.body.every((t: { tenantId: number }) => t.tenantId === tenantB.id)).toBe(true);
    const tenants = await server.request('GET', '/platform/tenant-api-tokens/tenants', { token: superadmin });
    expect(tenants.body).toEqual(
      expect.arrayContaining([
        { id: tenantA.id, name: tenantA.name },
        { id: tenantB.id, name: tenantB.name },
      ]),
    );
  });

  it('revokes a token: it stays listed with its revocation time and no longer opens the API', async () => {
    const created = await create({ tenantId: tenantB.id, name: 'Revogar' });
    const revoked = await server.request('DELETE', `/platform/tenant-api-tokens/${created.body.id}`, { token: superadmin });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const again = await server.request('DELETE', `/platform/tenant-api-tokens/${created.body.id}`, { token: superadmin });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    expect(await tenantOfApiToken(server.deps.dataSource, created.body.token)).toBeNull();
    const list = await server.request('GET', `/platform/tenant-api-tokens?tenantId=${tenantB.id}`, { token: superadmin });
    expect(list.body.find((t: { id: number }) => t.id === created.body.id).revokedAt).toBe(revoked.body.revokedAt);
  });

  it('answers 404 for an unknown tenant or token, 400 for malformed input', async () => {
    const noTenant = await create({ tenantId: 2147483000, name: 'X' });
    expect(noTenant.status).toBe(404);
    expect(noTenant.body.error).toBe('ERR_NO_TENANT_FOUND');
    const noToken = await server.request('DELETE', '/platform/tenant-api-tokens/2147483000', { token: superadmin });
    expect(noToken.status).toBe(404);
    expect(noToken.body.error).toBe('ERR_NO_API_CONFIG');
    for (const body of [
      {},
      { tenantId: 'abc', name: 'X' },
      { tenantId: tenantA.id, name: '' },
      { tenantId: tenantA.id, name: 'x'.repeat(101) },
      { tenantId: tenantA.id, name: 'X', token: 'mine' },
    ]) {
      const res = await create(body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
    }
    expect((await server.request('DELETE', '/platform/tenant-api-tokens/abc', { token: superadmin })).status).toBe(400);
    expect((await server.request('GET', '/platform/tenant-api-tokens?tenantId=0', { token: superadmin })).status).toBe(400);
  });

  it('refuses every call to every other profile of two tenants and of the platform tenant', async () => {
    const target = await create({ tenantId: tenantA.id, name: 'Alvo' });
    const calls: { method: string; url: string; body?: unknown }[] = [
      { method: 'GET', url: '/platform/tenant-api-tokens' },
      { method: 'GET', url: '/platform/tenant-api-tokens/tenants' },
      { method: 'POST', url: '/platform/tenant-api-tokens', body: { tenantId: tenantA.id, name: 'Intruso' } },
      { method: 'DELETE', url: `/platform/tenant-api-tokens/${target.body.id}` },
    ];
    for (const call of calls) {
      for (const other of others) {
        const res = await server.request(call.method, call.url, { token: other.token, body: call.body });
        expect({ call: call.url, who: other.label, status: res.status, error: res.body?.error }).toEqual({
          call: call.url,
          who: other.label,
          status: 403,
          error: 'ERR_NO_PERMISSION',
        });
      }
      expect((await server.request(call.method, call.url, { body: call.body })).status).toBe(401);
    }
    const [row] = await server.deps.dataSource.query(`SELECT "revokedAt" FROM tenant_api_tokens WHERE id = $1`, [target.body.id]);
    expect(row.revokedAt).toBeNull();
    const [{ n }] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenant_api_tokens WHERE name = 'Intruso'`);
    expect(n).toBe(0);
  });
});
