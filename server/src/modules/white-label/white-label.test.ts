import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import { BRANDING_IMAGE_MAX_BYTES } from '@shared/schemas/white-label';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestTenant, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';
import { connectAs } from '../../realtime/realtime.test-support';
import { detectBrandingImageType } from './branding-image';

let server: TestServer;
let platform: TestTenant;
let superadmin: TestUser & { token: string };

beforeAll(async () => {
  server = await startIsolatedTestServer();
  platform = await platformTenant(server);
  superadmin = await signedIn(platform.id, 'superadmin');
});
afterAll(async () => server?.close());

async function signedIn(tenantId: number, profile: Profile): Promise<TestUser & { token: string }> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** An ICO whose one image is that PNG (the format browsers take for favicons). */
const ICO = Buffer.concat([
  Buffer.from([0, 0, 1, 0, 1, 0]),
  Buffer.from([1, 1, 0, 0, 1, 0, 32, 0]),
  (() => {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(PNG.length, 0);
    b.writeUInt32LE(22, 4);
    return b;
  })(),
  PNG,
]);
/** The start of a Windows executable, as an .exe renamed to .png would begin. */
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');

async function upload(token: string | undefined, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(`${server.url}/admin/media-upload`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function brandingRow() {
  const [row] = await server.deps.dataSource.query(`SELECT "appName", "logoHash", "faviconHash", "logoType" FROM platform_branding WHERE id = 1`);
  return row;
}

async function resetBranding() {
  await server.deps.dataSource.query(
    `UPDATE platform_branding SET "appName" = NULL, logo = NULL, "logoType" = NULL, "logoHash" = NULL, favicon = NULL, "faviconType" = NULL, "faviconHash" = NULL WHERE id = 1`,
  );
}

const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);
const REJECTED = 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.';

describe('detectBrandingImageType', () => {
  it('knows PNG, JPEG, WebP and ICO by their bytes and nothing else', () => {
    expect(detectBrandingImageType(PNG)).toBe('image/png');
    expect(detectBrandingImageType(ICO)).toBe('image/x-icon');
    expect(detectBrandingImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(detectBrandingImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(detectBrandingImageType(EXE)).toBeNull();
    expect(detectBrandingImageType(SVG)).toBeNull();
    expect(detectBrandingImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(detectBrandingImageType(Buffer.from([0x89, 0x50]))).toBeNull();
  });
});

describe('white-label branding', () => {
  it('GET /publicBranding answers the product defaults (nulls) until the super administrator sets a brand, without a token', async () => {
    await resetBranding();
    const res = await server.request('GET', '/publicBranding');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ appName: null, logoUrl: null, faviconUrl: null });
    expect((await download('/publicBranding/logo')).status).toBe(404);
    expect((await download('/publicBranding/favicon')).status).toBe(404);
  });

  it('the super administrator sets name, logo and favicon; every tenant reads them publicly and gets branding:update', async () => {
    await resetBranding();
    const { tenant } = await server.createTenantWithUsers();

    const named = await server.request('PUT', '/admin/branding', { token: superadmin.token, body: { appName: '  Acme Atendimento ' } });
    expect(named.status).toBe(200);
    expect(named.body.appName).toBe('Acme Atendimento');

    const logo = await upload(superadmin.token, { kind: 'logo' }, { name: 'logo.png', type: 'image/png', bytes: PNG });
    expect(logo.status).toBe(200);
    expect(logo.body.logoUrl).toMatch(/^\/publicBranding\/logo\?v=[0-9a-f]{16}$/);
    // The declared type does not matter, the bytes do: an ICO sent as octet-stream is an ICO.
    const favicon = await upload(superadmin.token, { kind: 'favicon' }, { name: 'favicon.ico', type: 'application/octet-stream', bytes: ICO });
    expect(favicon.status).toBe(200);

    const pub = await server.request('GET', '/publicBranding');
    expect(pub.body).toEqual({ appName: 'Acme Atendimento', logoUrl: logo.body.logoUrl, faviconUrl: favicon.body.faviconUrl, updatedAt: expect.any(String) });

    const image = await download(pub.body.logoUrl);
    expect(image.status).toBe(200);
    expect(image.bytes.equals(PNG)).toBe(true);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(image.headers.get('cache-control')).toContain('immutable');
    const icon = await download(pub.body.faviconUrl);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    expect(icon.bytes.equals(ICO)).toBe(true);
    // The bare URL is revalidated with its ETag.
    const bare = await download('/publicBranding/logo');
    expect(bare.headers.get('cache-control')).toBe('no-cache');
    expect((await download('/publicBranding/logo', { 'if-none-match': bare.headers.get('etag')! })).status).toBe(304);

    // Every tenant's open pages hear of it (not only the platform tenant).
    for (const id of [platform.id, tenant.id]) {
      const event = await lastEvent(server, id, SOCKET_EVENTS.brandingUpdate);
      expect(event?.audience).toEqual({ scope: 'tenant' });
      expect(event?.payload).toEqual(pub.body);
    }

    // DELETE goes back to the product's own favicon.
    const removed = await server.request('DELETE', '/admin/media-upload/favicon', { token: superadmin.token });
    expect(removed.status).toBe(200);
    expect(removed.body.faviconUrl).toBeNull();
    expect(removed.body.logoUrl).toBe(logo.body.logoUrl);
    expect((await download('/publicBranding/favicon')).status).toBe(404);
    // An empty name goes back to the product's name.
    expect((await server.request('PUT', '/admin/branding', { token: superadmin.token, body: { appName: '' } })).body.appName).toBeNull();
  });

  it('a signed-in user of another tenant receives branding:update live on the socket, once', async () => {
    const { users } = await server.createTenantWithUsers();
    const socket = await connectAs(server.url, users.user.token);
    try {
      await server.request('PUT', '/admin/branding', { token: superadmin.token, body: { appName: 'Ao Vivo' } });
      await expect.poll(() => socket.envelopes.filter((e) => e.name === SOCKET_EVENTS.brandingUpdate).length).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      const live = socket.envelopes.filter((e) => e.name === SOCKET_EVENTS.brandingUpdate);
      expect(live).toHaveLength(1);
      expect(live[0].tenantId).toBe(users.user.tenantId);
      expect((live[0].payload as { appName: string }).appName).toBe('Ao Vivo');
    } finally {
      socket.close();
    }
  });

  it('refuses every write to every other profile of two tenants (403), reading no upload and changing nothing', async () => {
    await resetBranding();
    await server.request('PUT', '/admin/branding', { token: superadmin.token, body: { appName: 'Plataforma' } });
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const strays = [await signedIn(a.tenant.id, 'superadmin'), await signedIn(b.tenant.id, 'superadmin')];
    const platformAdmin = await signedIn(platform.id, 'admin');
    const callers = [...Object.values(a.users), ...Object.values(b.users), ...strays, platformAdmin];
    const before = await brandingRow();
    const events = await eventCount(server, a.tenant.id);
    for (const caller of callers) {
      const label = `${caller.profile}@${caller.tenantId}`;
      const put = await server.request('PUT', '/admin/branding', { token: caller.token, body: { appName: 'Hijack' } });
      expect(put.status, label).toBe(403);
      expect(put.body.error).toBe('ERR_NO_PERMISSION');
      const up = await upload(caller.token, { kind: 'logo' }, { name: 'logo.png', type: 'image/png', bytes: PNG });
      expect(up.status, label).toBe(403);
      const del = await server.request('DELETE', '/admin/media-upload/logo', { token: caller.token });
      expect(del.status, label).toBe(403);
    }
    expect(await brandingRow()).toEqual(before);
    expect(await eventCount(server, a.tenant.id)).toBe(events);
    expect((await server.request('PUT', '/admin/branding', { body: { appName: 'x' } })).status).toBe(401);
    expect((await upload(undefined, { kind: 'logo' }, { name: 'logo.png', type: 'image/png', bytes: PNG })).status).toBe(401);
    expect((await server.request('DELETE', '/admin/media-upload/logo')).status).toBe(401);
  });

  it('refuses uploads by size (413) and by content (415) with the spec text, keeping the current logo', async () => {
    await resetBranding();
    await upload(superadmin.token, { kind: 'logo' }, { name: 'logo.png', type: 'image/png', bytes: PNG });
    const before = await brandingRow();
    const tooBig = Buffer.concat([PNG, Buffer.alloc(BRANDING_IMAGE_MAX_BYTES, 0)]);
    const big = await upload(superadmin.token, { kind: 'logo' }, { name: 'big.png', type: 'image/png', bytes: tooBig });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', message: REJECTED });
    expect(ERROR_CODES.ERR_UNSUPPORTED_FILE_TYPE.message).toBe(REJECTED);

    const refusedContent: [string, string, Buffer][] = [
      ['setup.png', 'image/png', EXE],
      ['logo.svg', 'image/svg+xml', SVG],
      ['logo.png', 'image/png', SVG],
      ['notes.png', 'image/png', Buffer.from('just some text, not an image')],
      ['anim.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ];
    for (const [name, type, bytes] of refusedContent) {
      const res = await upload(superadmin.token, { kind: 'logo' }, { name, type, bytes });
      expect(res.status, name).toBe(415);
      expect(res.body).toMatchObject({ error: 'ERR_UNSUPPORTED_FILE_TYPE', message: REJECTED });
      expect(fieldPaths(res.body)).toContain('file');
    }
    expect(await brandingRow()).toEqual(before);
    const served = await download('/publicBranding/logo');
    expect(served.bytes.equals(PNG)).toBe(true);
  });

  it('rejects malformed input with 400 naming the field', async () => {
    const noFile = await upload(superadmin.token, { kind: 'logo' });
    expect(noFile.status).toBe(400);
    expect(fieldPaths(noFile.body)).toContain('file');
    const noKind = await upload(superadmin.token, {}, { name: 'logo.png', type: 'image/png', bytes: PNG });
    expect(noKind.status).toBe(400);
    expect(fieldPaths(noKind.body)).toContain('kind');
    const badKind = await upload(superadmin.token, { kind: 'banner' }, { name: 'logo.png', type: 'image/png', bytes: PNG });
    expect(badKind.status).toBe(400);
    expect(fieldPaths(badKind.body)).toContain('kind');

    const bodies: [unknown, string][] = [
      [{ appName: 42 }, 'appName'],
      [{ appName: 'x'.repeat(61) }, 'appName'],
      [{}, 'appName'],
      [{ appName: 'ok', logo: 'http://evil' }, 'logo'],
      [['appName'], 'body'],
    ];
    for (const [body, field] of bodies) {
      const res = await server.request('PUT', '/admin/branding', { token: superadmin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body), JSON.stringify(body)).toContain(field);
    }
    const delBad = await server.request('DELETE', '/admin/media-upload/banner', { token: superadmin.token });
    expect(delBad.status).toBe(400);
    expect(fieldPaths(delBad.body)).toContain('kind');
  });
});
