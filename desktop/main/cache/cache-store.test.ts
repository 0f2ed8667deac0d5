import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheAccount, type CacheDatabase } from './cache-database';
import { contactFixture, isoAt, messageFixture, ticketFixture } from './cache-fixtures.test-support';
import { createCacheStore, ftsQuery, type CacheStore } from './cache-store';

const account: CacheAccount = { serverOrigin: 'https://app.example.com', tenantId: 5, userId: 8 };

let directory: string;
let cache: CacheDatabase;
let store: CacheStore;

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'cache-store-'));
  cache = openCacheDatabase({ directory, account, key: randomBytes(32) });
  store = createCacheStore(cache);
});

afterEach(() => {
  cache.close();
  rmSync(directory, { recursive: true, force: true });
});

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

/** FTS5's own check that the index matches the rows it indexes (the triggers kept it in step). */
function expectSearchIndexesConsistent() {
  cache.connection.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)`);
  cache.connection.exec(`INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)`);
}

/**
 * Commits recorded in the WAL since it was last reset: each commit marks its last frame with the
 * database size (the frame headers are not encrypted; the pages are).
 */
function walCommits(): number {
  const wal = `${cache.filePath}-wal`;
  if (!existsSync(wal)) return 0;
  const bytes = readFileSync(wal);
  if (bytes.length < 32) return 0;
  const pageSize = bytes.readUInt32BE(8);
  const salt = bytes.subarray(16, 24);
  let commits = 0;
  for (let offset = 32; offset + 24 + pageSize <= bytes.length; offset += 24 + pageSize) {
    if (!bytes.subarray(offset + 8, offset + 16).equals(salt)) break; // a frame of an older generation
    if (bytes.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return commits;
}

function resetWal() {
  cache.connection.pragma('wal_autocheckpoint = 0');
  cache.connection.pragma('wal_checkpoint(TRUNCATE)');
}

describe('tickets', () => {
  it('round-trip the server object as it was given', () => {
    const ticket = ticketFixture(1, { unreadMessages: 3, lastMessage: 'Olá, tudo bem?', tags: undefined } as never);
    store.upsertTickets([ticket]);
    expect(store.listTickets().tickets).toEqual([JSON.parse(JSON.stringify(ticket))]);
  });

  it('list newest activity first, id breaking ties, open and pending by default', () => {
    store.upsertTickets([
      ticketFixture(1, { lastMessageAt: isoAt(100) }),
      ticketFixture(2, { lastMessageAt: isoAt(300), status: 'pending' }),
      ticketFixture(3, { lastMessageAt: isoAt(200) }),
      ticketFixture(4, { lastMessageAt: isoAt(200) }),
      ticketFixture(5, { lastMessageAt: isoAt(999), status: 'closed' }),
    ]);
    expect(ids(store.listTickets().tickets)).toEqual([2, 4, 3, 1]);
    expect(ids(store.listTickets({ status: 'closed' }).tickets)).toEqual([5]);
    expect(ids(store.listTickets({ status: ['closed', 'open'] }).tickets)).toEqual([5, 4, 3, 1]);
    expect(ids(store.listTickets({ status: ['open', 'pending', 'closed', 'schedule'] }).tickets)).toEqual([5, 2, 4, 3, 1]);
  });

  it('page by the cursor: every ticket once, in order, however they are spread over statuses', () => {
    const tickets = Array.from({ length: 95 }, (_, i) =>
      ticketFixture(i + 1, { lastMessageAt: isoAt(Math.floor(i / 3)), status: i % 2 ? 'open' : 'pending' }),
    );
    store.upsertTickets(tickets);
    const seen: number[] = [];
    let before = null;
    let pages = 0;
    do {
      const page = store.listTickets({ limit: 20, before });
      seen.push(...ids(page.tickets));
      before = page.nextBefore;
      expect(page.hasMore).toBe(before !== null);
      pages++;
    } while (before);
    expect(pages).toBe(5);
    const expected = [...tickets]
      .sort((a, b) => Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt) || b.id - a.id)
      .map((t) => t.id);
    expect(seen).toEqual(expected);
  });

  it('refuse unknown statuses and bad limits, and cap large limits', () => {
    expect(() => store.listTickets({ status: 'deleted' as never })).toThrow(/unknown ticket status/);
    expect(() => store.listTickets({ limit: 0 })).toThrow(/limit/);
    store.upsertTickets(Array.from({ length: 120 }, (_, i) => ticketFixture(i + 1)));
    expect(store.listTickets({ limit: 10_000 }).tickets).toHaveLength(100);
  });

  it('keep the newer copy: an older one arriving late (a snapshot page) does not overwrite it', () => {
    store.upsertTickets([ticketFixture(1, { status: 'pending', updatedAt: isoAt(50), lastMessage: 'nova' })]);
    expect(store.upsertTickets([ticketFixture(1, { status: 'open', updatedAt: isoAt(10), lastMessage: 'velha' })])).toBe(0);
    expect(store.listTickets({ status: 'pending' }).tickets[0].lastMessage).toBe('nova');
    expect(store.upsertTickets([ticketFixture(1, { status: 'closed', updatedAt: isoAt(60) })])).toBe(1);
    expect(ids(store.listTickets({ status: 'closed' }).tickets)).toEqual([1]);
    expect(store.listTickets({ status: 'pending' }).tickets).toEqual([]);
  });

  it('refuse rows whose dates are not dates, writing none of the batch', () => {
    expect(() => store.upsertTickets([ticketFixture(1), ticketFixture(2, { lastMessageAt: 'ontem' })])).toThrow(/lastMessageAt/);
    expect(store.listTickets().tickets).toEqual([]);
  });
});

describe('deleteTicket', () => {
  beforeEach(() => {
    store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(10) }), ticketFixture(2, { updatedAt: isoAt(10) })]);
    store.upsertMessages([messageFixture(11, 1, { body: 'apagar junto' }), messageFixture(21, 2, { body: 'fica' })]);
  });

  it('removes the ticket, its messages and their search entries', () => {
    expect(store.deleteTicket(1, isoAt(20))).toBe(true);
    expect(ids(store.listTickets().tickets)).toEqual([2]);
    expect(store.threadPage(1).messages).toEqual([]);
    expect(store.search('apagar').messages).toEqual([]);
    expect(ids(store.search('fica').messages)).toEqual([21]);
    expectSearchIndexesConsistent();
    expect(store.deleteTicket(1, isoAt(21))).toBe(false);
  });

  it('keeps a tombstone: an older copy arriving later does not bring it back, a newer one does', () => {
    store.deleteTicket(1, isoAt(20));
    expect(store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(15) })])).toBe(0);
    expect(store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(20) })])).toBe(0);
    expect(ids(store.listTickets().tickets)).toEqual([2]);
    // Transferred back to this agent after the deletion: visible again.
    expect(store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(30) })])).toBe(1);
    expect(ids(store.listTickets().tickets)).toEqual([2, 1]);
    // The tombstone went with it: a later deletion works as the first did.
    expect(store.deleteTicket(1, isoAt(40))).toBe(true);
  });

  it('does not remove a copy newer than the deletion (the events were applied out of order)', () => {
    store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(30) })]);
    expect(store.deleteTicket(1, isoAt(20))).toBe(false);
    expect(ids(store.listTickets().tickets)).toEqual([2, 1]);
  });
});

describe('messages', () => {
  beforeEach(() => {
    store.upsertTickets([ticketFixture(1), ticketFixture(2)]);
  });

  it('page a thread newest first, by id, without other tickets or canceled scheduled messages', () => {
    const messages = Array.from({ length: 70 }, (_, i) => messageFixture(i + 1, i % 10 === 9 ? 2 : 1));
    messages[68] = messageFixture(69, 1, { status: 'canceled' });
    expect(store.upsertMessages(messages)).toBe(70);
    const first = store.threadPage(1);
    expect(first.messages).toHaveLength(30);
    // 70 belongs to ticket 2 and 69 was canceled.
    expect(first.messages[0]).toEqual(messages[67]);
    expect(first.messages[0].id).toBe(68);
    expect(ids(first.messages)).not.toContain(69);
    expect(first.messages.every((m) => m.ticketId === 1)).toBe(true);
    const second = store.threadPage(1, { beforeId: first.nextBefore });
    expect(second.hasMore).toBe(true);
    const third = store.threadPage(1, { beforeId: second.nextBefore });
    expect(third.messages).toHaveLength(2); // 63 messages of ticket 1, one of them canceled
    expect(third.hasMore).toBe(false);
    expect(third.nextBefore).toBeNull();
    const all = [first, second, third].flatMap((page) => ids(page.messages));
    expect(all).toEqual(
      messages
        .filter((m) => m.ticketId === 1 && m.status !== 'canceled')
        .map((m) => m.id)
        .reverse(),
    );
    expect(ids(store.threadPage(2, { limit: 3 }).messages)).toEqual([70, 60, 50]);
  });

  it('are kept only for tickets the cache holds', () => {
    expect(store.upsertMessages([messageFixture(1, 1), messageFixture(2, 999)])).toBe(1);
    expect(store.threadPage(999).messages).toEqual([]);
  });

  it('take updates (ack, edits) but not older copies, and re-index an edited body only', () => {
    store.upsertMessages([messageFixture(1, 1, { body: 'primeira versão', ack: 1, updatedAt: isoAt(10) })]);
    store.upsertMessages([messageFixture(1, 1, { body: 'primeira versão', ack: 3, updatedAt: isoAt(11) })]);
    expect(store.threadPage(1).messages[0].ack).toBe(3);
    store.upsertMessages([messageFixture(1, 1, { body: 'texto corrigido', isEdited: true, updatedAt: isoAt(12) })]);
    expect(store.upsertMessages([messageFixture(1, 1, { body: 'primeira versão', updatedAt: isoAt(11) })])).toBe(0);
    expect(store.search('primeira').messages).toEqual([]);
    expect(store.search('corrigido').messages[0]).toMatchObject({ id: 1, isEdited: true });
    expectSearchIndexesConsistent();
  });
});

describe('search', () => {
  beforeEach(() => {
    store.upsertTickets([ticketFixture(1)]);
    store.upsertMessages([
      messageFixture(1, 1, { body: 'Qual a próxima ação do pedido?' }),
      messageFixture(2, 1, { body: 'A ACAO foi concluída' }),
      messageFixture(3, 1, { body: 'boleto enviado' }),
      messageFixture(4, 1, { body: 'ação cancelada', status: 'canceled' }),
    ]);
    store.upsertContacts([
      contactFixture(1, { name: 'João Conceição', number: '5511988887777' }),
      contactFixture(2, { name: 'Maria Aparecida' }),
    ]);
  });

  it('ignores accents and case both ways: "acao" finds "ação" and "AÇÃO" finds "acao"', () => {
    expect(ids(store.search('acao').messages)).toEqual([2, 1]);
    expect(ids(store.search('AÇÃO').messages)).toEqual([2, 1]);
    expect(ids(store.search('joao conceicao').contacts)).toEqual([1]);
    expect(ids(store.search('JOÃO').contacts)).toEqual([1]);
  });

  it('needs every word, matches the last one as a prefix, and finds contacts by number', () => {
    expect(ids(store.search('acao pedido').messages)).toEqual([1]);
    expect(ids(store.search('bol').messages)).toEqual([3]);
    expect(store.search('bol enviado').messages).toEqual([]);
    expect(ids(store.search('55119888').contacts)).toEqual([1]);
    expect(ids(store.search('apar').contacts)).toEqual([2]);
  });

  it('returns the server objects, newest message first, within the limit', () => {
    const result = store.search('acao', 1);
    expect(result.messages).toEqual([messageFixture(2, 1, { body: 'A ACAO foi concluída' })]);
    expect(result.contacts).toEqual([]);
  });

  it('treats what the user types as words, never as FTS5 syntax', () => {
    for (const text of ['"', 'acao"', 'acao OR boleto', 'NEAR(acao boleto)', 'acao*', '-boleto', 'a:b', '^acao', '(', '*']) {
      expect(() => store.search(text)).not.toThrow();
    }
    expect(store.search('acao OR boleto').messages).toEqual([]);
    expect(ids(store.search('"acao"').messages)).toEqual([2, 1]);
    expect(store.search('   ')).toEqual({ messages: [], contacts: [] });
    expect(ftsQuery('ação, pedido!')).toBe('"ação" "pedido"*');
    expect(ftsQuery('?!')).toBeNull();
  });

  it('follows contact renames', () => {
    store.upsertContacts([contactFixture(2, { name: 'Maria Souza', updatedAt: isoAt(9_999) })]);
    expect(store.search('aparecida').contacts).toEqual([]);
    expect(ids(store.search('souza').contacts)).toEqual([2]);
    expectSearchIndexesConsistent();
  });
});

describe('sync state', () => {
  it('has no seq before the first sync, then keeps the highest one applied', () => {
    expect(store.lastSeq()).toBeNull();
    store.setLastSeq(10);
    expect(store.lastSeq()).toBe(10);
    store.setLastSeq(7);
    expect(store.lastSeq()).toBe(10);
    store.setLastSeq(12);
    expect(store.lastSeq()).toBe(12);
    expect(() => store.setLastSeq(-1)).toThrow(RangeError);
    expect(() => store.setLastSeq(1.5)).toThrow(RangeError);
  });

  it('is per tenant: another tenant of the same user has its own file and seq', () => {
    store.setLastSeq(10);
    const other = openCacheDatabase({ directory, account: { ...account, tenantId: 6 }, key: randomBytes(32) });
    try {
      expect(createCacheStore(other).lastSeq()).toBeNull();
    } finally {
      other.close();
    }
  });
});

describe('applySyncBatch', () => {
  function batchOf(rows: number) {
    const ticketCount = rows / 10;
    return {
      contacts: [],
      tickets: Array.from({ length: ticketCount }, (_, i) => ticketFixture(i + 1)),
      messages: Array.from({ length: rows - ticketCount }, (_, i) => messageFixture(i + 1, (i % ticketCount) + 1)),
      lastSeq: 500,
    };
  }

  it('writes a 10,000-row batch and its seq in one transaction (one commit in the WAL)', () => {
    resetWal();
    const result = store.applySyncBatch(batchOf(10_000));
    expect(result).toEqual({ tickets: 1_000, messages: 9_000, contacts: 0, deletedTickets: 0 });
    expect(walCommits()).toBe(1);
    expect(store.lastSeq()).toBe(500);
    expect(store.threadPage(1).messages).toHaveLength(9);

    // For contrast, the same counting sees separate writes as separate commits.
    resetWal();
    store.setLastSeq(501);
    store.setLastSeq(502);
    store.upsertTickets([ticketFixture(5_000)]);
    expect(walCommits()).toBe(3);
  });

  it('writes nothing, not even the seq, when a row of the batch fails', () => {
    store.setLastSeq(400);
    // The 10,000th row fails inside SQLite, after 9,999 were written in the transaction.
    cache.connection.exec(`CREATE TEMP TRIGGER fail_last BEFORE INSERT ON messages WHEN new.id = 9000
      BEGIN SELECT RAISE(ABORT, 'disk I/O error (simulated)'); END`);
    expect(() => store.applySyncBatch(batchOf(10_000))).toThrow(/simulated/);
    expect(store.listTickets({ status: ['open', 'pending', 'closed', 'schedule'] }).tickets).toEqual([]);
    expect(store.lastSeq()).toBe(400);
    expect(cache.connection.inTransaction).toBe(false);
  });

  it('applies deletions and contacts with the rows, in any order of events', () => {
    store.upsertTickets([ticketFixture(1, { updatedAt: isoAt(10) }), ticketFixture(2, { updatedAt: isoAt(10) })]);
    const result = store.applySyncBatch({
      tickets: [ticketFixture(3), ticketFixture(2, { updatedAt: isoAt(30) })],
      deletedTickets: [
        { ticketId: 1, deletedAt: isoAt(20) },
        { ticketId: 2, deletedAt: isoAt(20) },
      ],
      contacts: [contactFixture(3, { name: 'Zélia' })],
      messages: [messageFixture(1, 1), messageFixture(2, 3)],
      lastSeq: 9,
    });
    expect(result).toEqual({ tickets: 2, messages: 1, contacts: 1, deletedTickets: 1 });
    expect(ids(store.listTickets().tickets).sort()).toEqual([2, 3]);
    expect(ids(store.search('zelia').contacts)).toEqual([3]);
    expect(store.lastSeq()).toBe(9);
  });
});

describe('replaceServerCopy (a full resync)', () => {
  it('replaces every copied row, tombstone and the seq in one transaction, and leaves the search index consistent', () => {
    store.applySyncBatch({
      contacts: [contactFixture(1, { name: 'Antiga Cliente' })],
      tickets: [ticketFixture(1), ticketFixture(2)],
      messages: [messageFixture(10, 1, { body: 'pedido antigo' })],
      deletedTickets: [{ ticketId: 3, deletedAt: isoAt(50) }],
      lastSeq: 90,
    });
    const result = store.replaceServerCopy({
      tickets: [ticketFixture(3, { updatedAt: isoAt(1) })],
      messages: [messageFixture(20, 3, { body: 'pedido novo' })],
      lastSeq: 120,
    });
    expect(result).toMatchObject({ tickets: 1, messages: 1 });
    // Ticket 3's old tombstone went with the copy it belonged to: the snapshot's older copy is taken.
    expect(ids(store.listTickets().tickets)).toEqual([3]);
    expect(ids(store.search('pedido').messages)).toEqual([20]);
    expect(store.search('antiga').contacts).toEqual([]);
    expect(store.lastSeq()).toBe(120);
    expectSearchIndexesConsistent();
  });

  it('keeps the previous copy whole when the new one fails', () => {
    store.applySyncBatch({ tickets: [ticketFixture(1)], lastSeq: 5 });
    expect(() => store.replaceServerCopy({ tickets: [ticketFixture(2, { lastMessageAt: 'not a date' })], lastSeq: 9 })).toThrow();
    expect(ids(store.listTickets().tickets)).toEqual([1]);
    expect(store.lastSeq()).toBe(5);
  });
});

describe('deleted contacts', () => {
  it('leave the cache and its search, unless a cached ticket still needs them', () => {
    store.applySyncBatch({
      contacts: [contactFixture(1, { name: 'Apagada Silva' }), contactFixture(2, { name: 'Apagada Souza' })],
      tickets: [ticketFixture(20, { contactId: 2 })],
    });
    store.applySyncBatch({ deletedContacts: [1, 2, 99], lastSeq: 3 });
    expect(store.search('apagada').contacts.map((c) => c.id)).toEqual([2]);
    expect(store.lastSeq()).toBe(3);
    expectSearchIndexesConsistent();
  });
});
