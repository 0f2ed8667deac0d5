import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheAccount, type CacheDatabase } from './cache-database';
import { messageFixture, ticketFixture } from './cache-fixtures.test-support';
import {
  CACHE_MIGRATIONS,
  cacheSchemaVersion,
  CacheSchemaTooNewError,
  latestCacheVersion,
  migrateCache,
  type CacheMigration,
} from './cache-migrations';
import { createCacheStore } from './cache-store';

const account: CacheAccount = { serverOrigin: 'https://app.example.com', tenantId: 1, userId: 2 };

let directory: string;
let key: Buffer;
const opened: CacheDatabase[] = [];

function open(migrations?: readonly CacheMigration[]) {
  const cache = openCacheDatabase({ directory, account, key, migrations });
  opened.push(cache);
  return cache;
}

/** The schema as SQLite records it: every table, index, trigger and virtual table, with its SQL. */
function schemaOf(db: Database.Database) {
  return db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name`).all();
}

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'cache-migrations-'));
  key = randomBytes(32);
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('cache migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(CACHE_MIGRATIONS.map((m) => m.version)).toEqual(CACHE_MIGRATIONS.map((_, i) => i + 1));
    expect(latestCacheVersion()).toBe(CACHE_MIGRATIONS.length);
  });

  it('the first one creates the cache tables, the FTS5 indexes and their triggers', () => {
    const names = schemaOf(open().connection).map((row) => (row as { name: string }).name);
    for (const name of ['tickets', 'messages', 'contacts', 'sync_state', 'tombstones', 'messages_fts', 'contacts_fts']) {
      expect(names).toContain(name);
    }
    for (const trigger of ['messages_fts_insert', 'messages_fts_update', 'messages_fts_delete', 'contacts_fts_update']) {
      expect(names).toContain(trigger);
    }
  });

  it('the third one creates the outbox, which keeps its rows across a reopen', () => {
    const first = open();
    const insert = first.connection.prepare(
      `INSERT INTO outbox (client_id, ticket_id, kind, payload, created_at_ms, updated_at_ms) VALUES (?, 7, 'message', '{}', 1, 1)`,
    );
    insert.run('outbox:a');
    expect(() => insert.run('outbox:a')).toThrow(/UNIQUE/);
    expect(() =>
      first.connection
        .prepare(
          `INSERT INTO outbox (client_id, ticket_id, kind, payload, created_at_ms, updated_at_ms) VALUES ('b', 7, 'fax', '{}', 1, 1)`,
        )
        .run(),
    ).toThrow(/CHECK/);
    first.close();
    const again = open();
    expect(again.connection.prepare(`SELECT client_id, state, attempts FROM outbox`).all()).toEqual([
      { client_id: 'outbox:a', state: 'queued', attempts: 0 },
    ]);
  });

  it('the fourth one creates the media table: a file goes with its message, and needs one', () => {
    const cache = open();
    const store = createCacheStore(cache);
    store.upsertTickets([ticketFixture(1)]);
    store.upsertMessages([messageFixture(10, 1), messageFixture(11, 1)]);
    const insert = cache.connection.prepare(`INSERT INTO media (message_id, mime_type, size, last_access_ms, bytes) VALUES (?, 'image/png', 3, 1, x'010203')`);
    insert.run(10);
    insert.run(11);
    expect(() => insert.run(99)).toThrow(/FOREIGN KEY/);
    // An update of the message (ack, status) keeps its file; a deleted ticket takes both.
    store.upsertMessages([messageFixture(10, 1, { ack: 3 })]);
    expect(cache.connection.prepare(`SELECT message_id FROM media ORDER BY message_id`).pluck().all()).toEqual([10, 11]);
    store.deleteTicket(1, '2100-01-01T00:00:00.000Z');
    expect(cache.connection.prepare(`SELECT count(*) FROM media`).pluck().get()).toBe(0);
    const plan = cache.connection.prepare(`EXPLAIN QUERY PLAN SELECT coalesce(sum(size), 0), count(*) FROM media`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX media_by_access/);
  });

  // Every version an installed app can have left behind, up to the latest: each reaches the same
  // schema as a fresh install. A new migration is covered here without touching this test.
  for (let from = 0; from <= CACHE_MIGRATIONS.length; from++) {
    it(`migrate up from version ${from} to ${CACHE_MIGRATIONS.length}, the same schema as a fresh install`, () => {
      const fresh = open();
      const expected = schemaOf(fresh.connection);
      fresh.wipe();

      const old = open(CACHE_MIGRATIONS.slice(0, from));
      expect(cacheSchemaVersion(old.connection)).toBe(from);
      old.close();

      const upgraded = open();
      expect(cacheSchemaVersion(upgraded.connection)).toBe(latestCacheVersion());
      expect(schemaOf(upgraded.connection)).toEqual(expected);
    });
  }

  it('re-opening a current cache changes nothing and keeps its data', () => {
    const first = open();
    const store = createCacheStore(first);
    store.upsertTickets([ticketFixture(1)]);
    store.upsertMessages([messageFixture(1, 1, { body: 'continua aqui' })]);
    store.setLastSeq(42);
    const schema = schemaOf(first.connection);
    first.close();

    const again = open();
    expect(migrateCache(again.connection)).toEqual({ from: latestCacheVersion(), to: latestCacheVersion() });
    expect(schemaOf(again.connection)).toEqual(schema);
    const reopened = createCacheStore(again);
    expect(reopened.lastSeq()).toBe(42);
    expect(reopened.search('continua').messages.map((m) => m.id)).toEqual([1]);
  });

  it('a migration that fails leaves the previous version whole (its own transaction)', () => {
    const cache = open();
    const broken: CacheMigration = {
      version: latestCacheVersion() + 1,
      description: 'fails half-way',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        db.exec('ALTER TABLE tickets ADD COLUMN half_done INTEGER');
        throw new Error('disk full');
      },
    };
    expect(() => migrateCache(cache.connection, [...CACHE_MIGRATIONS, broken])).toThrow('disk full');
    expect(cacheSchemaVersion(cache.connection)).toBe(latestCacheVersion());
    const tables = cache.connection.prepare(`SELECT name FROM sqlite_schema WHERE name = 'half_done'`).all();
    expect(tables).toEqual([]);
    const columns = cache.connection.prepare(`SELECT name FROM pragma_table_info('tickets')`).pluck().all();
    expect(columns).not.toContain('half_done');
  });

  it('refuses a list with a gap or out of order', () => {
    const cache = open();
    const skip: CacheMigration = { version: latestCacheVersion() + 2, description: 'gap', up: () => undefined };
    expect(() => migrateCache(cache.connection, [...CACHE_MIGRATIONS, skip])).toThrow(/expected/);
    expect(cacheSchemaVersion(cache.connection)).toBe(latestCacheVersion());
  });

  it('refuses a cache written by a newer app', () => {
    const cache = open();
    cache.connection.pragma(`user_version = ${latestCacheVersion() + 3}`);
    expect(() => migrateCache(cache.connection)).toThrow(CacheSchemaTooNewError);
  });
});
