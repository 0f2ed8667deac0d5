import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Presence } from '@shared/schemas/internal-chat';
import { unmodifiedRows } from '../features/attendance/draft-read';
import { listFilterKey, ticketListParams } from '../features/attendance/ticket-filters';
import { baseApi } from './base.api';

/** Tickets of the agent console (docs/api.md, Tickets). */
export type TicketStatus = 'open' | 'pending' | 'closed' | 'schedule';

export interface Ticket {
  id: number;
  protocol: string | number | null;
  status: TicketStatus;
  name: string | null;
  contactId: number;
  contact: {
    id: number;
    name: string;
    number: string;
    profilePicUrl: string | null;
    tags?: { id: number; name: string; color: string }[];
    wallets?: { id: number; name: string }[];
  } | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; type: string } | null;
  isGroup: boolean;
  unreadMessages: number;
  lastMessage: string | null;
  lastMessageAt: string | null;
  closeAt?: string | null;
  kanbanId?: number | null;
  chatFlowId?: number | null;
  botActive?: boolean;
  startedAt?: string | null;
  closedAt?: string | null;
  ratingRequestedAt?: string | null;
  createdAt?: string;
  updatedAt: string;
  /** TicketDetail (GET /tickets/{id}) only. */
  kanban?: { id: number; name: string; color: string } | null;
  demand?: { id: number; name: string } | null;
  rating?: TicketRating | null;
  /** Read from the desktop's local cache while offline (issue #15): may be out of date. */
  fromCache?: boolean;
}

export interface TicketRating {
  ticketId: number;
  rating: number;
  label: string;
  userId: number | null;
  attempts: number;
  createdAt: string;
}

export interface TicketNote {
  id: number;
  ticketId: number;
  note: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
}

export interface TicketLog {
  id: number;
  ticketId: number;
  type: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  data: Record<string, unknown> | null;
  createdAt: string;
}

export interface MassResult {
  count: number;
  ticketIds: number[];
  skipped: number[];
}

export interface AttendanceUser {
  id: number;
  name: string;
  email?: string;
  profile?: string;
  isOnline?: boolean;
  /** Online, away or offline (issue #18); kept live by `user:status` (patchAttendanceUser). */
  presence?: Presence;
}

export interface AttendanceChannel {
  id: number;
  name: string;
  type: string;
  status?: string;
  isDefault?: boolean;
}

export interface CreateTicketBody {
  contactId: number;
  whatsappId?: number;
  userId?: number | null;
  queueId?: number;
  status?: 'open' | 'pending';
  assignExisting?: boolean;
}

export interface MessageSearchHit {
  id: number;
  ticketId: number;
  contactId: number;
  body: string;
  fromMe: boolean;
  createdAt: string;
}

/** The attendance filter of one cached list (spec section 3, "Attendance filter"). */
export interface TicketListFilter {
  status: TicketStatus[];
  searchParam: string;
  queuesIds: number[];
  whatsappIds?: number[];
  selectedUser?: number[];
  tags?: number[];
  kanbanIds?: number[];
  showAll?: boolean;
  withUnreadMessages?: boolean;
  isNotAssignedUser?: boolean;
  includeNotQueueDefined?: boolean;
}

export interface TicketListPage {
  tickets: Ticket[];
  count: number | null;
  hasMore: boolean;
  nextCursor: string | null;
  /** Read from the desktop's local cache while offline (issue #15): may be out of date. */
  fromCache?: boolean;
}

export interface TicketListArgs {
  filter: TicketListFilter;
  /** The previous page's nextCursor; null for the first page. */
  cursor: string | null;
}

export type TicketTransition =
  | { status: 'open' | 'pending' | 'closed'; sendFarewellMessage?: boolean; requestRating?: boolean }
  | { isTransference: true; queueId?: number | null; userId?: number | null }
  | { unreadMessages: 0 }
  | { kanbanId: number | null };

export const filterKey = (filter: TicketListFilter) => listFilterKey(filter);

export const TICKET_LIST_PAGE_SIZE = 40;

/** After a change the server answers with the ticket: the detail cache and the logs follow. */
function upsertTicketAfter(id: number) {
  return async (
    _arg: unknown,
    { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: Ticket }> },
  ) => {
    const result = await queryFulfilled.catch(() => null);
    if (!result) return;
    dispatch(ticketsApi.util.updateQueryData('getTicket', id, (draft) => Object.assign(draft, result.data)));
    dispatch(ticketsApi.util.invalidateTags([{ type: 'Ticket', id: `logs-${id}` }]));
  };
}

export const ticketsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTickets: build.query<TicketListPage, TicketListArgs>({
      query: ({ filter, cursor }) => ({
        url: '/tickets',
        params: {
          ...ticketListParams(filter),
          pageSize: TICKET_LIST_PAGE_SIZE,
          ...(cursor ? { cursor, count: false } : {}),
        },
      }),
      // One cache entry per filter; later pages are merged into it.
      serializeQueryArgs: ({ queryArgs }) => filterKey(queryArgs.filter),
      merge: (current, incoming, { arg }) => {
        if (!arg.cursor) return incoming;
        const known = new Set(unmodifiedRows(current.tickets).map((t) => t.id));
        for (const ticket of incoming.tickets) if (!known.has(ticket.id)) current.tickets.push(ticket);
        current.hasMore = incoming.hasMore;
        current.nextCursor = incoming.nextCursor;
        if (incoming.count !== null) current.count = incoming.count;
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.cursor !== previousArg?.cursor,
      // Socket events patch it in place; the tag is for a /sync replay that asks for a reload.
      providesTags: ['Ticket'],
    }),
    getTicket: build.query<Ticket, number>({
      query: (id) => `/tickets/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Ticket', id }],
    }),
    updateTicket: build.mutation<Ticket, { id: number; body: TicketTransition }>({
      query: ({ id, body }) => ({ url: `/tickets/${id}`, method: 'PUT', body }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) {
          // The answer is a Ticket; the cached TicketDetail keeps its rating, kanban and demand.
          dispatch(ticketsApi.util.updateQueryData('getTicket', id, (draft) => Object.assign(draft, data)));
          dispatch(ticketsApi.util.invalidateTags([{ type: 'Ticket', id: `logs-${id}` }]));
        }
      },
    }),
    getAttendanceQueues: build.query<{ id: number; name: string; color: string }[], void>({
      query: () => '/queue',
    }),
    /** Every user of the tenant but the caller, for any profile (transfer, user filter). */
    getAttendanceUsers: build.query<AttendanceUser[], void>({
      query: () => '/users/chat-privado',
    }),
    /** The tenant's channels (super and admin; a user is answered 403, quietly). */
    getAttendanceChannels: build.query<AttendanceChannel[], void>({
      query: () => '/whatsapp/',
      extraOptions: { background: true },
    }),
    getTicketNotes: build.query<TicketNote[], number>({
      query: (ticketId) => `/tickets/${ticketId}/notes`,
      providesTags: (_result, _error, ticketId) => [{ type: 'Ticket', id: `notes-${ticketId}` }],
    }),
    addTicketNote: build.mutation<TicketNote, { ticketId: number; note: string }>({
      query: ({ ticketId, note }) => ({ url: `/tickets/${ticketId}/notes`, method: 'POST', body: { note } }),
      invalidatesTags: (_result, error, { ticketId }) => (error ? [] : [{ type: 'Ticket', id: `notes-${ticketId}` }]),
    }),
    deleteTicketNote: build.mutation<void, { ticketId: number; noteId: number }>({
      query: ({ noteId }) => ({ url: `/tickets/notes/${noteId}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { ticketId }) => (error ? [] : [{ type: 'Ticket', id: `notes-${ticketId}` }]),
    }),
    getTicketLogs: build.query<TicketLog[], number>({
      query: (ticketId) => `/tickets/${ticketId}/logs`,
      providesTags: (_result, _error, ticketId) => [{ type: 'Ticket', id: `logs-${ticketId}` }],
    }),
    rateTicket: build.mutation<TicketRating, { ticketId: number; rating: number }>({
      query: ({ ticketId, rating }) => ({ url: `/tickets/${ticketId}/rating`, method: 'POST', body: { rating } }),
      async onQueryStarted({ ticketId }, { dispatch, queryFulfilled }) {
        const result = await queryFulfilled.catch(() => null);
        if (!result) return;
        dispatch(ticketsApi.util.updateQueryData('getTicket', ticketId, (draft) => void (draft.rating = result.data)));
        dispatch(ticketsApi.util.invalidateTags([{ type: 'Ticket', id: `logs-${ticketId}` }]));
      },
    }),
    forceTicket: build.mutation<Ticket, { id: number; status: 'open' | 'pending' | 'closed'; userId?: number | null }>({
      query: ({ id, ...body }) => ({ url: `/ticketsForce/${id}`, method: 'PUT', body }),
      onQueryStarted: (arg, api) => upsertTicketAfter(arg.id)(arg, api),
    }),
    chatbotTicket: build.mutation<Ticket, { id: number; body: { chatFlowId: number | null } | { botActive: false } }>({
      query: ({ id, body }) => ({ url: `/ticketsChatBot/${id}`, method: 'PUT', body }),
      onQueryStarted: (arg, api) => upsertTicketAfter(arg.id)(arg, api),
    }),
    channelTicket: build.mutation<Ticket, { id: number; whatsappId: number }>({
      query: ({ id, whatsappId }) => ({ url: `/ticketsChannelId/${id}`, method: 'PUT', body: { whatsappId } }),
      onQueryStarted: (arg, api) => upsertTicketAfter(arg.id)(arg, api),
    }),
    spyTicket: build.mutation<Ticket, number>({
      query: (id) => ({ url: `/tickets/${id}/spy`, method: 'POST' }),
      onQueryStarted: (id, api) => upsertTicketAfter(id)(id, api),
    }),
    /** 201 new ticket, 200 an existing one taken over (assignExisting); 409 ERR_OTHER_OPEN_TICKET `{ticketId, userId}`. */
    createTicket: build.mutation<Ticket, CreateTicketBody>({
      query: (body) => ({ url: '/tickets', method: 'POST', body }),
      // The dialog explains the 409 itself (open the existing ticket, or take it over).
      extraOptions: { background: true },
    }),
    massTransferTickets: build.mutation<MassResult, { fromUserId: number; toUserId: number; ticketIds?: number[] }>({
      query: (body) => ({ url: '/tickets/mass-transfer', method: 'POST', body }),
      extraOptions: { background: true },
    }),
    /** One ticket of a mass resolve (the dialog reports failures, no toast per ticket). */
    resolveTicketQuietly: build.mutation<Ticket, number>({
      query: (id) => ({ url: `/tickets/${id}`, method: 'PUT', body: { status: 'closed', sendFarewellMessage: false, requestRating: false } }),
      extraOptions: { background: true },
    }),
    /** GET /searchMessage: full-text search of the visible tickets' messages. */
    searchTicketMessages: build.query<{ messages: MessageSearchHit[]; count: number; hasMore: boolean }, string>({
      query: (searchParam) => ({ url: '/searchMessage', params: { searchParam } }),
    }),
    /** GET /tickets?searchParam=, every status: the search modal. */
    searchTickets: build.query<TicketListPage, string>({
      query: (searchParam) => ({ url: '/tickets', params: { searchParam, status: 'open,pending,closed', pageSize: 20, showAll: true } }),
    }),
  }),
});

export const {
  useGetTicketsQuery,
  useGetTicketQuery,
  useUpdateTicketMutation,
  useGetAttendanceQueuesQuery,
  useGetAttendanceUsersQuery,
  useGetAttendanceChannelsQuery,
  useGetTicketNotesQuery,
  useAddTicketNoteMutation,
  useDeleteTicketNoteMutation,
  useGetTicketLogsQuery,
  useRateTicketMutation,
  useForceTicketMutation,
  useChatbotTicketMutation,
  useChannelTicketMutation,
  useSpyTicketMutation,
  useCreateTicketMutation,
  useMassTransferTicketsMutation,
  useResolveTicketQuietlyMutation,
  useSearchTicketMessagesQuery,
  useSearchTicketsQuery,
} = ticketsApi;

/** The colleague fields a user event changes in the cached GET /users/chat-privado list (transfer dialog, filters). */
const ATTENDANCE_USER_FIELDS = ['name', 'email', 'profile', 'isOnline', 'presence'] as const;

/** A user's change (user:update, user:status) applied to the cached colleague list, if loaded. */
export function patchAttendanceUser(
  dispatch: ThunkDispatch<any, unknown, UnknownAction>,
  state: Parameters<typeof ticketsApi.util.selectCachedArgsForQuery>[0],
  userId: number,
  patch: Record<string, unknown>,
): void {
  if (ticketsApi.util.selectCachedArgsForQuery(state, 'getAttendanceUsers').length === 0) return;
  const changes = Object.fromEntries(ATTENDANCE_USER_FIELDS.filter((key) => key in patch).map((key) => [key, patch[key]]));
  if (Object.keys(changes).length === 0) return;
  dispatch(
    ticketsApi.util.updateQueryData('getAttendanceUsers', undefined, (draft) => {
      const user = draft.find((candidate) => candidate.id === userId);
      if (user) Object.assign(user, changes);
    }),
  );
}
