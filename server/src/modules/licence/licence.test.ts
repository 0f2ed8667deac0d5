import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@shared/profiles';
import { LICENCE_EMAIL_REQUIRED } from '@shared/schemas/licence';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';
import { isLicenceKeyFor, issueLicenceKey } from './licence-key';

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
let server: TestServer;
let superadmin: TestUser & { token: string };

async function signedIn(tenantId: number, profile: Profile): Promise<TestUser & { token: string }> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

beforeAll(async () => {
  server = await startIsolatedTestServer({}, { clock });
  superadmin = await signedIn((await platformTenant(server)).id, 'superadmin');
});
afterAll(async () => server?.close());

const activate = (body: unknown, token = superadmin.token) => server.request('PUT', '/admin/licence', { token, body });

describe('licence keys', () => {
  it('accepts a key only for the e-mail it was issued to', () => {
    const key = issueLicenceKey('ops@example.com');
    expect(key).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){4}$/);
    expect(isLicenceKeyFor('OPS@example.com ', key)).toBe(true);
    expect(isLicenceKeyFor('other@example.com', key)).toBe(false);
    expect(isLicenceKeyFor('ops@example.com', `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
  });
});

describe('/admin/licence', () => {
  it('is refused to every other profile of two tenants (403)', async () => {
    for (let i = 0; i < 2; i++) {
      const { tenant, users } = await server.createTenantWithUsers();
      const elsewhere = await signedIn(tenant.id, 'superadmin');
      for (const caller of [users.user, users.super, users.admin, elsewhere]) {
        expect((await server.request('GET', '/admin/licence', { token: caller.token })).status, caller.profile).toBe(403);
        const res = await activate({ email: 'x@example.com', key: issueLicenceKey('x@example.com') }, caller.token);
        expect(res.status, caller.profile).toBe(403);
      }
    }
    expect((await server.request('GET', '/admin/licence', { token: superadmin.token })).body.status).toBeNull();
  });

  it('requires the licence e-mail and a key in the right format', async () => {
    const missing = await activate({ key: issueLicenceKey('a@example.com') });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([{ path: 'email', message: LICENCE_EMAIL_REQUIRED }]);
    expect((await activate({ email: '  ', key: issueLicenceKey('a@example.com') })).body.fields[0].message).toBe(LICENCE_EMAIL_REQUIRED);
    const badKey = await activate({ email: 'a@example.com', key: 'abc' });
    expect(badKey.status).toBe(400);
    expect(badKey.body.fields.map((f: { path: string }) => f.path)).toEqual(['key']);
    // Refused input is not an activation attempt: the next valid one is not rate-limited.
  });

  it('activates (validating, then active), then allows one activation a minute', async () => {
    const key = issueLicenceKey('ops@example.com');
    const res = await activate({ email: 'ops@example.com', key: key.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'ops@example.com', status: 'active', keyHint: `•••••-•••••-•••••-•••••-${key.slice(-5)}` });
    expect(JSON.stringify(res.body)).not.toContain(key.slice(0, 11));
    expect(res.body.nextActivationAt).not.toBeNull();

    offsetMs += 20_000;
    const again = await activate({ email: 'ops2@example.com', key: issueLicenceKey('ops2@example.com') });
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('ERR_LICENCE_RATE_LIMIT');
    expect(again.body.message).toContain('Tente novamente em 40 segundos');
    expect(again.headers.get('retry-after')).toBe('40');
    expect((await server.request('GET', '/admin/licence', { token: superadmin.token })).body.email).toBe('ops@example.com');

    // A minute later: a key for another e-mail is refused and the active licence stays.
    offsetMs += 41_000;
    const wrong = await activate({ email: 'new@example.com', key: issueLicenceKey('someone@example.com') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('ERR_LICENCE_INVALID');
    const kept = await server.request('GET', '/admin/licence', { token: superadmin.token });
    expect(kept.body).toMatchObject({ email: 'ops@example.com', status: 'active' });
    // The refused attempt counted.
    expect((await activate({ email: 'new@example.com', key: issueLicenceKey('new@example.com') })).status).toBe(429);

    offsetMs += 61_000;
    const renewed = await activate({ email: 'new@example.com', key: issueLicenceKey('new@example.com') });
    expect(renewed.body).toMatchObject({ email: 'new@example.com', status: 'active' });
  });
});
