import { z } from 'zod';
import { recordIdSchema } from './record-id';

/**
 * Internal chat (/chat-privado; spec sections 1, 2, 7 and 9; issue #18): one-to-one conversations
 * between users of a tenant and team rooms (a team's members). Anchor paths: `/chat-interno/*`.
 *
 * A conversation is named by `{kind, id}`: `kind: 'user'` with the other user's id, or
 * `kind: 'team'` with the team's id. History is paged by keyset (newest first, `before` = the
 * oldest message id on screen), like ticket messages.
 *
 * This file is the contract between the server (server/src/modules/internal-chat) and the screen
 * (desktop/renderer/features/internal-chat); docs/api.md describes the routes and events.
 */

export const CHAT_KINDS = ['user', 'team'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/** Spec section 9: the internal-chat message limit is configurable (tenant setting `internalChatMessageMax`); this is the default and the ceiling. */
export const INTERNAL_CHAT_MESSAGE_MAX_DEFAULT = 4000;
export const INTERNAL_CHAT_MESSAGE_MAX_CEILING = 20000;
export const INTERNAL_CHAT_PAGE_SIZE = 50;
export const INTERNAL_CHAT_PAGE_MAX = 200;
export const INTERNAL_CHAT_SEARCH_MIN_CHARS = 2;
/** A typing indicator shows for this long after the last `chat:typing` received. */
export const INTERNAL_CHAT_TYPING_TTL_MS = 5000;

/** Error codes (section 8 style) of the internal chat. */
export const INTERNAL_CHAT_ERRORS = {
  /** The other user is not of the tenant, or the team does not exist / the caller is not a member. */
  conversationNotFound: { code: 'ERR_CHAT_CONVERSATION_NOT_FOUND', message: 'Conversa não encontrada.' },
  messageNotFound: { code: 'ERR_CHAT_MESSAGE_NOT_FOUND', message: 'Mensagem não encontrada.' },
  /** Editing or deleting a message of someone else, or one already deleted. */
  notOwnMessage: { code: 'ERR_CHAT_NOT_OWN_MESSAGE', message: 'Só é possível alterar as próprias mensagens.' },
  messageDeleted: { code: 'ERR_CHAT_MESSAGE_DELETED', message: 'Mensagem apagada.' },
  /** Text longer than the tenant's limit: the text names the limit. */
  tooLong: { code: 'ERR_CHAT_MESSAGE_TOO_LONG', message: 'Mensagem maior que o limite de {max} caracteres.' },
  /** Neither text nor a file. */
  empty: { code: 'ERR_CHAT_MESSAGE_EMPTY', message: 'Digite uma mensagem ou anexe um arquivo.' },
  selfConversation: { code: 'ERR_CHAT_SELF', message: 'Não é possível conversar consigo mesmo.' },
} as const;

/** Presence (issue #18 part 4): online, away (idle per section 9's counter) or offline. */
export const PRESENCE_STATES = ['online', 'away', 'offline'] as const;
export type Presence = (typeof PRESENCE_STATES)[number];

const kind = z.enum(CHAT_KINDS, { error: "deve ser 'user' ou 'team'" });
const optionalId = z.preprocess((v) => (v === '' || v === undefined ? undefined : v), recordIdSchema().optional());

/** The text of a message: trimmed at the ends only by the client; the server checks the tenant's limit (not here). */
const body = z.string({ error: 'deve ser um texto' }).max(INTERNAL_CHAT_MESSAGE_MAX_CEILING, {
  error: `no máximo ${INTERNAL_CHAT_MESSAGE_MAX_CEILING} caracteres`,
});

/**
 * POST /chat-interno/mensagens (JSON, or multipart with the file in `medias` and these fields as
 * text): to a user (`kind: 'user', id: userId`) or a team room. `clientId` makes a retry store
 * the message once. `ticketId` links a ticket of the tenant (the message shows a link that
 * opens it). `@Name` mentions of members notify them (the bell, kind 'mention').
 */
export const SendChatMessageSchema = z.strictObject({
  kind,
  id: recordIdSchema(),
  body: body.optional().default(''),
  replyToId: optionalId,
  ticketId: optionalId,
  clientId: z.string().trim().min(1).max(64).optional(),
});
export type SendChatMessageInput = z.infer<typeof SendChatMessageSchema>;

/** PUT /chat-interno/mensagens/{messageId}/edit */
export const EditChatMessageSchema = z.strictObject({ body: body.trim().min(1, { error: INTERNAL_CHAT_ERRORS.empty.message }) });
export type EditChatMessageInput = z.infer<typeof EditChatMessageSchema>;

/** GET /chat-interno/mensagens/{id}?kind=user|team&before=&limit= */
export const ChatHistoryQuerySchema = z.strictObject({
  kind: kind.optional().default('user'),
  before: optionalId,
  limit: z.coerce.number().int().min(1).max(INTERNAL_CHAT_PAGE_MAX).optional().default(INTERNAL_CHAT_PAGE_SIZE),
});

/** PUT /chat-interno/mensagens/{id} (anchor: mark the conversation read), body `{kind}`; `kind` may also come in the query. */
export const MarkChatReadSchema = z.strictObject({ kind: kind.optional().default('user') });

/** GET /chat-interno/search?q= : the caller's conversations' messages containing `q` (case and accent insensitive). */
export const ChatSearchQuerySchema = z.strictObject({
  q: z.string().trim().min(INTERNAL_CHAT_SEARCH_MIN_CHARS, { error: `digite ao menos ${INTERNAL_CHAT_SEARCH_MIN_CHARS} letras` }).max(100),
  limit: z.coerce.number().int().min(1).max(100).optional().default(30),
});

export interface ChatMessageDto {
  id: number;
  /** The conversation as the RECEIVER names it is not the same as the sender's: see `conversationOf`. */
  kind: ChatKind;
  /** user kind: the receiver's user id; team kind: the team id. */
  toId: number;
  fromUserId: number;
  fromUserName: string;
  body: string;
  /** Private media URL (served with the session, like ticket media), or null. */
  mediaUrl: string | null;
  mediaName: string | null;
  mimeType: string | null;
  replyTo: { id: number; body: string; fromUserName: string; deleted: boolean } | null;
  ticketId: number | null;
  clientId: string | null;
  editedAt: string | null;
  /** Deleted messages stay in the history as "Mensagem apagada" (body '' and no media). */
  deletedAt: string | null;
  createdAt: string;
  /** user kind: whether the receiver has read it (read receipt). team kind: whether every current member but the sender has. */
  read: boolean;
  /** How many users of the conversation other than the sender read it (user kind: 0 or 1; team kind: current members). */
  readCount: number;
}

/** How a message's conversation is named for a given viewer: the other user for a one-to-one, the team for a room. */
export function conversationOf(message: Pick<ChatMessageDto, 'kind' | 'toId' | 'fromUserId'>, viewerId: number): { kind: ChatKind; id: number } {
  if (message.kind === 'team') return { kind: 'team', id: message.toId };
  return { kind: 'user', id: message.fromUserId === viewerId ? message.toId : message.fromUserId };
}

/** GET /chat-interno/conversations: every colleague and every team room of the caller, with the last message and unread count. */
export interface ChatConversationDto {
  kind: ChatKind;
  id: number;
  name: string;
  /** user kind: the colleague's presence; team kind: null. */
  presence: Presence | null;
  lastMessage: Pick<ChatMessageDto, 'id' | 'body' | 'fromUserId' | 'fromUserName' | 'createdAt' | 'deletedAt' | 'mediaName'> | null;
  unread: number;
  /** team kind: member count; user kind: null. */
  members: number | null;
}

export interface ChatHistoryAnswer {
  messages: ChatMessageDto[];
  /** Whether older messages exist (ask again with before = the oldest id). */
  hasMore: boolean;
}

/** GET /chat-interno/count/mensagens */
export interface ChatUnreadCount {
  count: number;
}

/**
 * Socket events (server -> client), to the users of the conversation only (both users of a
 * one-to-one; the team's current members for a room):
 *  - `chat:privateMessage` {message: ChatMessageDto} — a new message (SOCKET_EVENTS.privateMessage);
 *  - `chat:messageUpdate` {message: ChatMessageDto} — edited, deleted, or its read state changed;
 *  - `chat:read` {kind, id, userId, lastReadId} — `userId` read the conversation up to lastReadId;
 *  - `chat:typing` {kind, id, userId, userName} — relayed from a client's `chat:typing` {kind, id};
 *  - `user:status` {userId, isOnline, presence} — presence change, to the tenant.
 * Client -> server: `chat:typing` {kind, id}; `user:presence` {presence: 'online'|'away'}.
 */
export const CHAT_SOCKET_EVENTS = {
  messageUpdate: 'chat:messageUpdate',
  read: 'chat:read',
  typing: 'chat:typing',
  presence: 'user:presence',
} as const;

/** One file per message: a send with more files in `medias` is refused (ERR_VALIDATION, nothing stored). */
export const INTERNAL_CHAT_MAX_FILES = 1;

/** Where a message's file is served (with the session, to the conversation's users only). */
export const chatMediaUrlOf = (messageId: number): string => `/chat-interno/media/${messageId}`;

/** Payload of `chat:privateMessage` and `chat:messageUpdate`. */
export interface ChatMessageEventPayload {
  message: ChatMessageDto;
}

/**
 * Payload of `chat:read`: `userId` read the conversation up to `lastReadId` (or marked it unread
 * from `lastReadId + 1`). `{kind, id}` names the conversation as the RECIPIENT of the event names
 * it: for a one-to-one, the reader's own sockets get `id` = the other user and the other user's
 * sockets get `id` = the reader (= `userId`); for a team, the team.
 */
export interface ChatReadEventPayload {
  kind: ChatKind;
  id: number;
  userId: number;
  lastReadId: number;
}

/** Answer of PUT /chat-interno/mensagens/{id} (read) and PUT .../{messageId}/nao-lida: the caller's read state of that conversation. */
export interface ChatReadStateDto extends ChatReadEventPayload {
  /** The conversation's unread messages for the caller after the change. */
  unread: number;
}

/** Client -> server `chat:typing` (also accepted as `<tenantId>:chat:typing`). */
export const ChatTypingSchema = z.strictObject({ kind, id: recordIdSchema() });
export type ChatTypingInput = z.infer<typeof ChatTypingSchema>;

/**
 * Server -> client `chat:typing` (also sent as `<tenantId>:chat:typing`; not a domain event: no
 * seq, not replayed by /sync), to the conversation's other user(s) only. `{kind, id}` is the
 * conversation as the recipient names it (for a one-to-one, `id` = the typing user).
 */
export interface ChatTypingPayload {
  kind: ChatKind;
  id: number;
  userId: number;
  userName: string;
}
