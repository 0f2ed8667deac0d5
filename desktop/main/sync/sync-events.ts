import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import type { ContactDto, ContactEventPayload } from '@shared/schemas/contacts';
import type { MessageDto, MessageEventPayload } from '@shared/schemas/messages';
import type { TicketDeletePayload, TicketDto, TicketEventPayload } from '@shared/schemas/tickets';
import type { DesktopPurgePayload, DesktopPurgeReason } from '@shared/schemas/users';
import type { CacheSyncBatch, TicketDeletion } from '../cache/cache-store';

/**
 * Domain events (socket envelopes and GET /sync answers) as cache writes. Pure: the engine
 * decides which events to apply and when; this only says what each one changes (and which one
 * asks for the whole cache to go: purgeRequestOf).
 */

/** What the envelope must look like before anything of it is trusted. */
export function isEnvelope(value: unknown): value is DomainEventEnvelope {
  const e = value as Partial<DomainEventEnvelope> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    Number.isSafeInteger(e.seq) &&
    (e.seq as number) > 0 &&
    Number.isSafeInteger(e.tenantId) &&
    typeof e.name === 'string' &&
    typeof e.createdAt === 'string'
  );
}

const MESSAGE_EVENTS = new Set<string>([
  SOCKET_EVENTS.messageCreate,
  SOCKET_EVENTS.messageUpdate,
  SOCKET_EVENTS.messageAck,
  SOCKET_EVENTS.messageDelete,
]);

const hasId = (value: unknown): boolean => Number.isSafeInteger((value as { id?: unknown } | null)?.id);

/** One event's writes, or null for events the cache does not keep (notes, users, catalogs …). */
type EventWrite =
  | { kind: 'ticket'; ticket: TicketDto }
  | { kind: 'deletion'; deletion: TicketDeletion }
  | { kind: 'message'; message: MessageDto }
  | { kind: 'contact'; contact: ContactDto }
  | { kind: 'contactDeletion'; contactId: number };

export function writeOf(event: DomainEventEnvelope): EventWrite | null {
  const payload = event.payload as Record<string, unknown> | null;
  if (typeof payload !== 'object' || payload === null) return null;
  if (event.name === SOCKET_EVENTS.ticketCreate || event.name === SOCKET_EVENTS.ticketUpdate) {
    const { ticket } = payload as unknown as TicketEventPayload;
    return hasId(ticket) ? { kind: 'ticket', ticket } : null;
  }
  if (event.name === SOCKET_EVENTS.ticketDelete) {
    // The server has no hard delete of tickets: this is a ticket leaving the user's sight
    // (transfer, assignment, settings). The event's time decides which copies stay out.
    const { ticketId } = payload as unknown as TicketDeletePayload;
    return Number.isSafeInteger(ticketId) ? { kind: 'deletion', deletion: { ticketId, deletedAt: event.createdAt } } : null;
  }
  if (MESSAGE_EVENTS.has(event.name)) {
    // delete and cancel keep the row on the server (isDeleted / status 'canceled'): an upsert.
    const { message } = payload as unknown as MessageEventPayload;
    return hasId(message) ? { kind: 'message', message } : null;
  }
  if (event.name === SOCKET_EVENTS.contactUpdate) {
    const change = payload as unknown as ContactEventPayload;
    // 'bulk' (import, merge) names no rows to write: the tickets it moves come as their own events.
    if ((change.action === 'create' || change.action === 'update') && hasId(change.contact)) {
      return { kind: 'contact', contact: change.contact };
    }
    // A deleted contact (one without tickets: the server refuses the others) may be cached from
    // its create event; it must not stay findable offline.
    if (change.action === 'delete' && Number.isSafeInteger(change.contactId)) return { kind: 'contactDeletion', contactId: change.contactId };
  }
  return null;
}

/**
 * The writes of events in seq order as one batch. A row changed several times is written once,
 * as its last event left it (later events carry newer copies); the store still compares
 * `updatedAt`, so an out-of-date copy never overwrites a newer cached one.
 */
export function batchOfEvents(
  events: readonly DomainEventEnvelope[],
): Required<Pick<CacheSyncBatch, 'tickets' | 'messages' | 'contacts' | 'deletedTickets' | 'deletedContacts'>> {
  const tickets = new Map<number, TicketDto>();
  const messages = new Map<number, MessageDto>();
  const contacts = new Map<number, ContactDto>();
  const deletions = new Map<number, TicketDeletion>();
  const deletedContacts = new Set<number>();
  for (const event of events) {
    const write = writeOf(event);
    if (!write) continue;
    if (write.kind === 'ticket') setLast(tickets, write.ticket.id, write.ticket);
    else if (write.kind === 'message') setLast(messages, write.message.id, write.message);
    else if (write.kind === 'contact') setLast(contacts, write.contact.id, write.contact);
    else if (write.kind === 'contactDeletion') {
      // Deleted in the same batch it was created or changed in: nothing of it is written.
      contacts.delete(write.contactId);
      deletedContacts.add(write.contactId);
    } else setLast(deletions, write.deletion.ticketId, write.deletion);
  }
  return {
    tickets: [...tickets.values()],
    messages: [...messages.values()],
    contacts: [...contacts.values()],
    deletedTickets: [...deletions.values()],
    deletedContacts: [...deletedContacts],
  };
}

/** A server purge of this cache (issue #15): who asked, and the event's seq. */
export interface PurgeRequest {
  seq: number;
  reason: DesktopPurgeReason;
}

/**
 * The first `desktop:purge` among events in seq order that is for this cache's user, or null.
 * The server sends it to that user only; one naming another user is ignored like any event
 * the cache does not keep.
 */
export function purgeRequestOf(events: readonly DomainEventEnvelope[], userId: number): PurgeRequest | null {
  for (const event of events) {
    if (event.name !== SOCKET_EVENTS.desktopPurge) continue;
    const payload = event.payload as Partial<DesktopPurgePayload> | null;
    if (typeof payload !== 'object' || payload === null || payload.userId !== userId) continue;
    return { seq: event.seq, reason: payload.reason === 'self' ? 'self' : 'admin' };
  }
  return null;
}

/** Re-inserted, so the row moves to the end: the batch keeps the order of last changes. */
function setLast<T>(map: Map<number, T>, id: number, value: T): void {
  map.delete(id);
  map.set(id, value);
}
