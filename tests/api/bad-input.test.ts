import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_ID_MAX } from '@shared/schemas/record-id';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Issue #11, the causes of the 500s one by one (the route fuzz test covers every route; this file
 * names each rule): ids beyond int4, NUL and control characters, library HTTP errors keeping their
 * status, and unknown body fields refused (with the anchor client's echoed read-only fields and
 * field names accepted).
 */

const TOO_BIG = RECORD_ID_MAX + 1;

describe('bad input answers a clear 4xx', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let contactId: number;
  let queueId: number;
  let tagId: number;

  const count = async (table: string) =>
    Number((await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM "${table}" WHERE "tenantId" = $1`, [tenantId]))[0].n);

  const expectField = (res: { status: number; body: any }, status: number, field: string, message?: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(typeof res.body.message).toBe('string');
    const paths = (res.body.fields ?? []).map((f: { path: string }) => f.path);
    expect(paths).toContain(field);
    if (message) expect(res.body.fields.find((f: { path: string }) => f.path === field).message).toMatch(message);
  };

  beforeAll(async () => {
    // The web folder with a file beside it that a traversal would reach.
    const root = mkdtempSync(path.join(tmpdir(), 'atende-web-'));
    mkdirSync(path.join(root, 'public'));
    writeFileSync(path.join(root, 'public', 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(path.join(root, 'secrets.json'), '{"secret":true}');
    server = await startTestServer({ WEB_DIST: path.join(root, 'public') });
    const t = await server.createTenantWithUsers();
    tenantId = t.tenant.id;
    admin = t.users.admin.token;
    contactId = (await server.request('POST', '/contacts', { token: admin, body: { name: 'Ana', number: '5511999990001' } })).body.id;
    queueId = (await server.request('POST', '/queue', { token: admin, body: { name: 'Suporte' } })).body.id;
    tagId = (await server.request('POST', '/tags', { token: admin, body: { name: 'VIP', color: '#00ff00' } })).body.id;
    expect([contactId, queueId, tagId].every((id) => Number.isInteger(id))).toBe(true);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('ids are bounded to the int4 columns (400 naming the field; in range but absent is 404)', () => {
    it('in a path', async () => {
      expectField(await server.request('GET', `/contacts/${TOO_BIG}`, { token: admin }), 400, 'contactId', /2147483647/);
      expectField(await server.request('PUT', `/queue/${TOO_BIG}`, { token: admin, body: { name: 'x' } }), 400, 'queueId');
      expectField(await server.request('DELETE', `/tickets/notes/1e20`, { token: admin }), 400, 'noteId');
      const missing = await server.request('GET', `/contacts/${RECORD_ID_MAX}`, { token: admin });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('ERR_NO_CONTACT_FOUND');
    });

    it('in a body, alone or in a list', async () => {
      expectField(await server.request('PUT', `/contacts/${contactId}`, { token: admin, body: { kanbanId: TOO_BIG } }), 400, 'kanbanId');
      expectField(await server.request('PUT', `/contact-tags/${contactId}`, { token: admin, body: { tags: [tagId, TOO_BIG] } }), 400, 'tags.1');
      expectField(await server.request('POST', '/tickets', { token: admin, body: { contactId: TOO_BIG } }), 400, 'contactId');
      expectField(await server.request('PUT', '/kanban/reorder', { token: admin, body: { ids: [2 ** 53] } }), 400, 'ids.0');
    });

    it('in a query', async () => {
      expectField(await server.request('GET', `/contacts?kanbanId=${TOO_BIG}`, { token: admin }), 400, 'kanbanId');
      expectField(await server.request('GET', `/contacts?tags=1,${TOO_BIG}`, { token: admin }), 400, 'tags.1');
      expectField(await server.request('GET', `/tickets?queuesIds=${TOO_BIG}`, { token: admin }), 400, 'queuesIds.0');
      expectField(await server.request('GET', '/contacts?pageNumber=1e20', { token: admin }), 400, 'pageNumber');
      expectField(await server.request('GET', '/tickets?pageNumber=1e20', { token: admin }), 400, 'pageNumber');
    });
  });

  describe('NUL, control characters and lone surrogates are refused with the field named', () => {
    it('in a JSON body, nothing stored', async () => {
      const before = await count('contacts');
      expectField(await server.request('POST', '/contacts', { token: admin, body: { name: 'a\u0000b', number: '5511999990002' } }), 400, 'name', /NUL/);
      expectField(
        await server.request('POST', '/contacts', { token: admin, body: { name: 'Bia', number: '5511999990003', extraInfo: [{ name: 'x', value: 'sino\u0007' }] } }),
        400,
        'extraInfo.0.value',
      );
      expectField(await server.request('POST', '/contacts', { token: admin, body: { name: 'Caio\ud800', number: '5511999990004' } }), 400, 'name');
      expect(await count('contacts')).toBe(before);
    });

    it('in a query string and in a key', async () => {
      expectField(await server.request('GET', '/contacts?searchParam=an%00a', { token: admin }), 400, 'searchParam');
      expectField(await server.request('GET', '/tickets?searchParam=%1B%5B31m', { token: admin }), 400, 'searchParam');
      const key = await server.request('PUT', `/queue/${queueId}`, { token: admin, body: '{"na\\u0000me":"x"}' });
      expect(key.status).toBe(400);
      expect(key.body.error).toBe('ERR_VALIDATION');
    });

    it('keeps tabs, line breaks and emoji', async () => {
      const res = await server.request('PUT', `/queue/${queueId}`, { token: admin, body: { greetingMessage: 'Olá!\n\tBem-vindo 😀\r\n' } });
      expect(res.status).toBe(200);
      expect(res.body.greetingMessage).toBe('Olá!\n\tBem-vindo 😀');
    });

    it('in multipart field names, values and file names', async () => {
      const send = async (fields: [string, string][], fileName?: string) => {
        const form = new FormData();
        for (const [k, v] of fields) form.append(k, v);
        if (fileName) form.append('medias', new Blob([new Uint8Array([104, 105])], { type: 'text/plain' }), fileName);
        const res = await fetch(`${server.url}/fastreply`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
        return { status: res.status, body: await res.json() };
      };
      const before = await count('fast_replies');
      expectField(await send([['key', 'oi'], ['message', 'a\u0000b']]), 400, 'message');
      // busboy itself refuses a control character in a part's name as a malformed form.
      expectField(await send([['key', 'oi'], ['message', 'ok'], ['x\u0000', '1']]), 400, 'body');
      expectField(await send([['key', 'oi'], ['message', 'ok']], 'nota\u0000.txt'), 400, 'body');
      // A file name can carry a NUL percent-encoded (RFC 5987 filename*), which busboy decodes.
      const boundary = 'fuzzboundary';
      const raw = [
        `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\noi`,
        `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nok`,
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename*=UTF-8''nota%00.txt\r\nContent-Type: text/plain\r\n\r\nhi`,
        `--${boundary}--\r\n`,
      ].join('\r\n');
      const encoded = await fetch(`${server.url}/fastreply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: raw,
      });
      expectField({ status: encoded.status, body: await encoded.json() }, 400, 'medias', /NUL/);
      expect(await count('fast_replies')).toBe(before);
    });
  });

  describe('HTTP errors keep their 4xx status with an error body', () => {
    it('a path escaping the web folder is 403, not 500', async () => {
      const res = await server.request('GET', '/..%2fsecrets.json');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: expect.any(String) });
    });

    it('a method the path does not take is 405', async () => {
      const res = await server.request('PATCH', '/queue', { token: admin, body: {} });
      expect(res.status).toBe(405);
      expect(res.body).toMatchObject({ error: 'ERR_METHOD_NOT_ALLOWED', message: 'Método não permitido para este endereço.' });
    });

    it('a URL over the parser limit is 431 with an error body', async () => {
      const res = await server.request('GET', `/contacts?searchParam=${'x'.repeat(20_000)}`, { token: admin });
      expect(res.status).toBe(431);
      expect(res.body).toMatchObject({ error: 'ERR_HEADERS_TOO_LARGE', message: expect.any(String) });
    });
  });

  describe('unknown body fields are refused; echoed read-only fields are accepted', () => {
    it('PUT /queue and PUT /tags with an unknown field change nothing', async () => {
      const q = await server.request('PUT', `/queue/${queueId}`, { token: admin, body: { name: 'Novo nome', prioridade: 3 } });
      expectField(q, 400, 'prioridade', /campo desconhecido/);
      const t = await server.request('PUT', `/tags/${tagId}`, { token: admin, body: { color: '#000000', colour: '#111111' } });
      expectField(t, 400, 'colour', /campo desconhecido/);
      const queues = (await server.request('GET', '/queue', { token: admin })).body as { id: number; name: string }[];
      expect(queues.find((x) => x.id === queueId)?.name).toBe('Suporte');
      const tags = (await server.request('GET', '/tags', { token: admin })).body as { id: number; color: string }[];
      expect(tags.find((x) => x.id === tagId)?.color).toBe('#00ff00');
    });

    it('nested objects are strict too', async () => {
      const res = await server.request('PUT', `/contacts/${contactId}`, {
        token: admin,
        body: { extraInfo: [{ name: 'Plano', value: 'ouro', hidden: true }] },
      });
      expectField(res, 400, 'extraInfo.0.hidden', /campo desconhecido/);
    });

    it("the anchor's queue and tag edits (its field names, its echoed row) work", async () => {
      const queue = (await server.request('GET', '/queue', { token: admin })).body.find((x: { id: number }) => x.id === queueId);
      const q = await server.request('PUT', `/queue/${queueId}`, {
        token: admin,
        body: { id: queueId, queue: 'Financeiro', isActive: false, tenantId, userId: 1, createdAt: queue.createdAt, updatedAt: queue.updatedAt },
      });
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      expect(q.body).toMatchObject({ id: queueId, name: 'Financeiro', active: false });
      const t = await server.request('PUT', `/tags/${tagId}`, { token: admin, body: { id: tagId, tag: 'Ouro', color: '#123456', isActive: true } });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      expect(t.body).toMatchObject({ name: 'Ouro', color: '#123456', active: true });
      // Both names at once is ambiguous: the anchor's one is then an unknown field.
      expectField(await server.request('PUT', `/tags/${tagId}`, { token: admin, body: { name: 'A', tag: 'B' } }), 400, 'tag');
    });

    it('a contact read and sent back whole is accepted; the read-only fields are ignored', async () => {
      const read = (await server.request('GET', `/contacts/${contactId}`, { token: admin })).body;
      const { tags: _tags, wallets: _wallets, ...editable } = read;
      const res = await server.request('PUT', `/contacts/${contactId}`, { token: admin, body: { ...editable, name: 'Ana Maria', isGroup: true } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id: contactId, name: 'Ana Maria', isGroup: false });
    });
  });
});
