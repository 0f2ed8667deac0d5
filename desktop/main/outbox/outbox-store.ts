import type Database from 'better-sqlite3-multiple-ciphers';
import type { CacheDatabase } from '../cache/cache-database';
import {
  newClientId,
  OutboxEntryError,
  parseOutboxEntry,
  type OutboxEntry,
  type OutboxError,
  type OutboxItem,
  type OutboxResult,
  type OutboxState,
} from './outbox-items';

/**
 * The outbox table (cache migration 2) in the account's encrypted cache database: the rows and
 * their state changes, nothing about HTTP. Every change is one statement, so a crash leaves each
 * row in its last state; a row left `sending` is put back in the queue when the store opens.
 */
export interface OutboxStore {
  /** Validates `entry` (OutboxEntrySchema) and stores it queued, with a new client id. */
  /**
   * Stores the entry under its client id (a new one when it has none). The same client id again
   * answers the stored item (`created: false`): a console retrying its enqueue queues it once.
   */
  insert(entry: unknown, now: number): { item: OutboxItem; created: boolean };
  get(clientId: string): OutboxItem | null;
  /** Oldest first; every state unless `states` says otherwise. */
  list(filter?: { states?: readonly OutboxState[]; ticketId?: number }): OutboxItem[];
  /** The rows the replay walks: not done, oldest first (conflicts included: they hold their ticket). */
  unfinished(): OutboxItem[];
  /** Null when the row is no longer queued (discarded meanwhile). */
  markSending(clientId: string, now: number): OutboxItem | null;
  markDone(clientId: string, result: OutboxResult, now: number): OutboxItem;
  /** Back to the queue after a transient failure; `nextAttemptAt` 0 means at the next replay. */
  markRetry(clientId: string, error: OutboxError, nextAttemptAt: number, now: number): OutboxItem;
  markStopped(clientId: string, state: 'conflict' | 'failed', error: OutboxError, now: number): OutboxItem;
  /** A conflict or failure the agent sends again (after reopening the ticket, say). */
  requeue(clientId: string, now: number): OutboxItem | null;
  /** Deletes a row not being sent; false when there is none (or it is `sending`). */
  remove(clientId: string): boolean;
  /** Deletes done rows older than `before` (epoch ms); answers how many. */
  pruneDone(before: number): number;
}

interface OutboxRow {
  seq: number;
  client_id: string;
  ticket_id: number;
  kind: OutboxEntry['kind'];
  payload: string;
  expected: string | null;
  created_at_ms: number;
  attempts: number;
  state: OutboxState;
  next_attempt_at_ms: number;
  error_code: string | null;
  error_status: number | null;
  last_error: string | null;
  result: string | null;
}

function itemOf(row: OutboxRow): OutboxItem {
  return {
    kind: row.kind,
    ticketId: row.ticket_id,
    payload: JSON.parse(row.payload),
    ...(row.expected === null ? {} : { expected: JSON.parse(row.expected) }),
    clientId: row.client_id,
    seq: row.seq,
    createdAt: row.created_at_ms,
    attempts: row.attempts,
    state: row.state,
    nextAttemptAt: row.next_attempt_at_ms,
    lastError: row.error_code === null ? null : { code: row.error_code, message: row.last_error ?? '', status: row.error_status },
    result: row.result === null ? null : (JSON.parse(row.result) as OutboxResult),
  } as OutboxItem;
}

export function createOutboxStore(cache: CacheDatabase): OutboxStore {
  const db: Database.Database = cache.connection;
  // A request cut by a crash or a quit may or may not have reached the server: replaying it is
  // safe (client-id de-duplication, idempotent reactions and status changes), losing it is not.
  db.prepare(`UPDATE outbox SET state = 'queued' WHERE state = 'sending'`).run();

  const insert = db.prepare(`
    INSERT INTO outbox (client_id, ticket_id, kind, payload, expected, created_at_ms, updated_at_ms)
    VALUES (@clientId, @ticketId, @kind, @payload, @expected, @now, @now)`);
  const byClientId = db.prepare(`SELECT * FROM outbox WHERE client_id = ?`);
  const all = db.prepare(`SELECT * FROM outbox ORDER BY seq`);
  const unfinished = db.prepare(`SELECT * FROM outbox WHERE state IN ('queued', 'sending', 'conflict', 'failed') ORDER BY seq`);
  const sending = db.prepare(`
    UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at_ms = ? WHERE client_id = ? AND state = 'queued'`);
  const done = db.prepare(`
    UPDATE outbox SET state = 'done', result = ?, error_code = NULL, error_status = NULL, last_error = NULL,
                      next_attempt_at_ms = 0, updated_at_ms = ?
     WHERE client_id = ?`);
  const stopped = db.prepare(`
    UPDATE outbox SET state = ?, error_code = ?, error_status = ?, last_error = ?, next_attempt_at_ms = ?, updated_at_ms = ?
     WHERE client_id = ?`);
  const requeue = db.prepare(`
    UPDATE outbox SET state = 'queued', next_attempt_at_ms = 0, updated_at_ms = ?
     WHERE client_id = ? AND state IN ('conflict', 'failed')`);
  const remove = db.prepare(`DELETE FROM outbox WHERE client_id = ? AND state <> 'sending'`);
  const prune = db.prepare(`DELETE FROM outbox WHERE state = 'done' AND updated_at_ms < ?`);

  const get = (clientId: string): OutboxItem | null => {
    const row = byClientId.get(clientId) as OutboxRow | undefined;
    return row ? itemOf(row) : null;
  };
  const mustGet = (clientId: string): OutboxItem => {
    const item = get(clientId);
    if (!item) throw new Error(`outbox item ${clientId} is gone`);
    return item;
  };
  const setStopped = (clientId: string, state: OutboxState, error: OutboxError, nextAttemptAt: number, now: number) => {
    stopped.run(state, error.code, error.status, error.message, nextAttemptAt, now, clientId);
    return mustGet(clientId);
  };

  return {
    insert(input, now) {
      // Parsed again here: the store is the last door before the disk.
      const entry = parseOutboxEntry(input);
      const clientId = entry.clientId ?? newClientId();
      const existing = get(clientId);
      if (existing) {
        if (existing.ticketId !== entry.ticketId || existing.kind !== entry.kind) {
          throw new OutboxEntryError([{ path: 'clientId', message: 'já usado por outra ação' }]);
        }
        return { item: existing, created: false };
      }
      insert.run({
        clientId,
        ticketId: entry.ticketId,
        kind: entry.kind,
        payload: JSON.stringify(entry.payload),
        expected: entry.expected === undefined ? null : JSON.stringify(entry.expected),
        now,
      });
      return { item: mustGet(clientId), created: true };
    },
    get,
    list(filter = {}) {
      const rows = (all.all() as OutboxRow[]).map(itemOf);
      return rows.filter(
        (item) =>
          (filter.states === undefined || filter.states.includes(item.state)) &&
          (filter.ticketId === undefined || item.ticketId === filter.ticketId),
      );
    },
    unfinished: () => (unfinished.all() as OutboxRow[]).map(itemOf),
    markSending(clientId, now) {
      return sending.run(now, clientId).changes === 1 ? mustGet(clientId) : null;
    },
    markDone(clientId, result, now) {
      done.run(JSON.stringify(result), now, clientId);
      return mustGet(clientId);
    },
    markRetry: (clientId, error, nextAttemptAt, now) => setStopped(clientId, 'queued', error, nextAttemptAt, now),
    markStopped: (clientId, state, error, now) => setStopped(clientId, state, error, 0, now),
    requeue(clientId, now) {
      return requeue.run(now, clientId).changes === 1 ? mustGet(clientId) : null;
    },
    remove: (clientId) => remove.run(clientId).changes === 1,
    pruneDone: (before) => prune.run(before).changes,
  };
}
