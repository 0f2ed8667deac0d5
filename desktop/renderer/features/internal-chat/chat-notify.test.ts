import { describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_MAX_AGE_MS, announceChatMessage, noticeOf, windowIsAttentive, type NotifyDeps } from './chat-notify';
import { VIEWER, chatMessage } from './chat-test-data';

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key);
const NOW = Date.UTC(2026, 0, 1, 12, 30);
const recent = (over: Parameters<typeof chatMessage>[1] = {}) =>
  chatMessage(5, { fromUserId: 2, fromUserName: 'Ana', toId: VIEWER, createdAt: new Date(NOW - 1000).toISOString(), ...over });

function deps(over: Partial<NotifyDeps> = {}) {
  const shown: {
    title: string;
    options: { body: string; tag: string };
    onclick: ((e: Event) => unknown) | null;
    close: () => void;
  }[] = [];
  const opened: string[] = [];
  const base: NotifyDeps = {
    desktop: null,
    createWebNotification: (title, options) => {
      const n = { title, options, onclick: null as ((e: Event) => unknown) | null, close: vi.fn() };
      shown.push(n);
      return n;
    },
    webPermission: () => 'granted',
    open: (path) => opened.push(path),
    now: () => NOW,
    ...over,
  };
  return { deps: base, shown, opened };
}

describe('the internal chat notice', () => {
  it('names the author (and the room), carries the text or the file, and links the conversation', () => {
    expect(noticeOf(recent(), VIEWER, 'Ana', t)).toEqual({
      title: 'Ana',
      body: 'm5',
      conversation: { kind: 'user', id: 2 },
      path: '/chat-privado?kind=user&id=2',
      tag: 'chat-user-2',
    });
    const room = noticeOf(recent({ kind: 'team', toId: 7, body: '', mediaName: 'foto.png' }), VIEWER, 'Suporte', t);
    expect(room.title).toBe('internalChat.notification.teamTitle {"name":"Ana","team":"Suporte"}');
    expect(room.body).toBe('📎 foto.png');
    expect(room.path).toBe('/chat-privado?kind=team&id=7');
    expect(noticeOf(recent({ body: 'x'.repeat(500) }), VIEWER, null, t).body).toHaveLength(200);
  });

  it('goes to the desktop bridge when it offers notifications', () => {
    const notify = vi.fn(async () => undefined);
    const { deps: d, shown } = deps({ desktop: { notify } });
    expect(announceChatMessage(recent(), 'Ana', VIEWER, d)).toBe('desktop');
    expect(notify).toHaveBeenCalledWith({ title: 'Ana', body: 'm5', chat: { kind: 'user', id: 2 } });
    expect(shown).toEqual([]);
  });

  it('on the web, a permitted Notification whose click opens the conversation', () => {
    const { deps: d, shown, opened } = deps();
    expect(announceChatMessage(recent(), 'Ana', VIEWER, d)).toBe('web');
    expect(shown).toHaveLength(1);
    expect(shown[0].options).toEqual({ body: 'm5', tag: 'chat-user-2' });
    shown[0].onclick?.(new Event('click'));
    expect(opened).toEqual(['/chat-privado?kind=user&id=2']);
    expect(shown[0].close).toHaveBeenCalled();
  });

  it('nothing without permission, and nothing for a message replayed after a reconnect', () => {
    const denied = deps({ webPermission: () => 'denied' });
    expect(announceChatMessage(recent(), 'Ana', VIEWER, denied.deps)).toBe('not-permitted');
    expect(denied.shown).toEqual([]);
    const old = deps();
    expect(
      announceChatMessage(recent({ createdAt: new Date(NOW - ANNOUNCE_MAX_AGE_MS - 1).toISOString() }), 'Ana', VIEWER, old.deps),
    ).toBe('old');
    expect(old.shown).toEqual([]);
  });

  it('counts the window as attentive only when visible and focused', () => {
    expect(windowIsAttentive({ hidden: false, hasFocus: () => true })).toBe(true);
    expect(windowIsAttentive({ hidden: true, hasFocus: () => true })).toBe(false);
    expect(windowIsAttentive({ hidden: false, hasFocus: () => false })).toBe(false);
  });
});
