import { createNextState } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/messages.api';
import type { Ticket, TicketListFilter, TicketListPage } from '../../api/tickets.api';
import { createDraftStore } from './draft-store';
import { computeListWindow, createLoadMoreGate, isNearEnd } from './list-window';
import { ackMarkOf, formatDay, threadItems, upsertMessage } from './message-display';
import { applyTicketEvent, ticketMatchesFilter, unreadTotal } from './ticket-list-cache';

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket => ({
  id,
  protocol: String(1000 + id),
  status: 'pending',
  name: `Contato ${id}`,
  contactId: id,
  contact: { id, name: `Contato ${id}`, number: `551199900${String(id).padStart(4, '0')}`, profilePicUrl: null },
  userId: null,
  user: null,
  queueId: null,
  queue: null,
  whatsappId: null,
  whatsapp: null,
  isGroup: false,
  unreadMessages: 0,
  lastMessage: null,
  lastMessageAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

const filter = (over: Partial<TicketListFilter> = {}): TicketListFilter => ({
  status: ['open', 'pending'],
  searchParam: '',
  queuesIds: [],
  ...over,
});

const page = (tickets: Ticket[], hasMore = false): TicketListPage => ({
  tickets,
  count: tickets.length + (hasMore ? 10 : 0),
  hasMore,
  nextCursor: hasMore ? 'c' : null,
});

describe('ticket list patching', () => {
  it('inserts a created ticket in order and counts it', () => {
    const p = page([ticket(3), ticket(1)]);
    applyTicketEvent(p, filter(), { action: 'create', ticket: ticket(2) });
    expect(p.tickets.map((t) => t.id)).toEqual([3, 2, 1]);
    expect(p.count).toBe(3);
  });

  it('moves an updated ticket to the top when it gets a new message, without recounting', () => {
    const p = page([ticket(3), ticket(2), ticket(1)]);
    applyTicketEvent(p, filter(), {
      action: 'update',
      ticket: ticket(1, { lastMessageAt: new Date(Date.UTC(2026, 0, 2)).toISOString(), unreadMessages: 2 }),
    });
    expect(p.tickets.map((t) => t.id)).toEqual([1, 3, 2]);
    expect(p.tickets[0].unreadMessages).toBe(2);
    expect(p.count).toBe(3);
  });

  it('under an immer draft (as RTK Query applies it) moves rows up, down and in place the same way', () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    const base = page([ticket(5), ticket(4), ticket(3), ticket(2), ticket(1)]);
    const apply = (p: TicketListPage, t: Ticket) => createNextState(p, (draft) => void applyTicketEvent(draft, filter(), { action: 'update', ticket: t }));
    expect(apply(base, ticket(2, { lastMessageAt: at(10) })).tickets.map((t) => t.id)).toEqual([2, 5, 4, 3, 1]);
    expect(apply(base, ticket(4, { lastMessageAt: at(0) })).tickets.map((t) => t.id)).toEqual([5, 3, 2, 1, 4]);
    expect(apply(base, ticket(4, { lastMessageAt: new Date(Date.UTC(2026, 0, 1, 0, 1, 30)).toISOString() })).tickets.map((t) => t.id)).toEqual([5, 3, 2, 4, 1]);
    const inPlace = apply(base, ticket(3, { unreadMessages: 7 }));
    expect(inPlace.tickets.map((t) => [t.id, t.unreadMessages])).toEqual([[5, 0], [4, 0], [3, 7], [2, 0], [1, 0]]);
    expect(inPlace.tickets[0]).toBe(base.tickets[0]); // untouched rows are not copied
    expect(apply(base, ticket(6, { lastMessageAt: at(3) })).tickets.map((t) => t.id)).toEqual([5, 4, 6, 3, 2, 1]);
    expect(base.tickets.map((t) => t.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('drops a ticket that leaves the filter (resolved) and on ticket:delete', () => {
    const p = page([ticket(3), ticket(2), ticket(1)]);
    applyTicketEvent(p, filter(), { action: 'update', ticket: ticket(2, { status: 'closed' }) });
    expect(p.tickets.map((t) => t.id)).toEqual([3, 1]);
    expect(p.count).toBe(2);
    applyTicketEvent(p, filter(), { action: 'delete', ticketId: 3 });
    expect(p.tickets.map((t) => t.id)).toEqual([1]);
    expect(p.count).toBe(1);
  });

  it('adds a ticket entering the resolved tab', () => {
    const p = page([]);
    applyTicketEvent(p, filter({ status: ['closed'] }), { action: 'update', ticket: ticket(5, { status: 'closed' }) });
    expect(p.tickets.map((t) => t.id)).toEqual([5]);
  });

  it('leaves a ticket that sorts past the loaded rows for "load more", but counts it', () => {
    const p = page([ticket(9), ticket(8)], true);
    const before = p.count!;
    applyTicketEvent(p, filter(), { action: 'create', ticket: ticket(1) });
    expect(p.tickets.map((t) => t.id)).toEqual([9, 8]);
    expect(p.count).toBe(before + 1);
  });

  it('matches queues (tickets without queue included) and the search text', () => {
    expect(ticketMatchesFilter(ticket(1, { queueId: 2 }), filter({ queuesIds: [2] }))).toBe(true);
    expect(ticketMatchesFilter(ticket(1, { queueId: 3 }), filter({ queuesIds: [2] }))).toBe(false);
    expect(ticketMatchesFilter(ticket(1), filter({ queuesIds: [2] }))).toBe(true);
    expect(ticketMatchesFilter(ticket(7), filter({ searchParam: 'contato 7' }))).toBe(true);
    expect(ticketMatchesFilter(ticket(7), filter({ searchParam: '0007' }))).toBe(true);
    expect(ticketMatchesFilter(ticket(7), filter({ searchParam: 'maria' }))).toBe(false);
  });

  it('sums unread of active tickets once across lists', () => {
    const a = page([ticket(1, { unreadMessages: 2 }), ticket(2, { unreadMessages: 1, status: 'closed' })]);
    const b = page([ticket(1, { unreadMessages: 2 }), ticket(3, { unreadMessages: 4 })]);
    expect(unreadTotal([a, b])).toBe(6);
  });
});

describe('list windowing', () => {
  it('renders only the visible rows plus overscan', () => {
    const w = computeListWindow(10_000, 72, 72 * 500, 720, 4);
    expect(w.start).toBe(496);
    expect(w.end).toBe(500 + 11 + 4);
    expect(w.offsetTop).toBe(496 * 72);
    expect(w.totalHeight).toBe(720_000);
  });

  it('clamps at both ends and handles an empty list', () => {
    expect(computeListWindow(3, 72, 0, 720)).toMatchObject({ start: 0, end: 3 });
    const w = computeListWindow(100, 10, 99_999, 200, 0);
    expect(w.end).toBe(100);
    expect(w.start).toBe(80);
    expect(computeListWindow(0, 72, 0, 720)).toEqual({ start: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  });

  it('detects the end and throttles load more', () => {
    expect(isNearEnd(800, 200, 1100)).toBe(true);
    expect(isNearEnd(0, 200, 1100)).toBe(false);
    let now = 0;
    const gate = createLoadMoreGate(3000, () => now);
    expect(gate.tryPass()).toBe(true);
    now = 2999;
    expect(gate.tryPass()).toBe(false);
    now = 3000;
    expect(gate.tryPass()).toBe(true);
  });
});

describe('draft store', () => {
  it('keeps one draft per ticket and removes empty ones', () => {
    const map = new Map<string, string>();
    const store = createDraftStore({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
    store.write(1, 'olá');
    store.write(2, 'outro');
    expect(store.read(1)).toBe('olá');
    expect(store.read(2)).toBe('outro');
    store.write(1, '');
    expect(store.read(1)).toBe('');
    expect(map.size).toBe(1);
    store.clear(2);
    expect(map.size).toBe(0);
  });

  it('survives a storage that throws', () => {
    const store = createDraftStore({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    });
    expect(() => store.write(1, 'x')).not.toThrow();
    expect(store.read(1)).toBe('');
  });
});

const message = (id: number, over: Partial<Message> = {}): Message => ({
  id,
  messageId: null,
  clientId: null,
  ticketId: 1,
  contactId: 1,
  userId: null,
  body: `m${id}`,
  fromMe: true,
  mediaType: 'chat',
  mediaName: null,
  mimeType: null,
  mediaUrl: null,
  status: 'pending',
  ack: 0,
  isEdited: false,
  isDeleted: false,
  isPrivate: false,
  lastError: null,
  timestamp: null,
  createdAt: new Date(2026, 10, 21, 10, id).toISOString(),
  ...over,
});

describe('acks and thread', () => {
  it('maps status first, then ack', () => {
    expect(ackMarkOf(message(1, { status: 'sent', ack: 1 }))).toBe('sent');
    expect(ackMarkOf(message(1, { status: 'delivered', ack: 2 }))).toBe('delivered');
    expect(ackMarkOf(message(1, { status: 'read', ack: 3 }))).toBe('read');
    expect(ackMarkOf(message(1, { status: 'failed', ack: -1 }))).toBe('failed');
    expect(ackMarkOf(message(1, { status: 'received' as never, ack: 2 }))).toBe('delivered');
    expect(ackMarkOf(message(1, { status: 'pending', ack: 0 }))).toBe('pending');
    expect(ackMarkOf(message(1, { fromMe: false, status: 'received' }))).toBe('none');
  });

  it('formats days as dd/MM/yyyy and separates them', () => {
    expect(formatDay(new Date(2026, 0, 5))).toBe('05/01/2026');
    const items = threadItems([
      message(3, { createdAt: new Date(2026, 10, 21, 9).toISOString() }),
      message(2, { createdAt: new Date(2026, 10, 20, 23).toISOString() }),
      message(1, { createdAt: new Date(2026, 10, 20, 8).toISOString() }),
    ]);
    expect(items.map((i) => (i.kind === 'day' ? i.label : i.message.id))).toEqual(['20/11/2026', 1, 2, '21/11/2026', 3]);
  });

  it('upserts by id or clientId, newest first', () => {
    const list = [message(5), message(3)];
    upsertMessage(list, message(4));
    expect(list.map((m) => m.id)).toEqual([5, 4, 3]);
    upsertMessage(list, message(4, { status: 'delivered' }));
    expect(list[1].status).toBe('delivered');
    upsertMessage(list, message(6));
    expect(list.map((m) => m.id)).toEqual([6, 5, 4, 3]);
  });

  it('keeps the newer state when a stale copy arrives late (send answer after the socket update)', () => {
    const list = [message(7, { status: 'failed', updatedAt: '2026-11-21T10:00:05Z' })];
    upsertMessage(list, message(7, { status: 'pending', updatedAt: '2026-11-21T10:00:00Z' }));
    expect(list[0].status).toBe('failed');
    upsertMessage(list, message(7, { status: 'pending', updatedAt: '2026-11-21T10:00:09Z' }));
    expect(list[0].status).toBe('pending');
  });
});
