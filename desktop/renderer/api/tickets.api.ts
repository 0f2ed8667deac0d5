import { baseApi } from './base.api';

/** Tickets of the agent console (docs/api.md, Tickets). */
export type TicketStatus = 'open' | 'pending' | 'closed' | 'schedule';

export interface Ticket {
  id: number;
  protocol: string | number | null;
  status: TicketStatus;
  name: string | null;
  contactId: number;
  contact: { id: number; name: string; number: string; profilePicUrl: string | null } | null;
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
  updatedAt: string;
}

/** The attendance filter of one cached list (spec section 3, "Attendance filter"). */
export interface TicketListFilter {
  status: TicketStatus[];
  searchParam: string;
  queuesIds: number[];
}

export interface TicketListPage {
  tickets: Ticket[];
  count: number | null;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface TicketListArgs {
  filter: TicketListFilter;
  /** The previous page's nextCursor; null for the first page. */
  cursor: string | null;
}

export type TicketTransition =
  | { status: 'open' | 'pending' | 'closed'; sendFarewellMessage?: boolean; requestRating?: boolean }
  | { isTransference: true; queueId: number; userId?: number | null }
  | { unreadMessages: 0 };

export const filterKey = (filter: TicketListFilter) =>
  JSON.stringify([[...filter.status].sort(), filter.searchParam.trim(), [...filter.queuesIds].sort((a, b) => a - b)]);

export const ticketsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTickets: build.query<TicketListPage, TicketListArgs>({
      query: ({ filter, cursor }) => ({
        url: '/tickets',
        params: {
          status: filter.status.join(','),
          ...(filter.searchParam.trim() ? { searchParam: filter.searchParam.trim() } : {}),
          ...(filter.queuesIds.length ? { queuesIds: filter.queuesIds.join(',') } : {}),
          pageSize: 40,
          ...(cursor ? { cursor } : {}),
        },
      }),
      // One cache entry per filter; later pages are merged into it.
      serializeQueryArgs: ({ queryArgs }) => filterKey(queryArgs.filter),
      merge: (current, incoming, { arg }) => {
        if (!arg.cursor) return incoming;
        const known = new Set(current.tickets.map((t) => t.id));
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
        if (data) dispatch(ticketsApi.util.upsertQueryData('getTicket', id, data));
      },
    }),
    getAttendanceQueues: build.query<{ id: number; name: string; color: string }[], void>({
      query: () => '/queue',
    }),
  }),
});

export const { useGetTicketsQuery, useGetTicketQuery, useUpdateTicketMutation, useGetAttendanceQueuesQuery } = ticketsApi;
