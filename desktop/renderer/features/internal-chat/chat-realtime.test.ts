import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { ChatHistoryAnswer, ChatMessageDto } from '@shared/schemas/internal-chat';
import { baseApi } from '../../api/base.api';
import { internalChatApi, type ConversationKey } from '../../api/internal-chat.api';
import type { AppDispatch, RootState } from '../../app/store';
import { sessionReducer, sessionStarted } from '../../app/session/session.slice';
import { applyInternalChatEvent, setOpenConversation, type ChatRealtimeEnv } from './chat-realtime';
import { VIEWER, chatMessage, conversation } from './chat-test-data';
import { typingState } from './typing-state';

/** Socket events patch the chat's caches in place: no request leaves the client (marks of read go through env). */
async function setup({ attentive = true } = {}) {
  const store = configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer, session: sessionReducer },
    middleware: (getDefault) => getDefault({ serializableCheck: false, immutableCheck: false }).concat(baseApi.middleware),
  });
  store.dispatch(
    sessionStarted({ token: 't', username: 'Eu', profile: 'user', userId: VIEWER, tenantId: 1, email: null, isDark: false }),
  );
  const dispatch = store.dispatch as unknown as AppDispatch;
  const getState = store.getState as unknown as () => RootState;
  await dispatch(
    internalChatApi.util.upsertQueryData('chatConversations', undefined, [conversation('user', 2), conversation('team', 7)]),
  );
  await dispatch(internalChatApi.util.upsertQueryData('chatUnreadCount', undefined, { count: 0 }));
  await dispatch(
    internalChatApi.util.upsertQueryData('chatHistory', { kind: 'user', id: 2 }, { messages: [chatMessage(1)], hasMore: false }),
  );
  const announced: [ChatMessageDto, string | null][] = [];
  const marked: ConversationKey[] = [];
  const env: ChatRealtimeEnv = {
    attentive: () => attentive,
    markRead: (_dispatch, ref) => marked.push(ref),
    announce: (message, name) => announced.push([message, name]),
  };
  const apply = (name: string, payload: unknown) => applyInternalChatEvent(dispatch, getState, { name, payload }, env);
  const state = () => ({
    list: internalChatApi.endpoints.chatConversations.select()(getState()).data!,
    // Undefined once invalidated (nothing subscribes to it here, so it is dropped, not refetched).
    get count() {
      return internalChatApi.endpoints.chatUnreadCount.select()(getState()).data?.count;
    },
    history: (ref: ConversationKey) => internalChatApi.endpoints.chatHistory.select(ref)(getState()).data as ChatHistoryAnswer,
  });
  return { apply, state, announced, marked, dispatch, getState };
}

const fromAna = (id: number, over: Partial<ChatMessageDto> = {}) =>
  chatMessage(id, { fromUserId: 2, fromUserName: 'Ana', toId: VIEWER, createdAt: new Date().toISOString(), ...over });

afterEach(() => {
  setOpenConversation(null);
  typingState.clear();
});

describe('internal chat events', () => {
  it('a colleague\u2019s message in the background: appended, counted in the conversation and the menu, announced', async () => {
    const { apply, state, announced, marked } = await setup({ attentive: false });
    setOpenConversation({ kind: 'user', id: 2 });
    expect(apply(SOCKET_EVENTS.privateMessage, { message: fromAna(5) })).toBe(true);
    expect(
      state()
        .history({ kind: 'user', id: 2 })
        .messages.map((m) => m.id),
    ).toEqual([1, 5]);
    expect(state().list.find((c) => c.kind === 'user')).toMatchObject({ unread: 1, lastMessage: { id: 5 } });
    expect(state().count).toBe(1);
    expect(announced).toEqual([[expect.objectContaining({ id: 5 }), 'Colega 2']]);
    expect(marked).toEqual([]);
  });

  it('a message in the conversation the user is reading in a focused window is read at once, not counted, not announced', async () => {
    const { apply, state, announced, marked } = await setup({ attentive: true });
    setOpenConversation({ kind: 'user', id: 2 });
    apply(SOCKET_EVENTS.privateMessage, { message: fromAna(5) });
    expect(marked).toEqual([{ kind: 'user', id: 2 }]);
    expect(state().list.find((c) => c.kind === 'user')?.unread).toBe(0);
    expect(state().count).toBe(0);
    expect(announced).toEqual([]);
  });

  it('another conversation\u2019s message counts even with the window focused, and is not announced', async () => {
    const { apply, state, announced } = await setup({ attentive: true });
    setOpenConversation({ kind: 'user', id: 2 });
    apply(SOCKET_EVENTS.privateMessage, { message: fromAna(6, { kind: 'team', toId: 7, fromUserId: 3, fromUserName: 'Bruno' }) });
    expect(state().list.find((c) => c.kind === 'team')?.unread).toBe(1);
    expect(state().count).toBe(1);
    expect(announced).toEqual([]);
  });

  it('the viewer\u2019s own message (another tab) is appended but never counted', async () => {
    const { apply, state } = await setup({ attentive: false });
    apply(SOCKET_EVENTS.privateMessage, { message: chatMessage(8, { createdAt: new Date().toISOString() }) });
    expect(
      state()
        .history({ kind: 'user', id: 2 })
        .messages.map((m) => m.id),
    ).toEqual([1, 8]);
    expect(state().count).toBe(0);
  });

  it('an edit patches the loaded copy and the preview', async () => {
    const { apply, state } = await setup();
    apply(SOCKET_EVENTS.privateMessage, { message: fromAna(5) });
    apply('chat:messageUpdate', { message: fromAna(5, { body: 'corrigido', editedAt: new Date().toISOString() }) });
    const history = state().history({ kind: 'user', id: 2 });
    expect(history.messages.find((m) => m.id === 5)?.body).toBe('corrigido');
    expect(state().list.find((c) => c.kind === 'user')?.lastMessage?.body).toBe('corrigido');
  });

  it('the other user\u2019s chat:read gives the double tick; the viewer\u2019s own read elsewhere clears the count', async () => {
    const { apply, state } = await setup({ attentive: false });
    apply('chat:read', { kind: 'user', id: 2, userId: 2, lastReadId: 1 });
    expect(state().history({ kind: 'user', id: 2 }).messages[0].read).toBe(true);
    apply(SOCKET_EVENTS.privateMessage, { message: fromAna(5) });
    expect(state().list.find((c) => c.kind === 'user')?.unread).toBe(1);
    apply('chat:read', { kind: 'user', id: 2, userId: VIEWER, lastReadId: 5 });
    expect(state().list.find((c) => c.kind === 'user')?.unread).toBe(0);
    // The menu's total is asked again (the server knows the other conversations).
    expect(state().count).toBeUndefined();
  });

  it('chat:typing shows the colleague in their conversation until their message arrives', async () => {
    const { apply } = await setup();
    apply('chat:typing', { kind: 'user', id: 2, userId: 2, userName: 'Ana' });
    apply('chat:typing', { kind: 'team', id: 7, userId: 3, userName: 'Bruno' });
    apply('chat:typing', { kind: 'user', id: VIEWER, userId: VIEWER, userName: 'Eu' });
    expect(typingState.namesIn({ kind: 'user', id: 2 })).toEqual(['Ana']);
    expect(typingState.namesIn({ kind: 'team', id: 7 })).toEqual(['Bruno']);
    apply(SOCKET_EVENTS.privateMessage, { message: fromAna(5) });
    expect(typingState.namesIn({ kind: 'user', id: 2 })).toEqual([]);
  });

  it('user:status moves the presence dot and lets the users\u2019 handlers run too', async () => {
    const { apply, state } = await setup();
    expect(apply(SOCKET_EVENTS.userStatus, { userId: 2, isOnline: true })).toBe(false);
    expect(state().list.find((c) => c.kind === 'user')?.presence).toBe('online');
  });

  it('ignores malformed payloads', async () => {
    const { apply, state } = await setup({ attentive: false });
    const before = state().list;
    apply(SOCKET_EVENTS.privateMessage, { message: { id: 'x' } });
    apply('chat:read', { kind: 'group', id: 2, userId: 2, lastReadId: 1 });
    apply('chat:typing', { kind: 'user' });
    expect(state().list).toBe(before);
    expect(state().count).toBe(0);
    expect(apply('ticket:update', {})).toBe(false);
  });

  it('a change during a history read is applied again to its answer', async () => {
    const { apply, state, dispatch } = await setup({ attentive: false });
    let answer!: (body: unknown) => void;
    const fetchMock = vi.fn(
      () =>
        new Promise<Response>(
          (resolve) =>
            (answer = (body) => resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }))),
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    // An absolute API address (the desktop's default) for the request built outside a page.
    vi.stubGlobal('location', { protocol: 'file:' });
    try {
      const read = dispatch(internalChatApi.endpoints.chatHistory.initiate({ kind: 'team', id: 7 }));
      await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
      // The message arrives while the read is under way; the answer was computed before it.
      apply(SOCKET_EVENTS.privateMessage, { message: fromAna(9, { kind: 'team', toId: 7 }) });
      answer({ messages: [fromAna(3, { kind: 'team', toId: 7 })], hasMore: false });
      await read;
      await vi.waitFor(() =>
        expect(
          state()
            .history({ kind: 'team', id: 7 })
            .messages.map((m) => m.id),
        ).toEqual([3, 9]),
      );
      read.unsubscribe();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
