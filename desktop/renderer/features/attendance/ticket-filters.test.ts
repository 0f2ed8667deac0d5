import { describe, expect, it } from 'vitest';
import type { Ticket, TicketListFilter } from '../../api/tickets.api';
import { ticketMatchesFilter } from './ticket-list-cache';
import {
  DEFAULT_FILTERS,
  activeFilterCount,
  listFilterKey,
  listFilterOf,
  listedStatus,
  needsMorePages,
  pageNumberOf,
  readSavedFilters,
  rowsWithFocused,
  ticketListParams,
  toSavedFilters,
  toggleFilterId,
} from './ticket-filters';

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket => ({
  id,
  protocol: String(1000 + id),
  status: 'pending',
  name: `Contato ${id}`,
  contactId: id,
  contact: { id, name: `Contato ${id}`, number: `55119990000${id}`, profilePicUrl: null, tags: [] },
  userId: null,
  user: null,
  queueId: null,
  queue: null,
  whatsappId: 1,
  whatsapp: null,
  isGroup: false,
  unreadMessages: 0,
  lastMessage: null,
  lastMessageAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

describe('saved attendance filters (filtrosAtendimento)', () => {
  it('reads the defaults from nothing or garbage', () => {
    expect(readSavedFilters(undefined)).toEqual(DEFAULT_FILTERS);
    expect(readSavedFilters('x')).toEqual(DEFAULT_FILTERS);
    expect(readSavedFilters({ queuesIds: 'nope', showAll: 3 })).toEqual(DEFAULT_FILTERS);
  });

  it('reads ids saved as numbers, numeric strings or {id} objects, without duplicates', () => {
    const filters = readSavedFilters({
      queuesIds: [3, '4', { id: 5 }, 3, -1, 'x'],
      whatsappIds: [7],
      selectedUser: ['9'],
      tags: [{ id: 2 }],
      kanbanIds: [11],
      withUnreadMessages: 'true',
      isNotAssignedUser: true,
      includeNotQueueDefined: false,
      showAll: true,
    });
    expect(filters).toEqual({
      queuesIds: [3, 4, 5],
      whatsappIds: [7],
      selectedUser: [9],
      tags: [2],
      kanbanIds: [11],
      showAll: true,
      withUnreadMessages: true,
      isNotAssignedUser: true,
      includeNotQueueDefined: false,
    });
  });

  it('ignores a saved showAll for an ordinary user, keeps it for admin and super', () => {
    expect(readSavedFilters({ showAll: true }, 'user').showAll).toBe(false);
    expect(readSavedFilters({ showAll: true }, 'admin').showAll).toBe(true);
    expect(readSavedFilters({ showAll: true }, 'super').showAll).toBe(true);
  });

  it('writes every filter, sorted, over the previous object without losing foreign keys', () => {
    const next = toggleFilterId(toggleFilterId(DEFAULT_FILTERS, 'tags', 9), 'tags', 2);
    const saved = toSavedFilters({ ...next, withUnreadMessages: true }, { queuesIds: [1], diasAntigos: 30 });
    expect(saved).toEqual({
      diasAntigos: 30,
      queuesIds: [],
      whatsappIds: [],
      selectedUser: null,
      tags: [2, 9],
      kanbanIds: [],
      showAll: false,
      withUnreadMessages: true,
      isNotAssignedUser: false,
      includeNotQueueDefined: true,
    });
    // What was written reads back the same (a reload restores it).
    expect(readSavedFilters(JSON.parse(JSON.stringify(saved)))).toEqual({ ...next, tags: [9, 2].sort(), withUnreadMessages: true });
  });

  it('writes selectedUser as the stored schema wants it (one id, several as 1,2, none as null) and reads it back', () => {
    const one = toSavedFilters({ ...DEFAULT_FILTERS, selectedUser: [4] }, null);
    expect(one.selectedUser).toBe(4);
    expect(readSavedFilters(one).selectedUser).toEqual([4]);
    const two = toSavedFilters({ ...DEFAULT_FILTERS, selectedUser: [9, 4] }, null);
    expect(two.selectedUser).toBe('4,9');
    expect(readSavedFilters(two).selectedUser).toEqual([4, 9]);
    expect(readSavedFilters(toSavedFilters(DEFAULT_FILTERS, null)).selectedUser).toEqual([]);
  });

  it('toggles ids in and out without mutating', () => {
    const once = toggleFilterId(DEFAULT_FILTERS, 'whatsappIds', 4);
    expect(once.whatsappIds).toEqual([4]);
    expect(DEFAULT_FILTERS.whatsappIds).toEqual([]);
    expect(toggleFilterId(once, 'whatsappIds', 4).whatsappIds).toEqual([]);
  });

  it('counts the filters that narrow the list', () => {
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, queuesIds: [1, 2], includeNotQueueDefined: false, showAll: true })).toBe(3);
  });
});

describe('GET /tickets query of a filter', () => {
  it('sends only what differs from the server defaults, ids as 1,2 sorted', () => {
    const filter = listFilterOf(['open', 'pending'], '  maria ', {
      ...DEFAULT_FILTERS,
      queuesIds: [3, 1],
      whatsappIds: [8],
      selectedUser: [5, 4],
      tags: [7],
      kanbanIds: [2],
      withUnreadMessages: true,
      isNotAssignedUser: true,
      includeNotQueueDefined: false,
      showAll: true,
    });
    expect(ticketListParams(filter)).toEqual({
      status: 'open,pending',
      searchParam: 'maria',
      queuesIds: '1,3',
      whatsappIds: '8',
      selectedUser: '4,5',
      tags: '7',
      kanbanIds: '2',
      showAll: true,
      withUnreadMessages: true,
      isNotAssignedUser: true,
      includeNotQueueDefined: false,
    });
    expect(ticketListParams(listFilterOf(['closed'], '', DEFAULT_FILTERS))).toEqual({ status: 'closed' });
  });

  it('keys the same filter in another order alike, and different filters apart', () => {
    const a: TicketListFilter = { status: ['pending', 'open'], searchParam: 'x', queuesIds: [2, 1], tags: [5, 4] };
    const b: TicketListFilter = { status: ['open', 'pending'], searchParam: 'x ', queuesIds: [1, 2], tags: [4, 5], showAll: false };
    expect(listFilterKey(a)).toBe(listFilterKey(b));
    expect(listFilterKey({ ...a, withUnreadMessages: true })).not.toBe(listFilterKey(a));
    expect(listFilterKey({ ...a, whatsappIds: [1] })).not.toBe(listFilterKey(a));
  });
});

describe('live events against the new filters', () => {
  const base: TicketListFilter = { status: ['open', 'pending'], searchParam: '', queuesIds: [] };
  it('connection, user, unread, unassigned, kanban and tags', () => {
    expect(ticketMatchesFilter(ticket(1, { whatsappId: 2 }), { ...base, whatsappIds: [1] })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { whatsappId: 1 }), { ...base, whatsappIds: [1] })).toBe(true);
    expect(ticketMatchesFilter(ticket(1, { userId: 3 }), { ...base, selectedUser: [4] })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { userId: 4 }), { ...base, selectedUser: [4] })).toBe(true);
    expect(ticketMatchesFilter(ticket(1), { ...base, withUnreadMessages: true })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { unreadMessages: 2 }), { ...base, withUnreadMessages: true })).toBe(true);
    expect(ticketMatchesFilter(ticket(1, { userId: 3 }), { ...base, isNotAssignedUser: true })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { kanbanId: 5 }), { ...base, kanbanIds: [6] })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { kanbanId: 6 }), { ...base, kanbanIds: [6] })).toBe(true);
    const tagged = ticket(1);
    tagged.contact!.tags = [{ id: 9, name: 'VIP', color: '#f00' }];
    expect(ticketMatchesFilter(tagged, { ...base, tags: [9] })).toBe(true);
    expect(ticketMatchesFilter(tagged, { ...base, tags: [8] })).toBe(false);
  });

  it('tickets without a queue follow includeNotQueueDefined', () => {
    expect(ticketMatchesFilter(ticket(1), { ...base, queuesIds: [2] })).toBe(true);
    expect(ticketMatchesFilter(ticket(1), { ...base, queuesIds: [2], includeNotQueueDefined: false })).toBe(false);
    expect(ticketMatchesFilter(ticket(1), { ...base, includeNotQueueDefined: false })).toBe(false);
    expect(ticketMatchesFilter(ticket(1, { queueId: 2 }), { ...base, includeNotQueueDefined: false })).toBe(true);
  });
});

describe('a pending ticket opened in focus shows as open (spec section 4)', () => {
  it('reads as open only while focused', () => {
    expect(listedStatus(ticket(1), 1)).toBe('open');
    expect(listedStatus(ticket(1), 2)).toBe('pending');
    expect(listedStatus(ticket(1), null)).toBe('pending');
    expect(listedStatus(ticket(1, { status: 'closed' }), 1)).toBe('closed');
  });

  it('joins the open tab in the list order, once', () => {
    const open = [ticket(5, { status: 'open' }), ticket(2, { status: 'open' })];
    const focused = ticket(3);
    expect(rowsWithFocused(open, ['open'], focused).map((t) => t.id)).toEqual([5, 3, 2]);
    expect(rowsWithFocused(open, ['open'], ticket(9)).map((t) => t.id)).toEqual([9, 5, 2]);
    expect(rowsWithFocused([...open, focused], ['open'], focused)).toHaveLength(3);
    // Tabs that already list pending tickets, and other tabs, are the server's list as is.
    expect(rowsWithFocused(open, ['open', 'pending'], focused)).toBe(open);
    expect(rowsWithFocused(open, ['closed'], focused)).toBe(open);
    expect(rowsWithFocused(open, ['open'], ticket(3, { status: 'open' }))).toBe(open);
    expect(rowsWithFocused(open, ['open'], null)).toBe(open);
  });
});

describe('the chat route pageNumber', () => {
  it('defaults to page 1 and loads until that page is held', () => {
    expect(pageNumberOf(undefined)).toBe(1);
    expect(pageNumberOf('abc')).toBe(1);
    expect(pageNumberOf('0')).toBe(1);
    expect(pageNumberOf('3')).toBe(3);
    expect(needsMorePages(3, 40, 40, true)).toBe(true);
    expect(needsMorePages(3, 120, 40, true)).toBe(false);
    expect(needsMorePages(3, 40, 40, false)).toBe(false);
  });
});
