import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { describeCatalogRoutes, uniqueSuffix } from '../../../../tests/helpers/catalog-route-suite';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describeCatalogRoutes(() => server, {
  path: '/fastreply',
  table: 'fast_replies',
  notFound: 'ERR_NO_FAST_REPLY_FOUND',
  events: { update: SOCKET_EVENTS.fastReplyUpdate, delete: SOCKET_EVENTS.fastReplyDelete },
  createBody: () => ({ key: `oi-${uniqueSuffix()}`, message: 'Olá! Como posso ajudar?', active: true }),
  updateBody: () => ({ key: `tchau-${uniqueSuffix()}`, message: 'Até logo!', active: false }),
  malformed: { body: { key: 'bom dia', message: 'Bom dia!' }, field: 'key' },
});

const OGG = Buffer.from('OggS\u0000fake-voice-note-bytes');

async function multipart(
  method: 'POST' | 'PUT',
  url: string,
  token: string | undefined,
  fields: Record<string, string>,
  files: { name: string; type: string; bytes: Buffer }[] = [],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('medias', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(server.url + url, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function download(url: string, token?: string) {
  const res = await fetch(server.url + url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const tenantUploads = (tenantId: number): string =>
  path.join(server.deps.config.dataDir, 'uploads', String(tenantId), 'fast-replies');
const filesOf = (tenantId: number): string[] => (existsSync(tenantUploads(tenantId)) ? readdirSync(tenantUploads(tenantId)) : []);

describe('quick message rules', () => {
  it('refuses a duplicate key in any letter case (409 ERR_FAST_REPLY_EXISTS), but another tenant may use it', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await server.request('POST', '/fastreply', { token: a.users.admin.token, body: { key: 'Saudacao', message: 'Olá' } });
    const dup = await server.request('POST', '/fastreply', {
      token: a.users.super.token,
      body: { key: 'saudacao', message: 'Oi' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_FAST_REPLY_EXISTS');
    expect(dup.body.fields[0].path).toBe('key');
    expect(
      (await server.request('POST', '/fastreply', { token: b.users.admin.token, body: { key: 'saudacao', message: 'Oi' } }))
        .status,
    ).toBe(201);
  });

  it('requires a message or a file, and a key without spaces or leading slash', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const empty = await server.request('POST', '/fastreply', { token, body: { key: 'vazio', message: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].path).toBe('message');
    const slash = await server.request('POST', '/fastreply', { token, body: { key: '/oi', message: 'x' } });
    expect(slash.status).toBe(400);
    expect(slash.body.fields[0].path).toBe('key');
  });

  it('refuses send-as-voice without an audio file', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('POST', '/fastreply', {
      token: a.users.admin.token,
      body: { key: 'voz', message: 'texto', sendAsVoice: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe('sendAsVoice');
  });
});

describe('quick message files', () => {
  it('stores an uploaded file in the tenant private folder and serves it only to users of that tenant', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const created = await multipart(
      'POST',
      '/fastreply',
      a.users.super.token,
      { key: 'audio', message: '', sendAsVoice: 'true', active: 'true' },
      [{ name: 'nota de voz.ogg', type: 'audio/ogg', bytes: OGG }],
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      key: 'audio',
      message: '',
      sendAsVoice: true,
      active: true,
      mediaName: 'nota de voz.ogg',
      mediaType: 'audio/ogg',
    });
    expect(created.body.mediaUrl).toBe(`/fastreply/${created.body.id}/file`);
    expect(created.body).not.toHaveProperty('mediaPath');
    expect(filesOf(a.tenant.id)).toHaveLength(1);

    const mine = await download(created.body.mediaUrl, a.users.user.token);
    expect(mine.status).toBe(200);
    expect(mine.bytes.equals(OGG)).toBe(true);
    expect(mine.headers.get('content-type')).toBe('audio/ogg');
    expect(mine.headers.get('content-disposition')).toContain("filename*=UTF-8''nota%20de%20voz.ogg");
    expect(mine.headers.get('content-security-policy')).toContain('sandbox');

    const theirs = await download(created.body.mediaUrl, b.users.admin.token);
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.bytes.toString()).error).toBe('ERR_NO_FAST_REPLY_FOUND');
    expect((await download(created.body.mediaUrl)).status).toBe(401);
    // Nothing under the data folder is served statically.
    expect((await download(`/uploads/${a.tenant.id}/fast-replies/${filesOf(a.tenant.id)[0]}`)).status).toBe(404);
  });

  it('answers 404 for a quick message without a file', async () => {
    const a = await server.createTenantWithUsers();
    const qm = await server.request('POST', '/fastreply', {
      token: a.users.admin.token,
      body: { key: 'texto', message: 'Só texto' },
    });
    expect(qm.body.mediaUrl).toBeNull();
    const res = await download(`/fastreply/${qm.body.id}/file`, a.users.admin.token);
    expect(res.status).toBe(404);
  });

  it('replaces the file on update, removes it with removeMedia and on delete', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const created = await multipart('POST', '/fastreply', token, { key: 'catalogo', message: 'Segue o catálogo' }, [
      { name: 'catalogo.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1 one') },
    ]);
    expect(created.status).toBe(201);
    const first = filesOf(a.tenant.id);
    expect(first).toHaveLength(1);

    const replaced = await multipart('PUT', `/fastreply/${created.body.id}`, token, {}, [
      { name: 'catalogo-2.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1 two') },
    ]);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.mediaName).toBe('catalogo-2.pdf');
    const second = filesOf(a.tenant.id);
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);
    expect((await download(replaced.body.mediaUrl, token)).bytes.toString()).toBe('%PDF-1 two');

    const dropped = await server.request('PUT', `/fastreply/${created.body.id}`, { token, body: { removeMedia: true } });
    expect(dropped.status).toBe(200);
    expect(dropped.body.mediaUrl).toBeNull();
    expect(filesOf(a.tenant.id)).toHaveLength(0);

    const withFile = await multipart('POST', '/fastreply', token, { key: 'foto' }, [
      { name: 'foto.png', type: 'image/png', bytes: Buffer.from('png') },
    ]);
    expect(filesOf(a.tenant.id)).toHaveLength(1);
    expect((await server.request('DELETE', `/fastreply/${withFile.body.id}`, { token })).status).toBe(204);
    expect(filesOf(a.tenant.id)).toHaveLength(0);
  });

  it('refuses removing the only content (400) and keeps the file', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const created = await multipart('POST', '/fastreply', token, { key: 'sofoto' }, [
      { name: 'f.jpg', type: 'image/jpeg', bytes: Buffer.from('jpg') },
    ]);
    const res = await server.request('PUT', `/fastreply/${created.body.id}`, { token, body: { removeMedia: true } });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe('message');
    expect(filesOf(a.tenant.id)).toHaveLength(1);
  });

  it('writes no file for a refused request (ordinary user, duplicate key, other tenant)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const file = [{ name: 'a.ogg', type: 'audio/ogg', bytes: OGG }];
    const denied = await multipart('POST', '/fastreply', a.users.user.token, { key: 'x' }, file);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    await server.request('POST', '/fastreply', { token: a.users.admin.token, body: { key: 'dup', message: 'm' } });
    const dup = await multipart('POST', '/fastreply', a.users.admin.token, { key: 'DUP' }, file);
    expect(dup.status).toBe(409);
    expect(filesOf(a.tenant.id)).toHaveLength(0);

    const qm = await server.request('POST', '/fastreply', { token: a.users.admin.token, body: { key: 'alvo', message: 'm' } });
    const foreign = await multipart('PUT', `/fastreply/${qm.body.id}`, b.users.admin.token, { message: 'invadido' }, file);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_FAST_REPLY_FOUND');
    expect(filesOf(b.tenant.id)).toHaveLength(0);
    expect(filesOf(a.tenant.id)).toHaveLength(0);
    const [row] = await server.deps.dataSource.query(`SELECT message FROM fast_replies WHERE id = $1`, [qm.body.id]);
    expect(row.message).toBe('m');
  });

  it('answers 400 naming medias for more than one file, and 401 without a token', async () => {
    const a = await server.createTenantWithUsers();
    const two = await multipart('POST', '/fastreply', a.users.admin.token, { key: 'dois', message: 'm' }, [
      { name: 'a.ogg', type: 'audio/ogg', bytes: OGG },
      { name: 'b.ogg', type: 'audio/ogg', bytes: OGG },
    ]);
    expect(two.status).toBe(400);
    expect(two.body.fields[0].path).toBe('medias');
    const anonymous = await multipart('POST', '/fastreply', undefined, { key: 'anon', message: 'm' });
    expect(anonymous.status).toBe(401);
  });
});
