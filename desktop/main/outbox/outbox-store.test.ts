import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIdSchema } from '@shared/schemas/messages';
import { openCacheDatabase, type CacheAccount, type CacheDatabase } from '../cache/cache-database';
import { OutboxEntryError } from './outbox-items';
import { createOutboxStore } from './outbox-store';

/** The outbox's rows in a real encrypted cache, without a server: validation, order, restarts. */

const account: CacheAccount = { serverOrigin: 'https://app.example.com', tenantId: 3, userId: 9 };

let directory: string;
let key: Buffer;
const opened: CacheDatabase[] = [];

function open() {
  const cache = openCacheDatabase({ directory, account, key });
  opened.push(cache);
  return cache;
}

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'outbox-store-'));
  key = randomBytes(32);
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(directory, { recursive: true, force: true });
});

const message = (ticketId: number, body: string) => ({ kind: 'message', ticketId, payload: { body } });

describe('outbox store', () => {
  it('gives each item a client id the server accepts, and lists them in the order they came', () => {
    const store = createOutboxStore(open());
    const a = store.insert(message(5, 'primeira'), 1000).item;
    const b = store.insert({ kind: 'reaction', ticketId: 6, payload: { messageId: 40, emoji: '👍' } }, 1001).item;
    const c = store.insert(
      { kind: 'ticketStatus', ticketId: 5, payload: { status: 'closed' }, expected: { status: 'open', userId: 9 } },
      1002,
    ).item;
    for (const item of [a, b, c]) expect(clientIdSchema.safeParse(item.clientId).success).toBe(true);
    expect(new Set([a.clientId, b.clientId, c.clientId]).size).toBe(3);
    expect(store.list().map((i) => [i.kind, i.ticketId, i.state, i.attempts])).toEqual([
      ['message', 5, 'queued', 0],
      ['reaction', 6, 'queued', 0],
      ['ticketStatus', 5, 'queued', 0],
    ]);
    expect(store.get(c.clientId)).toMatchObject({
      payload: { status: 'closed' },
      expected: { status: 'open', userId: 9 },
      createdAt: 1002,
    });
    expect(store.list({ ticketId: 5 }).map((i) => i.clientId)).toEqual([a.clientId, c.clientId]);
  });

  it('refuses what could never be replayed, and stores nothing of it', () => {
    const store = createOutboxStore(open());
    const refused = [
      message(5, '   '),
      message(5, 'x'.repeat(4097)),
      message(0, 'ticket inválido'),
      { kind: 'message', ticketId: 5, payload: { body: 'oi', scheduleDate: '2030-01-01T00:00:00Z' } },
      { kind: 'reaction', ticketId: 5, payload: { messageId: 1, emoji: 'x'.repeat(17) } },
      { kind: 'ticketStatus', ticketId: 5, payload: { status: 'schedule' } },
      { kind: 'ticketStatus', ticketId: 5, payload: { status: 'open', requestRating: true } },
      { kind: 'ticketStatus', ticketId: 5, payload: { status: 'pending', userId: 3 } },
      { kind: 'delete', ticketId: 5, payload: {} },
      null,
    ];
    for (const entry of refused) expect(() => store.insert(entry, 1), JSON.stringify(entry)).toThrow(OutboxEntryError);
    expect(store.list()).toEqual([]);
  });

  it('keeps the queue across a restart, and puts back an item whose request was cut by it', () => {
    const first = createOutboxStore(open());
    const a = first.insert(message(5, 'antes de fechar'), 1).item;
    const b = first.insert(message(5, 'segunda'), 2).item;
    expect(first.markSending(a.clientId, 3)).toMatchObject({ state: 'sending', attempts: 1 });
    opened[0].close();

    const again = createOutboxStore(open());
    expect(again.list().map((i) => [i.clientId, i.state, i.attempts])).toEqual([
      [a.clientId, 'queued', 1],
      [b.clientId, 'queued', 0],
    ]);
  });

  it('keeps conflicts until the agent discards or retries them; an item being sent cannot be discarded', () => {
    const store = createOutboxStore(open());
    const a = store.insert(message(5, 'a'), 1).item;
    const b = store.insert(message(5, 'b'), 2).item;
    const error = { code: 'ERR_NO_TICKET_FOUND', message: 'Atendimento não encontrado.', status: 404 };
    store.markSending(a.clientId, 3);
    expect(store.markStopped(a.clientId, 'conflict', error, 4)).toMatchObject({ state: 'conflict', lastError: error });
    expect(store.unfinished().map((i) => i.state)).toEqual(['conflict', 'queued']);
    expect(store.requeue(b.clientId, 5)).toBeNull(); // only conflicts and failures go back
    expect(store.requeue(a.clientId, 5)).toMatchObject({ state: 'queued', lastError: error, attempts: 1 });

    store.markSending(b.clientId, 6);
    expect(store.remove(b.clientId)).toBe(false);
    store.markDone(b.clientId, { messageIds: [77] }, 7);
    expect(store.get(b.clientId)).toMatchObject({ state: 'done', result: { messageIds: [77] }, lastError: null });
    expect(store.remove(a.clientId)).toBe(true);
    expect(store.pruneDone(8)).toBe(1);
    expect(store.list()).toEqual([]);
  });

  it('writes the queued text only encrypted', () => {
    const cache = open();
    createOutboxStore(cache).insert(message(5, 'segredo-do-cliente-123'), 1);
    cache.connection.pragma('wal_checkpoint(TRUNCATE)');
    cache.close();
    expect(readFileSync(cache.filePath).includes(Buffer.from('segredo-do-cliente-123'))).toBe(false);
  });
});
