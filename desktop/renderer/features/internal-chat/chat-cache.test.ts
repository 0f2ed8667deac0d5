import { describe, expect, it } from 'vitest';
import type { ChatHistoryAnswer } from '@shared/schemas/internal-chat';
import {
  applyNewMessageToList,
  applyOwnRead,
  applyPresence,
  applyReadReceipt,
  applyReadState,
  applyUpdateToList,
  conversationFromParams,
  conversationPath,
  filterByName,
  patchMessage,
  prependOlder,
  presenceOf,
  previewText,
  sortConversations,
  upsertMessage,
} from './chat-cache';
import { VIEWER, chatMessage, conversation } from './chat-test-data';

const history = (ids: number[], hasMore = false): ChatHistoryAnswer => ({ messages: ids.map((id) => chatMessage(id)), hasMore });
const ids = (h: ChatHistoryAnswer) => h.messages.map((m) => m.id);
const TEXTS = { you: 'Você', deleted: 'Mensagem apagada', file: 'Arquivo' };

describe('a conversation history in the cache', () => {
  it('adds a new message at its place and replaces a known copy by id or by the sender\u2019s client id', () => {
    const h = history([1, 3]);
    upsertMessage(h, chatMessage(2));
    upsertMessage(h, chatMessage(4));
    expect(ids(h)).toEqual([1, 2, 3, 4]);
    upsertMessage(h, chatMessage(3, { body: 'editada' }));
    expect(ids(h)).toEqual([1, 2, 3, 4]);
    expect(h.messages[2].body).toBe('editada');
    // The send's answer and the socket's copy of the same send: one message.
    const sent = history([1]);
    upsertMessage(sent, chatMessage(5, { clientId: 'c-1' }));
    upsertMessage(sent, chatMessage(5, { clientId: 'c-1', body: 'again' }));
    expect(ids(sent)).toEqual([1, 5]);
  });

  it('leaves a message older than the loaded window for its page', () => {
    const h = history([10, 11], true);
    upsertMessage(h, chatMessage(4));
    expect(ids(h)).toEqual([10, 11]);
  });

  it('keeps the read receipt when a send\u2019s answer arrives after it', () => {
    const h = history([1]);
    h.messages[0].read = true;
    h.messages[0].readCount = 1;
    upsertMessage(h, chatMessage(1));
    expect(h.messages[0]).toMatchObject({ read: true, readCount: 1 });
  });

  it('patches an edit or a delete, and the quotes of it in later replies', () => {
    const h = history([1]);
    upsertMessage(h, chatMessage(2, { replyTo: { id: 1, body: 'm1', fromUserName: 'Eu', deleted: false } }));
    expect(patchMessage(h, chatMessage(1, { body: '', deletedAt: '2026-01-01T13:00:00Z' }))).toBe(true);
    expect(h.messages[0].deletedAt).not.toBeNull();
    expect(h.messages[1].replyTo).toEqual({ id: 1, body: '', fromUserName: 'Eu', deleted: true });
    expect(patchMessage(h, chatMessage(99))).toBe(false);
    expect(ids(h)).toEqual([1, 2]);
  });

  it('puts an older page before the loaded messages without duplicates', () => {
    const h = history([5, 6], true);
    prependOlder(h, history([3, 4, 5], false));
    expect(ids(h)).toEqual([3, 4, 5, 6]);
    expect(h.hasMore).toBe(false);
  });

  it('gives the viewer\u2019s one-to-one messages up to the reader\u2019s mark the double tick, and no others', () => {
    const h: ChatHistoryAnswer = {
      messages: [chatMessage(1), chatMessage(2, { fromUserId: 2, toId: VIEWER }), chatMessage(3), chatMessage(4)],
      hasMore: false,
    };
    expect(applyReadReceipt(h, VIEWER, 3)).toBe(true);
    expect(h.messages.map((m) => m.read)).toEqual([true, false, true, false]);
    expect(applyReadReceipt(h, VIEWER, 3)).toBe(false);
  });

  it('takes a room\u2019s read counts from fresh copies', () => {
    const h: ChatHistoryAnswer = {
      messages: [chatMessage(1, { kind: 'team', toId: 7 }), chatMessage(2, { kind: 'team', toId: 7 })],
      hasMore: false,
    };
    expect(applyReadState(h, [chatMessage(2, { kind: 'team', toId: 7, readCount: 2 })])).toBe(true);
    expect(h.messages.map((m) => m.readCount)).toEqual([0, 2]);
    expect(applyReadState(h, [chatMessage(2, { kind: 'team', toId: 7, readCount: 2 })])).toBe(false);
  });
});

describe('the conversation list in the cache', () => {
  it('a colleague\u2019s message becomes the last one and counts as unread unless the viewer is reading it', () => {
    const list = [conversation('user', 2), conversation('team', 7)];
    const fromColleague = chatMessage(10, { fromUserId: 2, fromUserName: 'Colega 2', toId: VIEWER });
    expect(applyNewMessageToList(list, fromColleague, VIEWER, false)).toBe(true);
    expect(list[0]).toMatchObject({ unread: 1, lastMessage: { id: 10, fromUserName: 'Colega 2' } });
    expect(applyNewMessageToList(list, chatMessage(11, { fromUserId: 2, toId: VIEWER }), VIEWER, true)).toBe(true);
    expect(list[0].unread).toBe(1);
    expect(list[0].lastMessage?.id).toBe(11);
    // The viewer's own message (to user 2) never counts.
    applyNewMessageToList(list, chatMessage(12), VIEWER, false);
    expect(list[0].unread).toBe(1);
    // A room message goes to the room.
    applyNewMessageToList(list, chatMessage(13, { kind: 'team', toId: 7, fromUserId: 3 }), VIEWER, false);
    expect(list[1].unread).toBe(1);
    // A room the list does not have yet: the caller reads the list again.
    expect(applyNewMessageToList(list, chatMessage(14, { kind: 'team', toId: 8, fromUserId: 3 }), VIEWER, false)).toBe(false);
  });

  it('an edit of the last message changes the preview; of an older one, not', () => {
    const list = [
      conversation('user', 2, {
        lastMessage: { id: 5, body: 'a', fromUserId: 2, fromUserName: 'C', createdAt: '', deletedAt: null, mediaName: null },
      }),
    ];
    applyUpdateToList(list, chatMessage(4, { fromUserId: 2, toId: VIEWER, body: 'x' }), VIEWER);
    expect(list[0].lastMessage?.body).toBe('a');
    applyUpdateToList(list, chatMessage(5, { fromUserId: 2, toId: VIEWER, body: 'b' }), VIEWER);
    expect(list[0].lastMessage?.body).toBe('b');
  });

  it('the viewer\u2019s own read clears the count when it reaches the last message, else asks the server', () => {
    const last = { id: 9, body: '', fromUserId: 2, fromUserName: 'C', createdAt: '', deletedAt: null, mediaName: null };
    const list = [conversation('user', 2, { unread: 3, lastMessage: last })];
    expect(applyOwnRead(list, { kind: 'user', id: 2 }, 7)).toBe(false);
    expect(list[0].unread).toBe(3);
    expect(applyOwnRead(list, { kind: 'user', id: 2 }, 9)).toBe(true);
    expect(list[0].unread).toBe(0);
  });

  it('reads presence from user:status and shows it on the colleague', () => {
    expect(presenceOf({ isOnline: true })).toBe('online');
    expect(presenceOf({ isOnline: false })).toBe('offline');
    expect(presenceOf({ isOnline: true, presence: 'away' })).toBe('away');
    expect(presenceOf({})).toBeNull();
    const list = [conversation('user', 2), conversation('team', 2)];
    expect(applyPresence(list, 2, 'online')).toBe(true);
    expect(list.map((c) => c.presence)).toEqual(['online', null]);
  });

  it('sorts by the most recent message, then by name', () => {
    const at = (id: number) => ({
      id,
      body: '',
      fromUserId: 2,
      fromUserName: '',
      createdAt: '',
      deletedAt: null,
      mediaName: null,
    });
    const sorted = sortConversations([
      conversation('user', 1, { name: 'Zeca' }),
      conversation('user', 2, { name: 'Ana', lastMessage: at(3) }),
      conversation('user', 3, { name: 'Bia' }),
      conversation('team', 4, { name: 'Suporte', lastMessage: at(8) }),
    ]);
    expect(sorted.map((c) => c.name)).toEqual(['Suporte', 'Ana', 'Bia', 'Zeca']);
  });

  it('writes the preview line: author in rooms and for own messages, deleted and file messages by name', () => {
    const last = (over: object) => ({
      id: 1,
      body: 'oi',
      fromUserId: 2,
      fromUserName: 'Ana',
      createdAt: '',
      deletedAt: null,
      mediaName: null,
      ...over,
    });
    expect(previewText(conversation('user', 2, { lastMessage: last({}) }), VIEWER, TEXTS)).toBe('oi');
    expect(previewText(conversation('user', 2, { lastMessage: last({ fromUserId: VIEWER }) }), VIEWER, TEXTS)).toBe('Você: oi');
    expect(previewText(conversation('team', 7, { lastMessage: last({}) }), VIEWER, TEXTS)).toBe('Ana: oi');
    expect(previewText(conversation('user', 2, { lastMessage: last({ deletedAt: 'x', body: '' }) }), VIEWER, TEXTS)).toBe(
      'Mensagem apagada',
    );
    expect(previewText(conversation('user', 2, { lastMessage: last({ body: '', mediaName: 'a.pdf' }) }), VIEWER, TEXTS)).toBe(
      'Arquivo: a.pdf',
    );
    expect(previewText(conversation('user', 2), VIEWER, TEXTS)).toBe('');
  });

  it('filters the tab by name, case and accents aside', () => {
    const list = [conversation('user', 1, { name: 'João Álvares' }), conversation('user', 2, { name: 'Maria' })];
    expect(filterByName(list, 'joao al').map((c) => c.id)).toEqual([1]);
    expect(filterByName(list, '  ').map((c) => c.id)).toEqual([1, 2]);
  });
});

describe('a conversation\u2019s address', () => {
  it('round-trips kind and id, with an optional message, and refuses anything else', () => {
    expect(conversationPath({ kind: 'team', id: 7 }, 42)).toBe('/chat-privado?kind=team&id=7&message=42');
    expect(conversationFromParams(new URLSearchParams('kind=team&id=7&message=42'))).toEqual({ kind: 'team', id: 7 });
    expect(conversationFromParams(new URLSearchParams('kind=group&id=7'))).toBeNull();
    expect(conversationFromParams(new URLSearchParams('kind=user&id=-1'))).toBeNull();
    expect(conversationFromParams(new URLSearchParams('kind=user'))).toBeNull();
  });
});
