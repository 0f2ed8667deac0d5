import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheAccount, type CacheDatabase } from './cache-database';
import { isoAt, messageFixture, ticketFixture } from './cache-fixtures.test-support';
import { CACHE_MIGRATIONS, cacheSchemaVersion, latestCacheVersion } from './cache-migrations';
import { createCacheStore, type CacheStore } from './cache-store';

/** Cache migration 2: thread coverage, the cursor of the contiguous cached part of each thread. */

const account: CacheAccount = { serverOrigin: 'https://app.example.com', tenantId: 3, userId: 4 };

let directory: string;
let key: Buffer;
const opened: CacheDatabase[] = [];

function open(migrations = CACHE_MIGRATIONS) {
  const cache = openCacheDatabase({ directory, account, key, migrations });
  opened.push(cache);
  return cache;
}

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'cache-coverage-'));
  key = randomBytes(32);
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('cache migration 2 (thread coverage)', () => {
  it('upgrades a version 1 cache with data: the rows stay, every thread starts without coverage', () => {
    const v1 = open(CACHE_MIGRATIONS.slice(0, 1));
    // Today's store needs the new table, so version 1 rows are written as version 1 wrote them.
    const ticket = ticketFixture(1);
    const message = messageFixture(10, 1);
    v1.connection
      .prepare(
        `INSERT INTO tickets (id, status, contact_id, contact_name, unread_messages, last_message_at_ms, updated_at_ms, json)
         VALUES (1, 'open', 1, 'Contato 1', 0, ?, ?, ?)`,
      )
      .run(Date.parse(ticket.lastMessageAt), Date.parse(ticket.updatedAt), JSON.stringify(ticket));
    v1.connection
      .prepare(
        `INSERT INTO messages (id, ticket_id, from_me, body, media_type, status, ack, is_deleted, created_at_ms, updated_at_ms, json)
         VALUES (10, 1, 0, 'mensagem 10', 'chat', 'received', 0, 0, 0, 0, ?)`,
      )
      .run(JSON.stringify(message));
    v1.connection.prepare(`INSERT INTO sync_state (tenant_id, last_seq, updated_at_ms) VALUES (?, 7, 0)`).run(account.tenantId);
    v1.close();

    const upgraded = open();
    expect(cacheSchemaVersion(upgraded.connection)).toBe(latestCacheVersion());
    const store = createCacheStore(upgraded);
    expect(store.lastSeq()).toBe(7);
    expect(store.threadPage(1).messages.map((m) => m.id)).toEqual([10]);
    expect(store.threadCoverage(1)).toBeNull();
  });
});

describe('thread coverage', () => {
  let store: CacheStore;
  beforeEach(() => {
    store = createCacheStore(open());
    store.upsertTickets([ticketFixture(1), ticketFixture(2)]);
  });

  it('is written with the page it describes and only grows downwards', () => {
    store.applySyncBatch({ messages: [messageFixture(40, 1), messageFixture(41, 1)], threads: [{ ticketId: 1, beforeId: 40 }] });
    expect(store.threadCoverage(1)).toEqual({ ticketId: 1, beforeId: 40 });
    // A late copy of a newer page (a snapshot fetched earlier) does not shrink it.
    store.applySyncBatch({ threads: [{ ticketId: 1, beforeId: 41 }] });
    expect(store.threadCoverage(1)).toEqual({ ticketId: 1, beforeId: 40 });
    store.applySyncBatch({ messages: [messageFixture(20, 1)], threads: [{ ticketId: 1, beforeId: 20 }] });
    expect(store.threadCoverage(1)?.beforeId).toBe(20);
    // The server has nothing older: whole, and it stays whole.
    store.applySyncBatch({ threads: [{ ticketId: 1, beforeId: null }] });
    store.applySyncBatch({ threads: [{ ticketId: 1, beforeId: 30 }] });
    expect(store.threadCoverage(1)).toEqual({ ticketId: 1, beforeId: null });
    expect(store.threadCoverage(2)).toBeNull();
  });

  it('is not kept for a ticket the cache does not hold, and goes with a deleted ticket', () => {
    store.applySyncBatch({ threads: [{ ticketId: 99, beforeId: 5 }] });
    expect(store.threadCoverage(99)).toBeNull();

    store.applySyncBatch({ threads: [{ ticketId: 2, beforeId: null }] });
    store.deleteTicket(2, isoAt(1_000));
    expect(store.threadCoverage(2)).toBeNull();
    // Back after the deletion (newer copy): its thread is unknown again, not "whole".
    store.upsertTickets([ticketFixture(2, { updatedAt: isoAt(2_000) })]);
    expect(store.threadCoverage(2)).toBeNull();
  });

  it('refuses a cursor that is not an id, writing nothing of the batch', () => {
    expect(() =>
      store.applySyncBatch({ messages: [messageFixture(50, 1)], threads: [{ ticketId: 1, beforeId: 0 }], lastSeq: 3 }),
    ).toThrow(RangeError);
    expect(store.threadPage(1).messages).toEqual([]);
    expect(store.lastSeq()).toBeNull();
  });
});
