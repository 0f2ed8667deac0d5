import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto } from '@shared/schemas/messages';
import type { TicketDto } from '@shared/schemas/tickets';
import { multipart } from '../../../server/src/modules/messages/messages.test-support';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { openCacheDatabase, type CacheDatabase } from '../cache/cache-database';
import { createCacheStore } from '../cache/cache-store';
import { syncWorld, ticketOf, type SyncWorld } from '../sync/sync.test-support';
import { createMediaCache, MediaCacheError, type MediaCacheOptions } from './media-cache';

/**
 * The media cache against the real server (in-process, its real database and file store) and a
 * real encrypted cache. Files are private notes with attachments on a ticket without a channel
 * (stored at once, nothing sent anywhere). The network is the one stand-in: a fetch that counts
 * the requests and can be cut.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const directories: string[] = [];
const caches: CacheDatabase[] = [];
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A PNG-looking file with a marker that must never appear in the cache file in clear. */
function imageBytes(size: number, marker: string): Buffer {
  const bytes = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  Buffer.from(marker).copy(bytes, 16);
  return bytes;
}

/** Private notes with one file each on a channel-less ticket; answers the stored messages. */
async function postFiles(w: SyncWorld, ticketId: number, files: { name: string; type: string; bytes: Buffer }[]): Promise<MessageDto[]> {
  const messages: MessageDto[] = [];
  for (const file of files) {
    const res = await multipart(server, 'POST', `/messages/${ticketId}`, w.agent.token, { isPrivate: 'true', body: file.name }, [file]);
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    messages.push(...(res.body.messages as MessageDto[]));
  }
  return messages;
}

function network() {
  const net = {
    online: true,
    requests: [] as string[],
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      net.requests.push(new URL(String(input)).pathname);
      if (!net.online) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
      return fetch(input, init);
    }) as typeof fetch,
  };
  return net;
}

/** The agent's encrypted cache holding the ticket and its messages, as a sync leaves it. */
async function cacheOf(w: SyncWorld, ticketId: number) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'atende-media-'));
  directories.push(directory);
  const database = openCacheDatabase({
    directory,
    account: { serverOrigin: server.url, tenantId: w.tenantId, userId: w.agent.id },
    key: randomBytes(32),
  });
  caches.push(database);
  const store = createCacheStore(database);
  const ticket = await server.request('GET', `/tickets/${ticketId}`, { token: w.agent.token });
  const thread = await server.request('GET', `/messages/${ticketId}`, { token: w.agent.token });
  store.upsertTickets([ticket.body as TicketDto]);
  store.upsertMessages(thread.body.messages as MessageDto[]);
  return { database, store };
}

async function world(files: { name: string; type: string; bytes: Buffer }[]) {
  const w = await syncWorld(server);
  const ticket = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
  const messages = await postFiles(w, ticket.id, files);
  const { database, store } = await cacheOf(w, ticket.id);
  const net = network();
  const clock = { now: 1_000 };
  const media = (options: Partial<MediaCacheOptions> = {}) =>
    createMediaCache({
      database,
      serverUrl: server.url,
      getAccessToken: () => w.agent.token,
      fetch: net.fetch,
      now: () => clock.now,
      ...options,
    });
  return { w, ticket, messages, database, store, net, clock, media };
}

describe('the media cache against the real server', () => {
  it('fetches a file once, then answers it from the cache, also offline', async () => {
    const bytes = imageBytes(20_000, 'foto-do-cliente');
    const { messages, net, media } = await world([{ name: 'foto.png', type: 'image/png', bytes }]);
    const cache = media();
    const id = messages[0].id;
    expect(messages[0].mediaUrl).toBe(`/messages/media/${id}`);

    const first = await cache.get(id);
    expect(first.mimeType).toBe('image/png');
    expect(Buffer.from(first.bytes).equals(bytes)).toBe(true);
    expect(net.requests).toEqual([`/messages/media/${id}`]);
    expect(cache.usage()).toEqual({ bytes: 20_000, items: 1, budgetBytes: 200 * 1024 * 1024 });

    const again = await cache.get(id);
    expect(Buffer.from(again.bytes).equals(bytes)).toBe(true);
    net.online = false;
    const offline = await cache.get(id);
    expect(offline.mimeType).toBe('image/png');
    expect(Buffer.from(offline.bytes).equals(bytes)).toBe(true);
    expect(net.requests).toHaveLength(1);
  });

  it('offline and not cached: ERR_DESKTOP_MEDIA_OFFLINE, and it is fetched once the network is back', async () => {
    const { messages, net, media } = await world([{ name: 'doc.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.7 recibo') }]);
    const cache = media();
    net.online = false;
    const error = await cache.get(messages[0].id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaCacheError);
    expect(error).toMatchObject({ code: 'ERR_DESKTOP_MEDIA_OFFLINE', message: expect.stringMatching(/^ERR_DESKTOP_MEDIA_OFFLINE: /) });
    expect(cache.usage().items).toBe(0);
    net.online = true;
    expect((await cache.get(messages[0].id)).mimeType).toBe('application/pdf');
  });

  it('concurrent gets of one file make one request', async () => {
    const { messages, net, media } = await world([{ name: 'foto.png', type: 'image/png', bytes: imageBytes(5_000, 'x') }]);
    const cache = media();
    const answers = await Promise.all([1, 2, 3, 4].map(() => cache.get(messages[0].id)));
    expect(answers.every((a) => a.bytes.byteLength === 5_000)).toBe(true);
    expect(net.requests).toHaveLength(1);
  });

  it('keeps the total within the budget, evicting the least recently used first (in one transaction)', async () => {
    const files = [1, 2, 3, 4].map((n) => ({ name: `f${n}.png`, type: 'image/png', bytes: imageBytes(40_000, `file-${n}`) }));
    const { messages, net, clock, media, database } = await world(files);
    const [a, b, c, d] = messages.map((m) => m.id);
    const cache = media({ budgetBytes: 100_000 });
    clock.now = 10;
    await cache.get(a);
    clock.now = 20;
    await cache.get(b);
    clock.now = 30;
    await cache.get(a); // a is now more recent than b
    expect(cache.usage()).toMatchObject({ bytes: 80_000, items: 2 });

    clock.now = 40;
    await cache.get(c); // 120,000 > 100,000: b (oldest access) goes, a and c stay
    expect(cache.usage()).toEqual({ bytes: 80_000, items: 2, budgetBytes: 100_000 });
    const cached = () => database.connection.prepare(`SELECT message_id FROM media ORDER BY message_id`).pluck().all();
    expect(cached()).toEqual([a, c]);

    net.online = false;
    clock.now = 45;
    await cache.get(a);
    await expect(cache.get(b)).rejects.toMatchObject({ code: 'ERR_DESKTOP_MEDIA_OFFLINE' });
    net.online = true;

    clock.now = 50;
    await cache.get(d); // c is now the oldest access (a was read at 45, offline)
    expect(cached()).toEqual([a, d].sort((x, y) => x - y));

    // A smaller budget evicts at once; the most recent stays.
    expect(cache.setBudget(50_000)).toEqual({ bytes: 40_000, items: 1, budgetBytes: 50_000 });
    expect(cached()).toEqual([d]);
    cache.clear();
    expect(cache.usage()).toEqual({ bytes: 0, items: 0, budgetBytes: 50_000 });
  });

  it('a file over maxItemBytes is answered but not stored', async () => {
    const big = imageBytes(60_000, 'grande');
    const { messages, net, media } = await world([{ name: 'big.png', type: 'image/png', bytes: big }]);
    const cache = media({ maxItemBytes: 50_000 });
    const answer = await cache.get(messages[0].id);
    expect(Buffer.from(answer.bytes).equals(big)).toBe(true);
    expect(cache.usage().items).toBe(0);
    await cache.get(messages[0].id);
    expect(net.requests).toHaveLength(2);
  });

  it("another tenant's message id: the server's 404 reaches the caller, nothing is stored", async () => {
    const { messages: theirs } = await world([{ name: 'alheio.png', type: 'image/png', bytes: imageBytes(1_000, 'alheio') }]);
    const { media } = await world([{ name: 'meu.png', type: 'image/png', bytes: imageBytes(1_000, 'meu') }]);
    const cache = media();
    const error = await cache.get(theirs[0].id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaCacheError);
    expect(error).toMatchObject({ code: 'ERR_DESKTOP_MEDIA_NOT_FOUND', httpStatus: 404, serverCode: 'ERR_NOT_FOUND' });
    expect((error as Error).message).toMatch(/^ERR_DESKTOP_MEDIA_NOT_FOUND: .*404 ERR_NOT_FOUND/);
    expect(cache.usage().items).toBe(0);
  });

  it('a message without a file: 404 as well; a message the cache does not hold is answered but not kept', async () => {
    const { w, ticket, messages, media } = await world([{ name: 'foto.png', type: 'image/png', bytes: imageBytes(1_000, 'y') }]);
    const cache = media();
    const text = await server.request('POST', `/messages/${ticket.id}`, { token: w.agent.token, body: { body: 'sem arquivo', isPrivate: true } });
    await expect(cache.get(text.body.messages[0].id)).rejects.toMatchObject({ code: 'ERR_DESKTOP_MEDIA_NOT_FOUND' });
    // Posted after the cache was filled: the server answers it, the cache has no row to tie it to.
    const [later] = await postFiles(w, ticket.id, [{ name: 'depois.png', type: 'image/png', bytes: imageBytes(2_000, 'z') }]);
    expect((await cache.get(later.id)).bytes.byteLength).toBe(2_000);
    expect(cache.usage().items).toBe(0);
    await cache.get(messages[0].id);
    expect(cache.usage().items).toBe(1);
  });

  it("a deleted ticket's files go with its messages (foreign key, cascade)", async () => {
    const { ticket, messages, store, media } = await world([{ name: 'foto.png', type: 'image/png', bytes: imageBytes(3_000, 'w') }]);
    const cache = media();
    await cache.get(messages[0].id);
    expect(cache.usage().items).toBe(1);
    store.deleteTicket(ticket.id, new Date(Date.now() + 60_000).toISOString());
    expect(cache.usage()).toMatchObject({ items: 0, bytes: 0 });
  });

  it('the files are encrypted at rest: the marker is not in the database or its WAL', async () => {
    const marker = `MARCADOR-${randomBytes(8).toString('hex')}`;
    const { messages, database, media } = await world([{ name: 'foto.png', type: 'image/png', bytes: imageBytes(30_000, marker) }]);
    const cache = media();
    await cache.get(messages[0].id);
    const onDisk = ['', '-wal', '-shm'].filter((s) => existsSync(database.filePath + s)).map((s) => readFileSync(database.filePath + s));
    expect(onDisk.length).toBeGreaterThan(0);
    expect(onDisk.reduce((sum, b) => sum + b.length, 0)).toBeGreaterThan(30_000);
    for (const bytes of onDisk) expect(bytes.includes(Buffer.from(marker))).toBe(false);
    // The check finds the marker when it is there in clear: the bytes as answered.
    expect(Buffer.from((await cache.get(messages[0].id)).bytes).includes(Buffer.from(marker))).toBe(true);
  });
});
