import { baseApi } from './base.api';

/** Messages of a ticket thread (docs/api.md, Messages). */
export type MessageStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'received' | 'failed' | 'scheduled' | 'canceled';

export interface Message {
  id: number;
  messageId: string | null;
  clientId: string | null;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaName: string | null;
  mimeType: string | null;
  mediaUrl: string | null;
  status: MessageStatus;
  ack: number;
  isEdited: boolean;
  isDeleted: boolean;
  isPrivate: boolean;
  lastError: string | null;
  flags?: { undelivered?: boolean; retryPending?: boolean };
  timestamp: number | null;
  createdAt: string;
  updatedAt?: string;
}

export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
  nextBefore: number | null;
}

export interface SendResult {
  messages: Message[];
  created: boolean;
  warning: { error: string; message: string } | null;
}

export interface QuickReply {
  id: number;
  key: string;
  message: string | null;
  active: boolean;
  mediaName: string | null;
}

export const messagesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMessages: build.query<MessagePage, { ticketId: number; before: number | null }>({
      query: ({ ticketId, before }) => ({ url: `/messages/${ticketId}`, params: before ? { before } : {} }),
      serializeQueryArgs: ({ queryArgs }) => String(queryArgs.ticketId),
      merge: (current, incoming, { arg }) => {
        if (!arg.before) return incoming;
        const known = new Set(current.messages.map((m) => m.id));
        for (const m of incoming.messages) if (!known.has(m.id)) current.messages.push(m);
        current.hasMore = incoming.hasMore;
        current.nextBefore = incoming.nextBefore;
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.before !== previousArg?.before,
      keepUnusedDataFor: 120,
      providesTags: ['Message'],
    }),
    sendMessage: build.mutation<SendResult, { ticketId: number; body: string; clientId: string; files?: File[] }>({
      query: ({ ticketId, body, clientId, files }) => {
        if (!files?.length) return { url: `/messages/${ticketId}`, method: 'POST', body: { body, clientId } };
        const form = new FormData();
        if (body) form.append('body', body);
        form.append('clientId', clientId);
        for (const file of files) form.append('medias', file, file.name);
        return { url: `/messages/${ticketId}`, method: 'POST', body: form };
      },
    }),
    retryMessage: build.mutation<Message, number>({
      query: (id) => ({ url: `/messages/${id}/retry`, method: 'POST' }),
    }),
    getAttendanceQuickReplies: build.query<QuickReply[], void>({
      query: () => '/fastreply',
    }),
  }),
});

export const {
  useGetMessagesQuery,
  useSendMessageMutation,
  useRetryMessageMutation,
  useGetAttendanceQuickRepliesQuery,
  useLazyGetAttendanceQuickRepliesQuery,
} = messagesApi;
