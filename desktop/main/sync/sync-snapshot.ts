import type { ContactDto } from '@shared/schemas/contacts';
import type { MessageDto } from '@shared/schemas/messages';
import { TICKET_PAGE_SIZE_MAX, type TicketDto, type TicketStatus } from '@shared/schemas/tickets';
import type { CacheSyncBatch, ThreadCoverage } from '../cache/cache-store';
import { NEWEST_PAGE_BEFORE, SyncHttpError, type SyncApi } from './sync-http';

/**
 * The first fill of the cache (login, or after the server asked for a reload): the tickets the
 * console's tabs show first, each with its newest message page, and their contacts. Everything
 * is read into memory before anything is written, so a failure half-way leaves the cache as it
 * was; the caller writes the result in one transaction.
 */

/** How many tickets per tab: the first screens of the console, not the tenant's history. */
export type SnapshotWindow = Partial<Record<Extract<TicketStatus, 'open' | 'pending' | 'closed'>, number>>;

export const DEFAULT_SNAPSHOT_WINDOW: Required<SnapshotWindow> = { open: 200, pending: 200, closed: 50 };

/** Parallel requests while reading threads and contacts: quick on a LAN, gentle on the server. */
export const SNAPSHOT_CONCURRENCY = 4;

export type Snapshot = Required<Pick<CacheSyncBatch, 'tickets' | 'messages' | 'contacts' | 'threads'>>;

export async function readSnapshot(api: SyncApi, window: SnapshotWindow = DEFAULT_SNAPSHOT_WINDOW): Promise<Snapshot> {
  const tickets = await readTicketWindow(api, window);
  const threads = await mapLimit(tickets, SNAPSHOT_CONCURRENCY, (t) => readNewestPage(api, t.id));
  const contactIds = [...new Set(tickets.map((t) => t.contactId))];
  const contacts = await mapLimit(contactIds, SNAPSHOT_CONCURRENCY, (id) => readContact(api, id));
  return {
    tickets,
    messages: threads.flatMap((t) => t?.messages ?? []),
    threads: threads.flatMap((t) => (t ? [t.coverage] : [])),
    contacts: contacts.filter((c): c is ContactDto => c !== null),
  };
}

/** Each tab's newest tickets, paged by the server's keyset cursor; a ticket in two tabs once. */
async function readTicketWindow(api: SyncApi, window: SnapshotWindow): Promise<TicketDto[]> {
  const byId = new Map<number, TicketDto>();
  for (const [status, limit] of Object.entries(window) as [TicketStatus, number][]) {
    let cursor: string | null = null;
    let read = 0;
    while (read < limit) {
      const page = await api.ticketPage(status, Math.min(TICKET_PAGE_SIZE_MAX, limit - read), cursor);
      // It moved tabs between two reads: the later copy is the newer one.
      for (const ticket of page.tickets) byId.set(ticket.id, ticket);
      read += page.tickets.length;
      if (!page.hasMore || !page.nextCursor || page.tickets.length === 0) break;
      cursor = page.nextCursor;
    }
  }
  return [...byId.values()];
}

/** Null when the ticket left the user's sight meanwhile: the replay's ticket:delete follows. */
async function readNewestPage(
  api: SyncApi,
  ticketId: number,
): Promise<{ messages: MessageDto[]; coverage: ThreadCoverage } | null> {
  try {
    const page = await api.threadPage(ticketId, NEWEST_PAGE_BEFORE);
    return { messages: page.messages, coverage: { ticketId, beforeId: page.hasMore ? page.nextBefore : null } };
  } catch (error) {
    if (error instanceof SyncHttpError && error.status === 404) return null;
    throw error;
  }
}

async function readContact(api: SyncApi, contactId: number): Promise<ContactDto | null> {
  try {
    return await api.contact(contactId);
  } catch (error) {
    // Merged away meanwhile (remove duplicates): its tickets' events name the surviving one.
    if (error instanceof SyncHttpError && error.status === 404) return null;
    throw error;
  }
}

/** `fn` over `items` with at most `limit` calls in flight; results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure the whole read is dropped: stop asking the server for the rest.
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await fn(items[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
