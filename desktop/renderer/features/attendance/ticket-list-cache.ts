import type { Ticket, TicketListFilter, TicketListPage } from '../../api/tickets.api';
import { unmodifiedRows } from './draft-read';

/**
 * How a ticket socket event changes one cached page of the attendance list, without a refetch.
 * Pure: the realtime wiring applies it to every cached list (one per filter).
 */
export type TicketListEvent =
  | { action: 'create' | 'update'; ticket: Ticket }
  | { action: 'delete'; ticketId: number };

/** Does the ticket belong to the list of this filter (status, queues, search)? */
export function ticketMatchesFilter(ticket: Ticket, filter: TicketListFilter): boolean {
  if (!filter.status.includes(ticket.status)) return false;
  // As GET /tickets: with queuesIds, tickets without a queue only when includeNotQueueDefined (default on).
  const includeNoQueue = filter.includeNotQueueDefined ?? true;
  if (filter.queuesIds.length > 0) {
    const inQueue = ticket.queueId !== null && filter.queuesIds.includes(ticket.queueId);
    if (!inQueue && !(ticket.queueId === null && includeNoQueue)) return false;
  } else if (!includeNoQueue && ticket.queueId === null) return false;
  if (filter.whatsappIds?.length && (ticket.whatsappId === null || !filter.whatsappIds.includes(ticket.whatsappId))) return false;
  if (filter.selectedUser?.length && (ticket.userId === null || !filter.selectedUser.includes(ticket.userId))) return false;
  if (filter.withUnreadMessages && !(ticket.unreadMessages > 0)) return false;
  if (filter.isNotAssignedUser && ticket.userId !== null) return false;
  if (filter.kanbanIds?.length && (ticket.kanbanId == null || !filter.kanbanIds.includes(ticket.kanbanId))) return false;
  if (filter.tags?.length) {
    const tags = ticket.contact?.tags;
    // An event without the contact's tags cannot be judged here: keep it (the server filtered the page).
    if (tags && !tags.some((tag) => filter.tags!.includes(tag.id))) return false;
  }
  const search = filter.searchParam.trim().toLowerCase();
  if (search) {
    const name = (ticket.contact?.name ?? ticket.name ?? '').toLowerCase();
    const digits = search.replace(/\D/g, '');
    const number = ticket.contact?.number ?? '';
    const byName = name.includes(search);
    const byNumber = digits.length > 0 && number.includes(digits);
    const byProtocol = String(ticket.protocol ?? '') === search;
    if (!byName && !byNumber && !byProtocol) return false;
  }
  return true;
}

/** The list's order: lastMessageAt desc, then id desc (as GET /tickets). */
export function compareTickets(a: Ticket, b: Ticket): number {
  const at = a.lastMessageAt ? Date.parse(a.lastMessageAt) : 0;
  const bt = b.lastMessageAt ? Date.parse(b.lastMessageAt) : 0;
  if (at !== bt) return bt - at;
  return b.id - a.id;
}

/** Mutates the draft page (RTK Query / immer friendly) and returns it. */
export function applyTicketEvent(page: TicketListPage, filter: TicketListFilter, event: TicketListEvent): TicketListPage {
  const ticketId = event.action === 'delete' ? event.ticketId : event.ticket.id;
  // Both positions are found on the rows before any change (reading a draft row by row is slow).
  const rows = unmodifiedRows(page.tickets);
  const index = rows.findIndex((t) => t.id === ticketId);
  const wasListed = index >= 0;
  const matches = event.action !== 'delete' && ticketMatchesFilter(event.ticket, filter);
  let at = -1;
  if (matches) {
    const ticket = event.ticket;
    at = rows.findIndex((t, i) => i !== index && compareTickets(ticket, t) < 0);
    if (at < 0) at = rows.length;
    // Its position once the old row (above it) is taken out.
    if (wasListed && index < at) at -= 1;
  }
  if (wasListed) page.tickets.splice(index, 1);

  let listed = false;
  if (event.action !== 'delete' && matches) {
    const ticket = event.ticket;
    // Past the last loaded row of a list with more pages: it arrives with "load more", in order.
    const beyondLoaded = at === page.tickets.length && page.hasMore;
    if (!beyondLoaded) {
      page.tickets.splice(at, 0, ticket);
      listed = true;
    }
    if (page.count !== null && !wasListed && (listed || beyondLoaded)) page.count += 1;
    if (page.count !== null && wasListed && !listed && !beyondLoaded) page.count -= 1;
    return page;
  }
  if (wasListed && page.count !== null) page.count = Math.max(0, page.count - 1);
  return page;
}

/** Merges a later page into the cached one (keyset pages never repeat, but a moved ticket may). */
export function appendTicketPage(current: TicketListPage, next: TicketListPage): TicketListPage {
  const known = new Set(unmodifiedRows(current.tickets).map((t) => t.id));
  for (const ticket of next.tickets) if (!known.has(ticket.id)) current.tickets.push(ticket);
  current.hasMore = next.hasMore;
  current.nextCursor = next.nextCursor;
  if (next.count !== null) current.count = next.count;
  return current;
}

/** Unread total of the open and pending tickets in the cached lists (document title, badge). */
export function unreadTotal(pages: readonly TicketListPage[]): number {
  const seen = new Map<number, number>();
  for (const page of pages)
    for (const t of page.tickets) if (t.status !== 'closed') seen.set(t.id, Math.max(0, t.unreadMessages ?? 0));
  let total = 0;
  for (const n of seen.values()) total += n;
  return total;
}
