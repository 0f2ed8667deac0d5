import type Database from 'better-sqlite3-multiple-ciphers';
import type { ContactDto } from '@shared/schemas/contacts';
import { MESSAGE_PAGE_SIZE, type MessageDto } from '@shared/schemas/messages';
import {
  DEFAULT_LIST_STATUSES,
  TICKET_PAGE_SIZE_DEFAULT,
  TICKET_PAGE_SIZE_MAX,
  TICKET_STATUSES,
  type TicketDto,
  type TicketStatus,
} from '@shared/schemas/tickets';
import type { CacheDatabase } from './cache-database';

/**
 * The typed reads and writes of the local cache. Callers hand in and get back the server's own
 * shapes (TicketDto, MessageDto, ContactDto); the SQL stays in this folder.
 */

// The read shapes cross the preload bridge: they live in the contract shared with the renderer.
export type {
  CacheSearchResult,
  ThreadPage,
  ThreadPageOptions,
  TicketCursor,
  TicketListOptions,
  TicketListPage,
} from '@shared/desktop-api';
import type { CacheSearchResult, ThreadPage, ThreadPageOptions, TicketListOptions, TicketListPage } from '@shared/desktop-api';

export interface TicketDeletion {
  ticketId: number;
  /** When the server removed it (the event's createdAt): older copies of the ticket stay out. */
  deletedAt: string;
}

/** What one GET /sync answer (or snapshot page) changes, written in one transaction. */
export interface CacheSyncBatch {
  tickets?: readonly TicketDto[];
  messages?: readonly MessageDto[];
  contacts?: readonly ContactDto[];
  deletedTickets?: readonly TicketDeletion[];
  /**
   * Contacts the server deleted: they leave the cache (and its search). The server deletes only
   * contacts without tickets; one the cache still holds a ticket of stays, with its ticket.
   */
  deletedContacts?: readonly number[];
  /** The answer's lastSeq, saved with the rows it covers. */
  lastSeq?: number;
  /** How far down the threads of these messages are now cached (cache migration 2). */
  threads?: readonly ThreadCoverage[];
}

/**
 * How much of a ticket's thread the cache holds: every message with `id >= beforeId` (the next
 * older page is GET /messages/{ticketId}?before=beforeId); `beforeId: null` is the whole thread.
 */
export interface ThreadCoverage {
  ticketId: number;
  beforeId: number | null;
}

export interface CacheSyncResult {
  tickets: number;
  messages: number;
  contacts: number;
  deletedTickets: number;
}

export interface CacheStore {
  /** Rows written; older copies than the cached ones and tombstoned tickets are skipped. */
  upsertTickets(tickets: readonly TicketDto[]): number;
  /** Rows written; messages of tickets the cache does not hold are skipped. */
  upsertMessages(messages: readonly MessageDto[]): number;
  upsertContacts(contacts: readonly ContactDto[]): number;
  /** Removes the ticket and its messages and keeps a tombstone; false when it was not cached. */
  deleteTicket(ticketId: number, deletedAt: string): boolean;
  listTickets(options?: TicketListOptions): TicketListPage;
  threadPage(ticketId: number, options?: ThreadPageOptions): ThreadPage;
  /**
   * Accent- and case-insensitive; every word must match, the last one as a prefix. Up to `limit`
   * messages and up to `limit` contacts.
   */
  search(text: string, limit?: number): CacheSearchResult;
  /** The last applied seq, or null before the first sync (take a snapshot then). */
  lastSeq(): number | null;
  /** Never moves back: a late, older batch cannot rewind it (wipe() to start over). */
  setLastSeq(seq: number): void;
  applySyncBatch(batch: CacheSyncBatch): CacheSyncResult;
  /**
   * Null when no page of the thread was cached (only messages events brought): its newest page
   * is the one to fetch. Coverage only grows: a thread marked whole stays whole.
   */
  threadCoverage(ticketId: number): ThreadCoverage | null;
  /**
   * A full resync ("reload"): every copied row (tickets, messages, contacts, tombstones, thread
   * coverage, the sync point) is replaced by the batch, in one transaction, so a crash leaves the
   * previous copy whole. What is not a copy of the server (the outbox's queued work) stays.
   */
  replaceServerCopy(batch: CacheSyncBatch): CacheSyncResult;
}

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const THREAD_PAGE_SIZE_MAX = 200;
/** Longer input is cut; a search box never needs more, and each word costs an index lookup. */
const SEARCH_TEXT_MAX = 200;
const SEARCH_WORDS_MAX = 8;
/** Above every real cursor: the first page is the keyset query from the top. */
const TOP = Number.MAX_SAFE_INTEGER;

function epochMs(iso: string | null | undefined, what: string): number {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError(`${what} must be an ISO date, got ${JSON.stringify(iso)}`);
  return ms;
}

function boundedLimit(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  return Math.min(limit, max);
}

function statusesOf(status: TicketListOptions['status']): TicketStatus[] {
  const list = status === undefined ? DEFAULT_LIST_STATUSES : typeof status === 'string' ? [status] : [...status];
  for (const s of list) if (!TICKET_STATUSES.includes(s)) throw new RangeError(`unknown ticket status ${JSON.stringify(s)}`);
  return [...new Set(list)].sort();
}

/**
 * The user's words as an FTS5 query: each word quoted (so FTS5 operators and punctuation typed
 * by the user mean nothing), all required, the last one a prefix (results while typing). Words
 * are split as the unicode61 tokenizer splits them; it also folds case and accents of the query.
 */
export function ftsQuery(text: string): string | null {
  const words = text.slice(0, SEARCH_TEXT_MAX).match(/[\p{L}\p{N}\p{M}]+/gu);
  if (!words) return null;
  const kept = words.slice(0, SEARCH_WORDS_MAX);
  return kept.map((word, i) => `"${word}"${i === kept.length - 1 ? '*' : ''}`).join(' ');
}

interface JsonRow {
  json: string;
}

export function createCacheStore(cache: CacheDatabase): CacheStore {
  const db: Database.Database = cache.connection;
  const tenantId = cache.account.tenantId;

  const insertTicket = db.prepare(`
    INSERT INTO tickets (id, status, contact_id, contact_name, user_id, queue_id, whatsapp_id, unread_messages,
                         last_message, last_message_at_ms, updated_at_ms, json)
    SELECT @id, @status, @contactId, @contactName, @userId, @queueId, @whatsappId, @unreadMessages,
           @lastMessage, @lastMessageAtMs, @updatedAtMs, @json
     WHERE NOT EXISTS (SELECT 1 FROM tombstones WHERE kind = 'ticket' AND id = @id AND deleted_at_ms >= @updatedAtMs)
    ON CONFLICT (id) DO UPDATE SET
      status = excluded.status, contact_id = excluded.contact_id, contact_name = excluded.contact_name,
      user_id = excluded.user_id, queue_id = excluded.queue_id, whatsapp_id = excluded.whatsapp_id,
      unread_messages = excluded.unread_messages, last_message = excluded.last_message,
      last_message_at_ms = excluded.last_message_at_ms, updated_at_ms = excluded.updated_at_ms, json = excluded.json
     WHERE excluded.updated_at_ms >= tickets.updated_at_ms`);
  // A ticket changed after its deletion (shown to this user again) outlives the tombstone.
  const dropTicketTombstone = db.prepare(`DELETE FROM tombstones WHERE kind = 'ticket' AND id = ? AND deleted_at_ms < ?`);

  const insertMessage = db.prepare(`
    INSERT INTO messages (id, ticket_id, contact_id, from_me, body, media_type, status, ack, is_deleted, timestamp,
                          created_at_ms, updated_at_ms, json)
    SELECT @id, @ticketId, @contactId, @fromMe, @body, @mediaType, @status, @ack, @isDeleted, @timestamp,
           @createdAtMs, @updatedAtMs, @json
     WHERE EXISTS (SELECT 1 FROM tickets WHERE id = @ticketId)
    ON CONFLICT (id) DO UPDATE SET
      ticket_id = excluded.ticket_id, contact_id = excluded.contact_id, from_me = excluded.from_me, body = excluded.body,
      media_type = excluded.media_type, status = excluded.status, ack = excluded.ack, is_deleted = excluded.is_deleted,
      timestamp = excluded.timestamp, created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms,
      json = excluded.json
     WHERE excluded.updated_at_ms >= messages.updated_at_ms`);

  const insertContact = db.prepare(`
    INSERT INTO contacts (id, name, number, updated_at_ms, json) VALUES (@id, @name, @number, @updatedAtMs, @json)
    ON CONFLICT (id) DO UPDATE SET
      name = excluded.name, number = excluded.number, updated_at_ms = excluded.updated_at_ms, json = excluded.json
     WHERE excluded.updated_at_ms >= contacts.updated_at_ms`);

  const writeTombstone = db.prepare(`
    INSERT INTO tombstones (kind, id, deleted_at_ms) VALUES ('ticket', ?, ?)
    ON CONFLICT (kind, id) DO UPDATE SET deleted_at_ms = max(deleted_at_ms, excluded.deleted_at_ms)`);
  // A copy newer than the deletion (the ticket came back before this event was applied) stays.
  const removeTicket = db.prepare(`DELETE FROM tickets WHERE id = ? AND updated_at_ms <= ?`);

  // One keyset branch per status, each an index range read of limit + 1 rows, merged: the cost
  // of a page does not grow with the tickets of other statuses or with the depth of the cursor.
  const ticketPageStatements = new Map<number, Database.Statement>();
  const ticketPageStatement = (statusCount: number) => {
    let statement = ticketPageStatements.get(statusCount);
    if (!statement) {
      const branch = (i: number) => `SELECT * FROM (
          SELECT id, last_message_at_ms, json FROM tickets
           WHERE status = @status${i} AND (last_message_at_ms, id) < (@beforeAt, @beforeId)
           ORDER BY last_message_at_ms DESC, id DESC LIMIT @take)`;
      const branches = Array.from({ length: statusCount }, (_, i) => branch(i)).join(' UNION ALL ');
      statement = db.prepare(`SELECT id, last_message_at_ms, json FROM (${branches})
        ORDER BY last_message_at_ms DESC, id DESC LIMIT @take`);
      ticketPageStatements.set(statusCount, statement);
    }
    return statement;
  };

  const threadStatement = db.prepare(`
    SELECT id, json FROM messages
     WHERE ticket_id = ? AND id < ? AND status <> 'canceled'
     ORDER BY id DESC LIMIT ?`);

  // FTS5 walks its doclist newest rowid first (it consumes the ORDER BY: no sort, no ranking of
  // every hit) and the walk stops once `limit` rows pass the filter.
  const searchMessagesStatement = db.prepare(`
    SELECT m.json FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
     WHERE messages_fts MATCH ? AND m.status <> 'canceled'
     ORDER BY messages_fts.rowid DESC LIMIT ?`);
  const searchContactsStatement = db.prepare(`
    SELECT c.json FROM (SELECT rowid, rank FROM contacts_fts WHERE contacts_fts MATCH ? ORDER BY rank LIMIT ?) hit
      JOIN contacts c ON c.id = hit.rowid
     ORDER BY hit.rank`);

  const readSeq = db.prepare(`SELECT last_seq FROM sync_state WHERE tenant_id = ?`).pluck();
  const writeSeq = db.prepare(`
    INSERT INTO sync_state (tenant_id, last_seq, updated_at_ms) VALUES (?, ?, ?)
    ON CONFLICT (tenant_id) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq), updated_at_ms = excluded.updated_at_ms`);

  // Only for cached tickets (the foreign key); the covered range only grows downwards.
  const writeCoverage = db.prepare(`
    INSERT INTO thread_coverage (ticket_id, before_id)
    SELECT @ticketId, @beforeId WHERE EXISTS (SELECT 1 FROM tickets WHERE id = @ticketId)
    ON CONFLICT (ticket_id) DO UPDATE SET before_id = CASE
      WHEN thread_coverage.before_id IS NULL OR excluded.before_id IS NULL THEN NULL
      ELSE min(thread_coverage.before_id, excluded.before_id) END`);
  const readCoverage = db.prepare(`SELECT before_id FROM thread_coverage WHERE ticket_id = ?`);

  const upsertTickets = db.transaction((tickets: readonly TicketDto[]) => {
    let written = 0;
    for (const t of tickets) {
      const updatedAtMs = epochMs(t.updatedAt, `ticket ${t.id} updatedAt`);
      written += insertTicket.run({
        id: t.id,
        status: t.status,
        contactId: t.contactId,
        contactName: t.name ?? t.contact?.name ?? '',
        userId: t.userId,
        queueId: t.queueId,
        whatsappId: t.whatsappId,
        unreadMessages: t.unreadMessages ?? 0,
        lastMessage: t.lastMessage,
        lastMessageAtMs: epochMs(t.lastMessageAt, `ticket ${t.id} lastMessageAt`),
        updatedAtMs,
        json: JSON.stringify(t),
      }).changes;
      dropTicketTombstone.run(t.id, updatedAtMs);
    }
    return written;
  });

  const upsertMessages = db.transaction((messages: readonly MessageDto[]) => {
    let written = 0;
    for (const m of messages) {
      written += insertMessage.run({
        id: m.id,
        ticketId: m.ticketId,
        contactId: m.contactId,
        fromMe: m.fromMe ? 1 : 0,
        body: m.body ?? '',
        mediaType: m.mediaType,
        status: m.status,
        ack: m.ack,
        isDeleted: m.isDeleted ? 1 : 0,
        timestamp: m.timestamp,
        createdAtMs: epochMs(m.createdAt, `message ${m.id} createdAt`),
        updatedAtMs: epochMs(m.updatedAt, `message ${m.id} updatedAt`),
        json: JSON.stringify(m),
      }).changes;
    }
    return written;
  });

  const upsertContacts = db.transaction((contacts: readonly ContactDto[]) => {
    let written = 0;
    for (const c of contacts) {
      written += insertContact.run({
        id: c.id,
        name: c.name,
        number: c.number,
        updatedAtMs: epochMs(c.updatedAt, `contact ${c.id} updatedAt`),
        json: JSON.stringify(c),
      }).changes;
    }
    return written;
  });

  const deleteTicket = db.transaction((ticketId: number, deletedAt: string) => {
    const deletedAtMs = epochMs(deletedAt, `ticket ${ticketId} deletedAt`);
    writeTombstone.run(ticketId, deletedAtMs);
    return removeTicket.run(ticketId, deletedAtMs).changes > 0;
  });

  const setLastSeq = (seq: number) => {
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`seq must be a non-negative integer, got ${seq}`);
    writeSeq.run(tenantId, seq, Date.now());
  };

  const deleteContact = db.prepare(
    `DELETE FROM contacts WHERE id = ? AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.contact_id = contacts.id)`,
  );

  const applySyncBatch = db.transaction((batch: CacheSyncBatch): CacheSyncResult => {
    // Contacts and tickets before messages (a message needs its ticket); deletions compare
    // times with the rows, so their place in the batch does not change the outcome.
    const contacts = batch.contacts?.length ? upsertContacts(batch.contacts) : 0;
    const tickets = batch.tickets?.length ? upsertTickets(batch.tickets) : 0;
    let deletedTickets = 0;
    for (const d of batch.deletedTickets ?? []) if (deleteTicket(d.ticketId, d.deletedAt)) deletedTickets++;
    const messages = batch.messages?.length ? upsertMessages(batch.messages) : 0;
    // After the tickets (a coverage row needs its ticket) and with the messages it describes.
    for (const t of batch.threads ?? []) {
      if (t.beforeId !== null && (!Number.isSafeInteger(t.beforeId) || t.beforeId < 1)) {
        throw new RangeError(`thread ${t.ticketId} beforeId must be a positive integer or null, got ${t.beforeId}`);
      }
      writeCoverage.run({ ticketId: t.ticketId, beforeId: t.beforeId });
    }
    for (const id of batch.deletedContacts ?? []) deleteContact.run(id);
    if (batch.lastSeq !== undefined) setLastSeq(batch.lastSeq);
    return { tickets, messages, contacts, deletedTickets };
  });

  // Children first; the FTS indexes follow through the delete triggers.
  const clearStatements = ['thread_coverage', 'messages', 'tickets', 'contacts', 'tombstones', 'sync_state'].map((table) =>
    db.prepare(`DELETE FROM ${table}`),
  );
  const replaceServerCopy = db.transaction((batch: CacheSyncBatch): CacheSyncResult => {
    for (const statement of clearStatements) statement.run();
    return applySyncBatch(batch);
  });

  return {
    replaceServerCopy: (batch) => replaceServerCopy.immediate(batch),
    upsertTickets: (tickets) => upsertTickets.immediate(tickets),
    upsertMessages: (messages) => upsertMessages.immediate(messages),
    upsertContacts: (contacts) => upsertContacts.immediate(contacts),
    deleteTicket: (ticketId, deletedAt) => deleteTicket.immediate(ticketId, deletedAt),
    setLastSeq,
    applySyncBatch: (batch) => applySyncBatch.immediate(batch),

    listTickets(options = {}) {
      const statuses = statusesOf(options.status);
      const limit = boundedLimit(options.limit, TICKET_PAGE_SIZE_DEFAULT, TICKET_PAGE_SIZE_MAX);
      const params: Record<string, number | string> = {
        beforeAt: options.before?.lastMessageAtMs ?? TOP,
        beforeId: options.before?.id ?? TOP,
        take: limit + 1,
      };
      statuses.forEach((s, i) => (params[`status${i}`] = s));
      const rows = ticketPageStatement(statuses.length).all(params) as (JsonRow & { id: number; last_message_at_ms: number })[];
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > limit;
      return {
        tickets: page.map((r) => JSON.parse(r.json) as TicketDto),
        hasMore,
        nextBefore: hasMore && last ? { lastMessageAtMs: last.last_message_at_ms, id: last.id } : null,
      };
    },

    threadPage(ticketId, options = {}) {
      const limit = boundedLimit(options.limit, MESSAGE_PAGE_SIZE, THREAD_PAGE_SIZE_MAX);
      const rows = threadStatement.all(ticketId, options.beforeId ?? TOP, limit + 1) as (JsonRow & { id: number })[];
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        messages: page.map((r) => JSON.parse(r.json) as MessageDto),
        hasMore,
        nextBefore: hasMore ? page[page.length - 1].id : null,
      };
    },

    search(text, limit) {
      const take = boundedLimit(limit, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX);
      const query = ftsQuery(text);
      if (!query) return { messages: [], contacts: [] };
      return {
        messages: (searchMessagesStatement.all(query, take) as JsonRow[]).map((r) => JSON.parse(r.json) as MessageDto),
        contacts: (searchContactsStatement.all(query, take) as JsonRow[]).map((r) => JSON.parse(r.json) as ContactDto),
      };
    },

    lastSeq() {
      const seq = readSeq.get(tenantId) as number | undefined;
      return seq ?? null;
    },

    threadCoverage(ticketId) {
      const row = readCoverage.get(ticketId) as { before_id: number | null } | undefined;
      return row ? { ticketId, beforeId: row.before_id } : null;
    },
  };
}
