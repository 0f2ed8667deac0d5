import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import { messagesApi, type Message, type MessagePage } from '../../api/messages.api';
import { ticketsApi, type Ticket, type TicketListArgs, type TicketListPage, type TicketNote } from '../../api/tickets.api';
import type { AppDispatch, RootState } from '../../app/store';
import { announceInboundMessage, refreshUnreadAttention } from './attention';
import { upsertMessage } from './message-display';
import { applyTicketEvent, type TicketListEvent } from './ticket-list-cache';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Cached queries of one endpoint, with the args they were started with. */
function cachedEntries<A>(state: RootState, endpointName: string): A[] {
  const queries = (state as unknown as { api: { queries: Record<string, { endpointName?: string; originalArgs?: unknown; data?: unknown }> } })
    .api.queries;
  return Object.values(queries)
    .filter((q) => q?.endpointName === endpointName && q.data !== undefined)
    .map((q) => q.originalArgs as A);
}

function ticketEventOf(name: string, payload: Record<string, unknown>): TicketListEvent | null {
  if (name === SOCKET_EVENTS.ticketDelete && typeof payload.ticketId === 'number')
    return { action: 'delete', ticketId: payload.ticketId };
  if ((name === SOCKET_EVENTS.ticketCreate || name === SOCKET_EVENTS.ticketUpdate) && isRecord(payload.ticket))
    return { action: name === SOCKET_EVENTS.ticketCreate ? 'create' : 'update', ticket: payload.ticket as unknown as Ticket };
  return null;
}

/** Applies a `ticket:note` event (`{action: 'create', ticketId, note}` / `{action: 'delete', ticketId, noteId}`) to a cached note list. */
export function applyNoteEvent(notes: TicketNote[], payload: Record<string, unknown>): void {
  if (payload.action === 'create' && isRecord(payload.note) && typeof payload.note.id === 'number') {
    const note = payload.note as unknown as TicketNote;
    const at = notes.findIndex((n) => n.id === note.id);
    if (at >= 0) notes[at] = note;
    else {
      // The server lists notes oldest first (by id).
      let index = notes.findIndex((n) => n.id > note.id);
      if (index < 0) index = notes.length;
      notes.splice(index, 0, note);
    }
  } else if (payload.action === 'delete' && typeof payload.noteId === 'number') {
    const at = notes.findIndex((n) => n.id === payload.noteId);
    if (at >= 0) notes.splice(at, 1);
  }
}

/**
 * Ticket and message events patch the cached lists and threads (no refetch). Returns true when
 * the event was one of ours.
 */
export function applyAttendanceEvent(
  dispatch: AppDispatch,
  getState: () => RootState,
  event: Pick<DomainEventEnvelope, 'name' | 'payload'>,
): boolean {
  const payload = isRecord(event.payload) ? event.payload : {};
  const ticketEvent = ticketEventOf(event.name, payload);
  if (ticketEvent) {
    for (const args of cachedEntries<TicketListArgs>(getState(), 'getTickets')) {
      dispatch(
        ticketsApi.util.updateQueryData('getTickets', args, (draft: TicketListPage) => {
          applyTicketEvent(draft, args.filter, ticketEvent);
        }),
      );
    }
    if (ticketEvent.action !== 'delete')
      dispatch(
        ticketsApi.util.updateQueryData('getTicket', ticketEvent.ticket.id, (draft) => {
          Object.assign(draft, ticketEvent.ticket);
        }),
      );
    refreshUnreadAttention(getState());
    return true;
  }
  if (event.name === SOCKET_EVENTS.ticketNote) {
    // Notes of the contact panel: only a list already loaded is patched (an unloaded one fetches fresh).
    if (typeof payload.ticketId === 'number')
      dispatch(ticketsApi.util.updateQueryData('getTicketNotes', payload.ticketId, (draft: TicketNote[]) => applyNoteEvent(draft, payload)));
    return true;
  }
  if (
    event.name === SOCKET_EVENTS.messageCreate ||
    event.name === SOCKET_EVENTS.messageUpdate ||
    event.name === SOCKET_EVENTS.messageAck ||
    event.name === SOCKET_EVENTS.messageDelete
  ) {
    if (!isRecord(payload.message)) return true;
    const message = payload.message as unknown as Message;
    for (const args of cachedEntries<{ ticketId: number; before: number | null }>(getState(), 'getMessages')) {
      if (args.ticketId !== message.ticketId) continue;
      dispatch(
        messagesApi.util.updateQueryData('getMessages', args, (draft: MessagePage) => {
          // Update events never add a message the thread has not loaded (an older page).
          const known = draft.messages.some((m) => m.id === message.id || (m.clientId && m.clientId === message.clientId));
          if (event.name === SOCKET_EVENTS.messageCreate || known) upsertMessage(draft.messages, message);
        }),
      );
    }
    if (event.name === SOCKET_EVENTS.messageCreate && !message.fromMe && !message.isPrivate) announceInboundMessage(getState(), message);
    return true;
  }
  return false;
}
