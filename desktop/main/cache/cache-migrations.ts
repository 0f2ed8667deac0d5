import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * The local cache's schema, as numbered migrations (Signal Desktop's pattern): each runs once, in
 * its own transaction, and the version reached is kept in SQLite's `user_version`, so a crash
 * mid-migration leaves the previous version whole. Append new migrations; never edit a shipped
 * one (installed caches already ran it).
 */
export interface CacheMigration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}

/** The cache was written by a newer app (a downgrade): its schema is unknown here. */
export class CacheSchemaTooNewError extends Error {
  readonly code = 'ERR_CACHE_SCHEMA_TOO_NEW';
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`The local cache has schema version ${found}; this app knows up to ${supported}. It must be wiped and rebuilt.`);
    this.name = 'CacheSchemaTooNewError';
  }
}

/** Message bodies and contact names are searched without accents: "acao" finds "ação". */
const SEARCH_TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2'`;

export const CACHE_MIGRATIONS: readonly CacheMigration[] = [
  {
    version: 1,
    description: 'tickets, messages, contacts, sync state, tombstones, full-text search',
    up(db) {
      // Each row keeps the server's object as JSON (what the console renders) next to the columns
      // the cache filters and orders on. Times are epoch milliseconds: integer comparison, no
      // dependence on how the server formats ISO strings.
      db.exec(`
        CREATE TABLE contacts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          number TEXT,
          updated_at_ms INTEGER NOT NULL,
          json TEXT NOT NULL
        ) STRICT;

        CREATE TABLE tickets (
          id INTEGER PRIMARY KEY,
          status TEXT NOT NULL,
          contact_id INTEGER NOT NULL,
          contact_name TEXT NOT NULL,
          user_id INTEGER,
          queue_id INTEGER,
          whatsapp_id INTEGER,
          unread_messages INTEGER NOT NULL,
          last_message TEXT,
          last_message_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          json TEXT NOT NULL
        ) STRICT;
        -- The console's order within a status: newest activity first, id breaking ties.
        CREATE INDEX tickets_by_status_activity ON tickets (status, last_message_at_ms DESC, id DESC);

        -- A ticket's messages go with it (deletion, tombstone); messages of tickets the cache
        -- does not hold are not kept.
        CREATE TABLE messages (
          id INTEGER PRIMARY KEY,
          ticket_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
          contact_id INTEGER,
          from_me INTEGER NOT NULL,
          body TEXT NOT NULL,
          media_type TEXT NOT NULL,
          status TEXT NOT NULL,
          ack INTEGER NOT NULL,
          is_deleted INTEGER NOT NULL,
          timestamp INTEGER,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          json TEXT NOT NULL
        ) STRICT;
        CREATE INDEX messages_by_ticket ON messages (ticket_id, id);

        -- The last domain-event seq applied (GET /sync?since=<seq>), per tenant.
        CREATE TABLE sync_state (
          tenant_id INTEGER PRIMARY KEY,
          last_seq INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;

        -- Rows removed by a sync event: an older copy arriving later (a snapshot page fetched
        -- before the deletion, a replayed event) must not bring them back.
        CREATE TABLE tombstones (
          kind TEXT NOT NULL,
          id INTEGER NOT NULL,
          deleted_at_ms INTEGER NOT NULL,
          PRIMARY KEY (kind, id)
        ) STRICT, WITHOUT ROWID;

        -- External-content FTS5: the text is stored once (in messages / contacts), the index
        -- follows it through the triggers below.
        CREATE VIRTUAL TABLE messages_fts USING fts5 (body, content = 'messages', content_rowid = 'id', ${SEARCH_TOKENIZER});
        CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
          INSERT INTO messages_fts (rowid, body) VALUES (new.id, new.body);
        END;
        CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
        END;
        -- Most upserts change only the ack or status: leave the index alone then.
        CREATE TRIGGER messages_fts_update AFTER UPDATE OF body ON messages WHEN old.body IS NOT new.body BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
          INSERT INTO messages_fts (rowid, body) VALUES (new.id, new.body);
        END;

        CREATE VIRTUAL TABLE contacts_fts USING fts5 (name, number, content = 'contacts', content_rowid = 'id', ${SEARCH_TOKENIZER});
        CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN
          INSERT INTO contacts_fts (rowid, name, number) VALUES (new.id, new.name, new.number);
        END;
        CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN
          INSERT INTO contacts_fts (contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, old.number);
        END;
        CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, number ON contacts
          WHEN old.name IS NOT new.name OR old.number IS NOT new.number BEGIN
          INSERT INTO contacts_fts (contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, old.number);
          INSERT INTO contacts_fts (rowid, name, number) VALUES (new.id, new.name, new.number);
        END;
      `);
    },
  },
  {
    version: 2,
    description: 'thread coverage: how far down each cached thread is complete (sync, older history on demand)',
    up(db) {
      // Messages reach the cache from a page of GET /messages (newest first) and from events
      // (newer ones, and updates of any message: a reaction on a month-old message inserts that
      // one alone). The rows alone cannot tell a complete thread from one with a hole, so the
      // cursor of the contiguous part is kept: every message with id >= before_id is cached, the
      // next older page is `before=before_id`; NULL once the server said hasMore=false. No row:
      // only what events brought (a ticket that arrived by an event), start from the newest page.
      db.exec(`
        CREATE TABLE thread_coverage (
          ticket_id INTEGER PRIMARY KEY REFERENCES tickets (id) ON DELETE CASCADE,
          before_id INTEGER
        ) STRICT;
      `);
    },
  },
  {
    version: 3,
    description: 'outbox: sends, notes, reactions and ticket status changes made offline, replayed in order',
    up(db) {
      // Unlike every other table this one is not a copy of the server: a queued row is the
      // agent's own work not yet delivered. `seq` is the replay order (FIFO, never reused);
      // `client_id` is what the server de-duplicates a send on. Conflicts and failures stay
      // (never silently dropped) until the agent discards or retries them.
      db.exec(`
        CREATE TABLE outbox (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          client_id TEXT NOT NULL UNIQUE,
          ticket_id INTEGER NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('message', 'reaction', 'ticketStatus')),
          payload TEXT NOT NULL,
          expected TEXT,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'done', 'conflict', 'failed')),
          next_attempt_at_ms INTEGER NOT NULL DEFAULT 0,
          error_code TEXT,
          error_status INTEGER,
          last_error TEXT,
          result TEXT
        ) STRICT;
        -- The replay reads the rows not done, in order; the console lists a ticket's rows.
        CREATE INDEX outbox_by_state ON outbox (state, seq);
        CREATE INDEX outbox_by_ticket ON outbox (ticket_id, seq);
      `);
    },
  },
  {
    version: 4,
    description: 'media: the files of cached messages, kept within a size budget (least recently used go first)',
    up(db) {
      // The file of a cached message (GET /messages/media/{id}), so the console shows it offline.
      // A copy like the rest: it goes with its message (a deleted ticket cascades to its messages
      // and on to these rows; a full resync deletes every message, and with them the files).
      // `bytes` is the last column: scans of the other columns stop before the blob. The index
      // orders the eviction (oldest access first) and covers `size`, so the total is summed
      // without reading a single file.
      db.exec(`
        CREATE TABLE media (
          message_id INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
          mime_type TEXT NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          last_access_ms INTEGER NOT NULL,
          bytes BLOB NOT NULL
        ) STRICT;
        CREATE INDEX media_by_access ON media (last_access_ms, message_id, size);
      `);
    },
  },
];

export function latestCacheVersion(migrations: readonly CacheMigration[] = CACHE_MIGRATIONS): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

export function cacheSchemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to the last migration's version; returns the versions before and after.
 * Throws CacheSchemaTooNewError for a cache written by a newer app.
 */
export function migrateCache(
  db: Database.Database,
  migrations: readonly CacheMigration[] = CACHE_MIGRATIONS,
): { from: number; to: number } {
  migrations.forEach((migration, index) => {
    // A gap or a reordering would skip or repeat a step on some installs: refuse it outright.
    if (migration.version !== index + 1) {
      throw new Error(`cache migration #${index} has version ${migration.version}; expected ${index + 1}`);
    }
  });
  const from = cacheSchemaVersion(db);
  const latest = latestCacheVersion(migrations);
  if (from > latest) throw new CacheSchemaTooNewError(from, latest);
  for (const migration of migrations.slice(from)) {
    db.transaction(() => {
      migration.up(db);
      // user_version lives in the file header, written by the same transaction as the schema.
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return { from, to: latest };
}
