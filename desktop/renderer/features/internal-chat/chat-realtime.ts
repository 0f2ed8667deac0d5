import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import {
  CHAT_SOCKET_EVENTS,
  INTERNAL_CHAT_PAGE_MAX,
  conversationOf,
  type ChatHistoryAnswer,
  type ChatMessageDto,
} from '@shared/schemas/internal-chat';
import { internalChatApi, patchChatHistory, type ChatConversationDto, type ConversationKey } from '../../api/internal-chat.api';
import type { AppDispatch, RootState } from '../../app/store';
import {
  applyNewMessageToList,
  applyOwnRead,
  applyPresence,
  applyReadReceipt,
  applyReadState,
  applyUpdateToList,
  conversationKey,
  patchMessage,
  presenceOf,
  sameConversation,
  upsertMessage,
  type ConversationRef,
} from './chat-cache';
import { announceChatMessage, windowIsAttentive } from './chat-notify';
import { typingState } from './typing-state';

/**
 * The internal chat's socket events, applied to the cached conversations, histories and unread
 * total (no refetch), wherever the user is in the app: `chat:privateMessage`, `chat:messageUpdate`,
 * `chat:read`, `chat:typing`, `user:status` (presence dots), and `team:*` (rooms joined or left).
 * A message for a conversation the user is reading in a focused window is marked read at once;
 * otherwise it counts as unread and, with the window in the background, is announced.
 */

/** Sent outside the seq stream (not domain events): the realtime client hands them over by name. */
export const CHAT_VOLATILE_EVENTS = [CHAT_SOCKET_EVENTS.typing] as const;

let open: ConversationRef | null = null;

/** The conversation on screen (null when the screen is closed or shows none). */
export function setOpenConversation(ref: ConversationRef | null): void {
  open = ref;
}

export const openConversation = (): ConversationRef | null => open;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isMessage = (value: unknown): value is ChatMessageDto =>
  isRecord(value) &&
  typeof value.id === 'number' &&
  (value.kind === 'user' || value.kind === 'team') &&
  typeof value.fromUserId === 'number';

const isKind = (value: unknown): value is 'user' | 'team' => value === 'user' || value === 'team';

function cachedConversations(state: RootState): ChatConversationDto[] | undefined {
  return internalChatApi.endpoints.chatConversations.select()(state).data;
}

/** What the realtime module needs besides the store (replaced in tests). */
export interface ChatRealtimeEnv {
  attentive(): boolean;
  markRead(dispatch: AppDispatch, ref: ConversationKey): void;
  announce(message: ChatMessageDto, conversationName: string | null, viewerId: number): void;
}

const defaultEnv: ChatRealtimeEnv = {
  attentive: () => windowIsAttentive(),
  markRead: (dispatch, ref) => void dispatch(internalChatApi.endpoints.markChatRead.initiate(ref)),
  announce: (message, name, viewerId) => void announceChatMessage(message, name, viewerId),
};

/** Returns true when the event was the chat's own (user:status and team events go on to the other handlers too). */
export function applyInternalChatEvent(
  dispatch: AppDispatch,
  getState: () => RootState,
  event: Pick<DomainEventEnvelope, 'name' | 'payload'>,
  env: ChatRealtimeEnv = defaultEnv,
): boolean {
  const payload = isRecord(event.payload) ? event.payload : {};
  const viewerId = getState().session.userId;
  switch (event.name) {
    case SOCKET_EVENTS.privateMessage:
      if (viewerId !== null && isMessage(payload.message)) receiveMessage(dispatch, getState, payload.message, viewerId, env);
      return true;
    case CHAT_SOCKET_EVENTS.messageUpdate:
      if (viewerId !== null && isMessage(payload.message)) updateMessage(dispatch, payload.message, viewerId);
      return true;
    case CHAT_SOCKET_EVENTS.read:
      if (viewerId !== null) readConversation(dispatch, getState, payload, viewerId);
      return true;
    case CHAT_SOCKET_EVENTS.typing:
      if (viewerId !== null) applyTyping(payload, viewerId);
      return true;
    case SOCKET_EVENTS.userStatus: {
      const presence = presenceOf(payload);
      if (typeof payload.userId === 'number' && presence) {
        const userId = payload.userId;
        dispatch(
          internalChatApi.util.updateQueryData(
            'chatConversations',
            undefined,
            (draft) => void applyPresence(draft, userId, presence),
          ),
        );
      }
      return false;
    }
    case SOCKET_EVENTS.teamUpdate:
    case SOCKET_EVENTS.teamDelete:
      // A room joined, left, renamed or removed: the list is read again (who is a member is the server's).
      dispatch(internalChatApi.util.invalidateTags(['ChatConversation', 'ChatUnread']));
      return false;
    default:
      return false;
  }
}

function receiveMessage(
  dispatch: AppDispatch,
  getState: () => RootState,
  message: ChatMessageDto,
  viewerId: number,
  env: ChatRealtimeEnv,
) {
  const ref = conversationOf(message, viewerId);
  const fromOther = message.fromUserId !== viewerId;
  const readingNow = sameConversation(open, ref) && env.attentive();
  typingState.stopped(ref, message.fromUserId);

  patchChatHistory(dispatch, ref, (draft) => upsertMessage(draft, message));

  const state = getState();
  const list = cachedConversations(state);
  let known = false;
  dispatch(
    internalChatApi.util.updateQueryData('chatConversations', undefined, (draft) => {
      known = applyNewMessageToList(draft, message, viewerId, readingNow);
    }),
  );
  if (list && !known) dispatch(internalChatApi.util.invalidateTags(['ChatConversation']));

  if (!fromOther) return;
  if (readingNow) {
    env.markRead(dispatch, ref);
    return;
  }
  dispatch(internalChatApi.util.updateQueryData('chatUnreadCount', undefined, (draft) => void (draft.count += 1)));
  if (!env.attentive()) {
    const name = list?.find((c) => c.kind === ref.kind && c.id === ref.id)?.name ?? null;
    env.announce(message, name, viewerId);
  }
}

function updateMessage(dispatch: AppDispatch, message: ChatMessageDto, viewerId: number) {
  const ref = conversationOf(message, viewerId);
  patchChatHistory(dispatch, ref, (draft) => void patchMessage(draft, message));
  dispatch(
    internalChatApi.util.updateQueryData('chatConversations', undefined, (draft) => applyUpdateToList(draft, message, viewerId)),
  );
}

/**
 * `chat:read` {kind, id, userId, lastReadId} ({kind, id} as the viewer names the conversation):
 * the viewer read it elsewhere (another tab, the desktop) or marked it unread, or someone else
 * read the viewer's messages (✓✓ in a one-to-one; "read by N" in a room, read again from the
 * server because who had read what before is not known here).
 */
function readConversation(dispatch: AppDispatch, getState: () => RootState, payload: Record<string, unknown>, viewerId: number) {
  const { kind, id, userId, lastReadId } = payload;
  if (!isKind(kind) || typeof id !== 'number' || typeof userId !== 'number' || typeof lastReadId !== 'number') return;
  const ref: ConversationKey = { kind, id };
  if (userId === viewerId) {
    let settled = false;
    dispatch(
      internalChatApi.util.updateQueryData('chatConversations', undefined, (draft) => {
        settled = applyOwnRead(draft, ref, lastReadId);
      }),
    );
    dispatch(internalChatApi.util.invalidateTags(settled ? ['ChatUnread'] : ['ChatUnread', 'ChatConversation']));
    return;
  }
  if (kind === 'user') {
    patchChatHistory(dispatch, ref, (draft) => void applyReadReceipt(draft, viewerId, lastReadId));
    return;
  }
  scheduleReadStateRefresh(dispatch, getState, ref);
}

/** A room's read counts are asked again at most this often (members read in bursts). */
export const READ_STATE_REFRESH_MS = 1500;
const pendingReadRefresh = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleReadStateRefresh(dispatch: AppDispatch, getState: () => RootState, ref: ConversationKey) {
  const key = conversationKey(ref);
  if (pendingReadRefresh.has(key)) return;
  pendingReadRefresh.set(
    key,
    setTimeout(() => {
      pendingReadRefresh.delete(key);
      const cached = internalChatApi.endpoints.chatHistory.select(ref)(getState()).data;
      if (!cached?.messages.some((m) => m.fromUserId === getState().session.userId)) return;
      const limit = Math.min(INTERNAL_CHAT_PAGE_MAX, cached.messages.length);
      void dispatch(internalChatApi.endpoints.chatReadState.initiate({ ...ref, limit }, { subscribe: false, forceRefetch: true }))
        .unwrap()
        .then((fresh) =>
          dispatch(
            internalChatApi.util.updateQueryData(
              'chatHistory',
              ref,
              (draft: ChatHistoryAnswer) => void applyReadState(draft, fresh.messages),
            ),
          ),
        )
        .catch(() => undefined);
    }, READ_STATE_REFRESH_MS),
  );
}

function applyTyping(payload: Record<string, unknown>, viewerId: number) {
  const { kind, id, userId, userName } = payload;
  if (!isKind(kind) || typeof id !== 'number' || typeof userId !== 'number' || userId === viewerId) return;
  const ref: ConversationRef = kind === 'team' ? { kind, id } : { kind: 'user', id: userId };
  typingState.typing(ref, userId, typeof userName === 'string' && userName ? userName : '…');
}
