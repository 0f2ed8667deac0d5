import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_ACCESS_MINUTES, type SupportAccessResponse, type SupportSessionDto } from '@shared/schemas/admin-tenants';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import { connectAs } from '../../realtime/realtime.test-support';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { SupportAccessService } from './support-access.service';

let server: TestServer;
let superadmin: Awaited<ReturnType<TestServer['platformSuperadmin']>>;
beforeAll(async () => {
  server = await startTestServer();
  superadmin = await server.platformSuperadmin();
});
afterAll(async () => server?.close());

const req = (method: string, url: string, opts?: { token?: string; body?: unknown }) => server.request(method, url, opts);

async function startSupport(tenantId: number, reason = 'Cliente pediu ajuda com filas'): Promise<SupportAccessResponse> {
  const res = await req('POST', `/admin/tenants/${tenantId}/support`, { token: superadmin.token, body: { reason } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('support access (the super administrator enters a tenant as its admin for a limited time)', () => {
  it('issues a short-lived admin token of that tenant marked as support, with the banner data and a record', async () => {
    const { tenant, admin } = await server.createTenantThroughApi({ name: 'Padaria Suporte' });
    const before = Date.now();
    const access = await startSupport(tenant.id);
    expect(access).toMatchObject({ profile: 'admin', tenantId: tenant.id, userId: admin.id, email: admin.email });
    expect(access).not.toHaveProperty('refreshToken');
    const claims = jwt.decode(access.token) as any;
    expect(claims.sup).toEqual({ id: access.support.id, by: superadmin.id });
    expect(claims.exp * 1000).toBeLessThanOrEqual(before + SUPPORT_ACCESS_MINUTES * 60_000 + 2000);
    expect(claims.exp * 1000).toBeGreaterThan(before + (SUPPORT_ACCESS_MINUTES - 1) * 60_000);

    // It works as the tenant's admin: the tenant's users, not the platform's.
    const users = await req('GET', '/users', { token: access.token });
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: any) => u.id)).toEqual([admin.id]);

    const banner = await req('GET', '/support-sessions/current', { token: access.token });
    expect(banner.status).toBe(200);
    expect(banner.body).toMatchObject({
      id: access.support.id,
      tenantId: tenant.id,
      tenantName: 'Padaria Suporte',
      superadminId: superadmin.id,
      reason: 'Cliente pediu ajuda com filas',
      endedAt: null,
    });
    expect(new Date(banner.body.expiresAt).getTime() - new Date(banner.body.startedAt).getTime()).toBe(SUPPORT_ACCESS_MINUTES * 60_000);

    // A support token is an admin of the tenant: no platform power.
    expect((await req('GET', '/admin/tenants', { token: access.token })).status).toBe(403);
    // Nothing to refresh it with: the refresh call without a refresh token is refused.
    expect((await req('POST', '/auth/refresh_token', { body: {} })).status).toBe(401);

    const list = await req('GET', `/admin/tenants/${tenant.id}/support-sessions`, { token: superadmin.token });
    expect(list.status).toBe(200);
    expect((list.body as SupportSessionDto[])[0]).toMatchObject({ id: access.support.id, superadminName: 'User superadmin', endedAt: null });
  });

  it('the exit button ends it: the token and its sockets are cut at once and the end is recorded', async () => {
    const { tenant } = await server.createTenantThroughApi();
    const access = await startSupport(tenant.id);
    const socket = await connectAs(server.url, access.token);
    const cut = new Promise<void>((resolve) => socket.socket.on('disconnect', () => resolve()));
    const ended = await req('DELETE', '/support-sessions/current', { token: access.token });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ endReason: 'ended', endedAt: expect.any(String) });
    await cut;
    const after = await req('GET', '/users', { token: access.token });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('ERR_INVALID_TOKEN');
    const [row] = (await req('GET', `/admin/tenants/${tenant.id}/support-sessions`, { token: superadmin.token })).body;
    expect(row).toMatchObject({ endReason: 'ended' });
  });

  it('is refused after its time is over, even with a token that has not expired, and the expiry is recorded', async () => {
    const { tenant } = await server.createTenantThroughApi();
    const access = await startSupport(tenant.id);
    const socket = await connectAs(server.url, access.token);
    const cut = new Promise<void>((resolve) => socket.socket.on('disconnect', () => resolve()));
    // Its 30 minutes pass.
    await server.deps.dataSource.query(
      `UPDATE auth_sessions SET "expiresAt" = now() - interval '1 second'
        WHERE id = (SELECT "authSessionId" FROM support_sessions WHERE id = $1)`,
      [access.support.id],
    );
    await server.deps.dataSource.query(`UPDATE support_sessions SET "expiresAt" = now() - interval '1 second' WHERE id = $1`, [
      access.support.id,
    ]);
    const late = await req('GET', '/users', { token: access.token });
    expect(late.status).toBe(403);
    expect(late.body.error).toBe('ERR_SESSION_EXPIRED');
    const shown = (await req('GET', `/admin/tenants/${tenant.id}/support-sessions`, { token: superadmin.token })).body[0];
    expect(shown).toMatchObject({ endReason: 'expired', endedAt: expect.any(String) });

    // The expiry job (queued with the session's length as its delay) records the end and cuts the socket.
    await new SupportAccessService(server.deps).expire(access.support.id);
    await cut;
    const [row] = await server.deps.dataSource.query(`SELECT "endReason", "endedAt" FROM support_sessions WHERE id = $1`, [access.support.id]);
    expect(row.endReason).toBe('expired');
    expect(row.endedAt).not.toBeNull();
  });

  it('the super administrator can end an access from the tenant detail', async () => {
    const { tenant } = await server.createTenantThroughApi();
    const access = await startSupport(tenant.id);
    const res = await req('DELETE', `/admin/support-sessions/${access.support.id}`, { token: superadmin.token });
    expect(res.status).toBe(200);
    expect((await req('GET', '/users', { token: access.token })).status).toBe(401);
    expect((await req('DELETE', '/admin/support-sessions/99999999', { token: superadmin.token })).status).toBe(404);
  });

  it('refuses tenant 1, an inactive tenant, an unknown tenant and a missing reason', async () => {
    const platform = await req('POST', `/admin/tenants/${PLATFORM_TENANT_ID}/support`, { token: superadmin.token, body: { reason: 'teste' } });
    expect(platform.status).toBe(400);
    expect(platform.body.error).toBe('ERR_SUPPORT_NOT_ALLOWED');
    const { tenant } = await server.createTenantThroughApi();
    await req('PUT', `/admin/status/tenant/${tenant.id}`, { token: superadmin.token, body: { status: 'inactive' } });
    const inactive = await req('POST', `/admin/tenants/${tenant.id}/support`, { token: superadmin.token, body: { reason: 'teste' } });
    expect(inactive.body.error).toBe('ERR_SUPPORT_NOT_ALLOWED');
    const unknown = await req('POST', '/admin/tenants/99999999/support', { token: superadmin.token, body: { reason: 'teste' } });
    expect(unknown.status).toBe(404);
    for (const body of [{}, { reason: '' }, { reason: 12 }, 'x']) {
      const res = await req('POST', `/admin/tenants/${tenant.id}/support`, { token: superadmin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });

  it('a normal session has no support access to show', async () => {
    const { admin } = await server.createTenantThroughApi();
    const res = await req('GET', '/support-sessions/current', { token: admin.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_SUPPORT_SESSION');
  });
});
