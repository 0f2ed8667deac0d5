import { unmodifiedRows } from '../features/attendance/draft-read';
import { upsertMessage } from '../features/attendance/message-display';
import type { MessagingWindowDto, SendTemplateInput, StoredTemplateDto } from '@shared/schemas/templates';
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
  flags?: { undelivered?: boolean; retryPending?: boolean; unconfirmed?: boolean; edited?: boolean; deleted?: boolean; scheduled?: boolean; private?: boolean };
  quotedMsgId?: number | null;
  quotedMsg?: QuotedMessage | null;
  reactions?: MessageReaction[];
  scheduleDate?: string | null;
  schedule?: { recurrenceDays: number; repetitions: number; occurrence: number } | null;
  buttons?: { id: string; title: string }[] | null;
  timestamp: number | null;
  createdAt: string;
  updatedAt?: string;
}

export interface QuotedMessage {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaName: string | null;
  isDeleted: boolean;
}

export interface MessageReaction {
  emoji: string;
  fromMe: boolean;
  userId?: number | null;
  contactId?: number | null;
  timestamp?: number | null;
}

export interface MessageSearchResult {
  messages: Message[];
  count: number;
  hasMore: boolean;
  fromCache?: boolean;
}

export interface ForwardResult {
  ticketId: number;
  messages: Message[];
}

export interface ScheduleMessageBody {
  ticketId: number;
  body: string;
  /** ISO 8601 with offset. */
  scheduleDate: string;
  recurrenceDays?: number;
  repetitions?: number;
  clientId?: string;
}

/** Puts messages the server answered with into the cached newest page of their ticket's thread. */
function patchThread(dispatch: (action: never) => unknown, messages: Message[]): void {
  const byTicket = new Map<number, Message[]>();
  for (const m of messages) byTicket.set(m.ticketId, [...(byTicket.get(m.ticketId) ?? []), m]);
  for (const [ticketId, list] of byTicket) {
    const action = messagesApi.util.updateQueryData('getMessages', { ticketId, before: null }, (draft: MessagePage) => {
      for (const m of list) upsertMessage(draft.messages, m);
    });
    (dispatch as (a: typeof action) => unknown)(action);
  }
}

const patchOnSuccess =
  <R>(pick: (result: R) => Message[]) =>
  async (_arg: unknown, { dispatch, queryFulfilled }: { dispatch: (action: never) => unknown; queryFulfilled: Promise<{ data: R }> }): Promise<void> => {
    try {
      const { data } = await queryFulfilled;
      const messages = (pick(data) ?? []).filter(Boolean);
      if (messages.length) patchThread(dispatch, messages);
    } catch {
      // The caller shows the refusal.
    }
  };

export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
  nextBefore: number | null;
  /** Read from the desktop's local cache while offline (issue #15): may be out of date. */
  fromCache?: boolean;
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
        const known = new Set(unmodifiedRows(current.messages).map((m) => m.id));
        for (const m of incoming.messages) if (!known.has(m.id)) current.messages.push(m);
        current.hasMore = incoming.hasMore;
        current.nextBefore = incoming.nextBefore;
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.before !== previousArg?.before,
      keepUnusedDataFor: 120,
      providesTags: ['Message'],
    }),
    sendMessage: build.mutation<
      SendResult,
      { ticketId: number; body: string; clientId: string; files?: File[]; quotedMsgId?: number | null }
    >({
      query: ({ ticketId, body, clientId, files, quotedMsgId }) => {
        const quoted = quotedMsgId ? { quotedMsgId } : {};
        if (!files?.length) return { url: `/messages/${ticketId}`, method: 'POST', body: { body, clientId, ...quoted } };
        const form = new FormData();
        if (body) form.append('body', body);
        form.append('clientId', clientId);
        if (quotedMsgId) form.append('quotedMsgId', String(quotedMsgId));
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
    sendButtons: build.mutation<SendResult, { ticketId: number; body: string; buttons: { title: string }[]; clientId: string }>({
      query: (body) => ({ url: '/sendButton', method: 'POST', body }),
      onQueryStarted: patchOnSuccess<SendResult>((r) => r.messages),
    }),
    getMessagingWindow: build.query<MessagingWindowDto, number>({
      query: (ticketId) => `/tickets/${ticketId}/messaging-window`,
    }),
    getTicketTemplates: build.query<StoredTemplateDto[], number>({
      query: (ticketId) => `/tickets/${ticketId}/templates`,
    }),
    sendTemplate: build.mutation<SendResult, { ticketId: number } & SendTemplateInput>({
      query: ({ ticketId, ...body }) => ({ url: `/messages/${ticketId}/template`, method: 'POST', body }),
      onQueryStarted: patchOnSuccess<SendResult>((r) => r.messages),
    }),
    scheduleMessage: build.mutation<Message, ScheduleMessageBody>({
      query: (body) => ({ url: '/messagesSchedule/', method: 'POST', body }),
      onQueryStarted: patchOnSuccess<Message>((m) => [m]),
    }),
    cancelScheduledMessage: build.mutation<Message, number>({
      query: (id) => ({ url: `/messagesSchedule/${id}`, method: 'DELETE' }),
      onQueryStarted: patchOnSuccess<Message>((m) => [m]),
    }),
    forwardMessages: build.mutation<ForwardResult, { messages: number[]; contactId: number }>({
      query: ({ messages, contactId }) => ({ url: '/forward-messages/', method: 'POST', body: { messages, contact: { id: contactId } } }),
      onQueryStarted: patchOnSuccess<ForwardResult>((r) => r.messages),
    }),
    editMessage: build.mutation<Message, { messageId: number; body: string }>({
      query: (body) => ({ url: '/messages/editMessage', method: 'POST', body }),
      onQueryStarted: patchOnSuccess<Message>((m) => [m]),
    }),
    deleteMessage: build.mutation<Message, { id: number; messageId?: string | null }>({
      query: (body) => ({ url: '/messages', method: 'DELETE', body }),
      onQueryStarted: patchOnSuccess<Message>((m) => [m]),
    }),
    reactToMessage: build.mutation<Message, { messageId: number; emoji: string }>({
      query: (body) => ({ url: '/messages/reactionMessage', method: 'POST', body }),
      onQueryStarted: patchOnSuccess<Message>((m) => [m]),
    }),
    sendGhostMessage: build.mutation<SendResult, { ticketId: number; body: string; clientId: string }>({
      query: (body) => ({ url: '/messages/ghostMessage', method: 'POST', body }),
      onQueryStarted: patchOnSuccess<SendResult>((r) => r.messages),
    }),
    sendMention: build.mutation<SendResult, { ticketId: number; body: string; mentions?: string[] }>({
      query: ({ mentions, ...body }) =>
        mentions?.length
          ? { url: '/messages/mentionMessage', method: 'POST', body: { ...body, mentions } }
          : { url: '/messages/mentionAllMessage', method: 'POST', body },
      onQueryStarted: patchOnSuccess<SendResult>((r) => r?.messages ?? []),
    }),
    searchMessages: build.query<MessageSearchResult, { ticketId: number; searchParam: string; pageNumber?: number }>({
      query: ({ ticketId, searchParam, pageNumber }) => ({ url: '/searchMessage', params: { ticketId, searchParam, pageNumber: pageNumber ?? 1 } }),
    }),
  }),
});

export const {
  useGetMessagesQuery,
  useSendMessageMutation,
  useRetryMessageMutation,
  useGetAttendanceQuickRepliesQuery,
  useLazyGetAttendanceQuickRepliesQuery,
  useSendButtonsMutation,
  useGetMessagingWindowQuery,
  useGetTicketTemplatesQuery,
  useSendTemplateMutation,
  useScheduleMessageMutation,
  useCancelScheduledMessageMutation,
  useForwardMessagesMutation,
  useEditMessageMutation,
  useDeleteMessageMutation,
  useReactToMessageMutation,
  useSendGhostMessageMutation,
  useSendMentionMutation,
  useLazySearchMessagesQuery,
} = messagesApi;
