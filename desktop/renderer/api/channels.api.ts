import type { AdminChannelDto, ChannelDto, CreateChannelInput, UpdateChannelInput } from '@shared/schemas/channels';
import { baseApi } from './base.api';

/**
 * Channels (the anchor's "whatsapp" connections, docs/api.md "Channels"): the list and CRUD of
 * /whatsapp, the default, the session (/whatsappsession: start, new QR code, end), and the
 * channel-wide ticket actions (/ticketsClear, /ticketsChannel) and history sync
 * (/messages/syncOld). Session changes arrive live (features/channels/channel-realtime.ts
 * patches the cached list).
 */
export type Channel = ChannelDto;
export type AdminChannel = AdminChannelDto;

/** Create body: the shared schema's input (numbers for ids, JSON text for options). */
export type CreateChannelBody = Partial<Record<keyof CreateChannelInput, unknown>> & { type: Channel['type']; name: string };
export type UpdateChannelBody = Partial<Record<keyof UpdateChannelInput | string, unknown>>;

/** `MassResult` of the ticket mass actions. */
export interface MassResult {
  count: number;
  ticketIds: number[];
  skipped: number[];
}

export const channelsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listChannels: build.query<Channel[], void>({
      query: () => '/whatsapp/',
      providesTags: ['Channel'],
    }),
    /** Every tenant's channels (superadmin, /sessoestenants). */
    listAllTenantsChannels: build.query<AdminChannel[], void>({
      query: () => '/admin/channels',
      providesTags: ['Channel'],
    }),
    createChannel: build.mutation<Channel, CreateChannelBody>({
      query: (body) => ({ url: '/whatsapp', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel']),
    }),
    updateChannel: build.mutation<Channel, { id: number; body: UpdateChannelBody }>({
      query: ({ id, body }) => ({ url: `/whatsapp/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel']),
    }),
    deleteChannel: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsapp/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel']),
    }),
    setDefaultChannel: build.mutation<Channel, number>({
      query: (id) => ({ url: `/whatsapp/${id}/default`, method: 'PUT' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel']),
    }),
    /** Starts the session (waba/telegram: credentials check; QR types: a QR code or a pairing code). */
    startSession: build.mutation<Channel, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'POST' }),
    }),
    /** Restarts the session: a new QR code for the QR types. */
    restartSession: build.mutation<Channel, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'PUT' }),
    }),
    endSession: build.mutation<Channel, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'DELETE' }),
    }),
    /** How many open or pending tickets a channel holds (asked before closing them all). */
    countActiveTickets: build.query<number | null, number>({
      query: (whatsappId) => ({
        url: '/tickets',
        params: { status: 'open,pending', showAll: 'true', whatsappIds: String(whatsappId), pageSize: '1', count: 'true' },
      }),
      transformResponse: (body: { count?: unknown }) => (typeof body?.count === 'number' ? body.count : null),
      keepUnusedDataFor: 0,
      extraOptions: { background: true },
    }),
    /** Closes every open and pending ticket of the channel (no messages sent). */
    clearChannelTickets: build.mutation<MassResult, number>({
      query: (whatsappId) => ({ url: '/ticketsClear', params: { whatsappId: String(whatsappId) } }),
      invalidatesTags: (_result, error) => (error ? [] : ['Ticket']),
    }),
    /** Moves every active ticket of one channel to another. */
    transferChannelTickets: build.mutation<MassResult, { fromWhatsappId: number; toWhatsappId: number }>({
      query: (body) => ({ url: '/ticketsChannel', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Ticket']),
    }),
    /** Imports the channel's message history (QR-code channels). */
    syncChannelMessages: build.mutation<unknown, number>({
      query: (whatsappId) => ({ url: '/messages/syncOld', method: 'POST', body: { whatsappId } }),
    }),
  }),
});

export const {
  useListChannelsQuery,
  useCreateChannelMutation,
  useUpdateChannelMutation,
  useDeleteChannelMutation,
  useSetDefaultChannelMutation,
  useStartSessionMutation,
  useRestartSessionMutation,
  useEndSessionMutation,
  useLazyCountActiveTicketsQuery,
  useCountActiveTicketsQuery,
  useClearChannelTicketsMutation,
  useTransferChannelTicketsMutation,
  useSyncChannelMessagesMutation,
  useListAllTenantsChannelsQuery,
} = channelsApi;
