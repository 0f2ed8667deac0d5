import type {
  ChatConversationDto,
  ChatHistoryAnswer,
  ChatKind,
  ChatMessageDto,
  ChatUnreadCount,
} from '@shared/schemas/internal-chat';
import type { AppDispatch } from '../app/store';
import { baseApi } from './base.api';

/**
 * Internal chat (/chat-privado; issue #18; docs/api.md "Internal chat"): the caller's conversations
 * (colleagues and team rooms), a conversation's history paged by keyset, send (JSON or multipart
 * with a file), edit, delete, mark read, search and the unread total of the menu's badge.
 *
 * The history cache of a conversation holds its messages oldest first; older pages are read with
 * `chatHistoryPage` and prepended to it (features/internal-chat/chat-cache.ts), and the socket's
 * events patch it (features/internal-chat/chat-realtime.ts).
 */
export type { ChatConversationDto, ChatMessageDto };

export interface ConversationKey {
  kind: ChatKind;
  id: number;
}

export interface ChatSendArgs extends ConversationKey {
  body: string;
  clientId: string;
  replyToId?: number;
  ticketId?: number;
  file?: File | null;
}

export interface ChatSearchHit {
  message: ChatMessageDto;
}

/** Newest page first from the server; kept oldest first on screen and in the cache. */
export const sortHistory = (answer: ChatHistoryAnswer): ChatHistoryAnswer => ({
  messages: [...answer.messages].sort((a, b) => a.id - b.id),
  hasMore: answer.hasMore,
});

const historyTag = ({ kind, id }: ConversationKey) => ({ type: 'ChatHistory' as const, id: `${kind}:${id}` });

type HistoryRecipe = (draft: ChatHistoryAnswer) => void;

/**
 * Changes (a message sent or received, edited, read) that reach a conversation while its history
 * is being read: the answer may have been computed before them, so they are applied again to it.
 * Every recipe is idempotent (upsert by id, receipts only forward).
 */
const readsInFlight = new Map<string, number>();
const lateChanges = new Map<string, HistoryRecipe[]>();
const keyOf = ({ kind, id }: ConversationKey) => `${kind}:${id}`;

/** Patches a conversation's cached history, now and again once a read under way answers. */
export function patchChatHistory(dispatch: AppDispatch, ref: ConversationKey, recipe: HistoryRecipe): void {
  const key = keyOf(ref);
  if (readsInFlight.get(key)) lateChanges.set(key, [...(lateChanges.get(key) ?? []), recipe]);
  dispatch(internalChatApi.util.updateQueryData('chatHistory', { kind: ref.kind, id: ref.id }, recipe));
}

export const internalChatApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    chatConversations: build.query<ChatConversationDto[], void>({
      query: () => '/chat-interno/conversations',
      providesTags: ['ChatConversation'],
    }),
    /** The newest page of a conversation (the cache entry the screen shows and the socket patches). */
    chatHistory: build.query<ChatHistoryAnswer, ConversationKey>({
      query: ({ kind, id }) => ({ url: `/chat-interno/mensagens/${id}`, params: { kind } }),
      transformResponse: sortHistory,
      providesTags: (_result, _error, key) => [historyTag(key)],
      async onQueryStarted(arg, { dispatch, queryFulfilled }) {
        const key = keyOf(arg);
        readsInFlight.set(key, (readsInFlight.get(key) ?? 0) + 1);
        try {
          await queryFulfilled;
          const late = lateChanges.get(key) ?? [];
          if (late.length)
            dispatch(
              internalChatApi.util.updateQueryData('chatHistory', arg, (draft) => late.forEach((recipe) => recipe(draft))),
            );
        } catch {
          // A failed read shows its error; nothing to apply to.
        } finally {
          const left = (readsInFlight.get(key) ?? 1) - 1;
          if (left > 0) readsInFlight.set(key, left);
          else {
            readsInFlight.delete(key);
            lateChanges.delete(key);
          }
        }
      },
    }),
    /** An older page (`before` = the oldest id on screen); merged into chatHistory by the caller. */
    chatHistoryPage: build.query<ChatHistoryAnswer, ConversationKey & { before: number }>({
      query: ({ kind, id, before }) => ({ url: `/chat-interno/mensagens/${id}`, params: { kind, before } }),
      transformResponse: sortHistory,
    }),
    /**
     * The newest `limit` messages again, read in the background for their read state only: a
     * room's "read by N" after a member's `chat:read` (who had read what before is the server's).
     */
    chatReadState: build.query<ChatHistoryAnswer, ConversationKey & { limit: number }>({
      query: ({ kind, id, limit }) => ({ url: `/chat-interno/mensagens/${id}`, params: { kind, limit } }),
      extraOptions: { background: true },
    }),
    chatUnreadCount: build.query<ChatUnreadCount, void>({
      query: () => '/chat-interno/count/mensagens',
      providesTags: ['ChatUnread'],
      extraOptions: { background: true },
    }),
    chatSearch: build.query<ChatMessageDto[], string>({
      query: (q) => ({ url: '/chat-interno/search', params: { q } }),
      // The route answers the messages (or {messages}): both are read as the list.
      transformResponse: (answer: ChatMessageDto[] | { messages: ChatMessageDto[] }) =>
        Array.isArray(answer) ? answer : answer.messages,
    }),
    sendChatMessage: build.mutation<ChatMessageDto, ChatSendArgs>({
      query: ({ kind, id, body, clientId, replyToId, ticketId, file }) => {
        const optional = { ...(replyToId ? { replyToId } : {}), ...(ticketId ? { ticketId } : {}) };
        if (!file) return { url: '/chat-interno/mensagens', method: 'POST', body: { kind, id, body, clientId, ...optional } };
        const form = new FormData();
        form.append('kind', kind);
        form.append('id', String(id));
        form.append('body', body);
        form.append('clientId', clientId);
        for (const [key, value] of Object.entries(optional)) form.append(key, String(value));
        form.append('medias', file, file.name);
        return { url: '/chat-interno/mensagens', method: 'POST', body: form };
      },
      transformResponse: (answer: ChatMessageDto | { message: ChatMessageDto }) =>
        'message' in answer ? answer.message : answer,
    }),
    editChatMessage: build.mutation<ChatMessageDto, { messageId: number; body: string }>({
      query: ({ messageId, body }) => ({ url: `/chat-interno/mensagens/${messageId}/edit`, method: 'PUT', body: { body } }),
      transformResponse: (answer: ChatMessageDto | { message: ChatMessageDto }) =>
        'message' in answer ? answer.message : answer,
    }),
    deleteChatMessage: build.mutation<ChatMessageDto | null, number>({
      query: (messageId) => ({ url: `/chat-interno/mensagens/${messageId}`, method: 'DELETE' }),
      transformResponse: (answer: ChatMessageDto | { message: ChatMessageDto } | null) =>
        answer && typeof answer === 'object' && 'message' in answer ? answer.message : (answer ?? null),
    }),
    /** Marks the conversation read (anchor: PUT /chat-interno/mensagens/{id}); the unread total follows. */
    markChatRead: build.mutation<unknown, ConversationKey>({
      query: ({ kind, id }) => ({ url: `/chat-interno/mensagens/${id}`, method: 'PUT', body: { kind } }),
      extraOptions: { background: true },
      invalidatesTags: ['ChatUnread'],
    }),
  }),
});

export const {
  useChatConversationsQuery,
  useChatHistoryQuery,
  useChatUnreadCountQuery,
  useChatSearchQuery,
  useSendChatMessageMutation,
  useEditChatMessageMutation,
  useDeleteChatMessageMutation,
  useMarkChatReadMutation,
} = internalChatApi;
