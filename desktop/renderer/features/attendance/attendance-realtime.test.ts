import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it, vi } from 'vitest';
import { baseApi } from '../../api/base.api';
import { messagesApi, type Message } from '../../api/messages.api';
import { ticketsApi, type Ticket, type TicketListArgs, type TicketNote } from '../../api/tickets.api';
import type { AppDispatch, RootState } from '../../app/store';
import { applyAttendanceEvent } from './attendance-realtime';

/** Socket events patch the RTK Query caches in place: no request leaves the client. */
function createTestStore() {
  return configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault({ serializableCheck: false, immutableCheck: false }).concat(baseApi.middleware),
  });
}

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket =>
  ({
    id,
    protocol: String(id),
    status: 'pending',
    name: `Contato ${id}`,
    contactId: id,
    contact: { id, name: `Contato ${id}`, number: '5511999990000', profilePicUrl: null },
    userId: null,
    user: null,
    queueId: null,
    queue: null,
    whatsappId: 1,
    whatsapp: null,
    isGroup: false,
    unreadMessages: 1,
    lastMessage: 'oi',
    lastMessageAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
    updatedAt: new Date().toISOString(),
    ...over,
  }) as Ticket;

const message = (id: number, over: Partial<Message> = {}): Message =>
  ({
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
    createdAt: new Date().toISOString(),
    ...over,
  }) as Message;

describe('attendance realtime', () => {
  it('ticket events patch every cached list and message events the cached thread, without fetching', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const store = createTestStore();
    const dispatch = store.dispatch as unknown as AppDispatch;
    const getState = store.getState as unknown as () => RootState;
    const pending: TicketListArgs = { filter: { status: ['pending'], searchParam: '', queuesIds: [] }, cursor: null };
    const open: TicketListArgs = { filter: { status: ['open'], searchParam: '', queuesIds: [] }, cursor: null };
    await dispatch(ticketsApi.util.upsertQueryData('getTickets', pending, { tickets: [ticket(1)], count: 1, hasMore: false, nextCursor: null }));
    await dispatch(ticketsApi.util.upsertQueryData('getTickets', open, { tickets: [], count: 0, hasMore: false, nextCursor: null }));
    await dispatch(messagesApi.util.upsertQueryData('getMessages', { ticketId: 1, before: null }, { messages: [message(1)], hasMore: false, nextBefore: null }));

    expect(applyAttendanceEvent(dispatch, getState, { name: 'ticket:create', payload: { action: 'create', ticket: ticket(2) } })).toBe(true);
    // Started: leaves pending, enters open.
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:update', payload: { action: 'update', ticket: ticket(1, { status: 'open' }) } });
    applyAttendanceEvent(dispatch, getState, { name: 'appMessage:ack', payload: { action: 'update', ticketId: 1, message: message(1, { status: 'delivered', ack: 2 }) } });
    applyAttendanceEvent(dispatch, getState, { name: 'appMessage:create', payload: { action: 'create', ticketId: 1, message: message(2, { fromMe: false, status: 'received' }) } });
    // An update for a message the thread never loaded is not added.
    applyAttendanceEvent(dispatch, getState, { name: 'appMessage:update', payload: { action: 'update', ticketId: 1, message: message(0) } });

    const pendingList = ticketsApi.endpoints.getTickets.select(pending)(getState());
    const openList = ticketsApi.endpoints.getTickets.select(open)(getState());
    expect(pendingList.data?.tickets.map((t) => t.id)).toEqual([2]);
    expect(openList.data?.tickets.map((t) => t.id)).toEqual([1]);
    expect(openList.data?.count).toBe(1);
    const thread = messagesApi.endpoints.getMessages.select({ ticketId: 1, before: null })(getState());
    expect(thread.data?.messages.map((m) => [m.id, m.status])).toEqual([
      [2, 'received'],
      [1, 'delivered'],
    ]);
    expect(applyAttendanceEvent(dispatch, getState, { name: 'ticket:delete', payload: { action: 'delete', ticketId: 2, reason: 'hidden' } })).toBe(true);
    expect(ticketsApi.endpoints.getTickets.select(pending)(getState()).data?.tickets).toEqual([]);
    expect(applyAttendanceEvent(dispatch, getState, { name: 'queue:update', payload: {} })).toBe(false);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('ticket:note events add and remove notes of a loaded note list, in id order, without fetching', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const store = createTestStore();
    const dispatch = store.dispatch as unknown as AppDispatch;
    const getState = store.getState as unknown as () => RootState;
    const note = (id: number, ticketId = 1): TicketNote => ({
      id,
      ticketId,
      note: `nota ${id}`,
      userId: 7,
      user: { id: 7, name: 'Ana' },
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
    });
    await dispatch(ticketsApi.util.upsertQueryData('getTicketNotes', 1, [note(1), note(3)]));
    const notes = () => ticketsApi.endpoints.getTicketNotes.select(1)(getState()).data?.map((n) => n.id);

    expect(applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'create', ticketId: 1, note: note(4) } })).toBe(true);
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'create', ticketId: 1, note: note(2) } });
    // The same note twice (our own add, then its event) is kept once.
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'create', ticketId: 1, note: note(4) } });
    expect(notes()).toEqual([1, 2, 3, 4]);
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'delete', ticketId: 1, noteId: 3 } });
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'delete', ticketId: 1, noteId: 99 } });
    expect(notes()).toEqual([1, 2, 4]);
    // Another ticket's notes were never loaded: nothing is created for them.
    applyAttendanceEvent(dispatch, getState, { name: 'ticket:note', payload: { action: 'create', ticketId: 2, note: note(5, 2) } });
    expect(ticketsApi.endpoints.getTicketNotes.select(2)(getState()).data).toBeUndefined();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
