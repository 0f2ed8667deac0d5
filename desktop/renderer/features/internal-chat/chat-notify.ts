import type { DesktopNotificationRequest } from '@shared/desktop-api';
import { conversationOf, type ChatMessageDto } from '@shared/schemas/internal-chat';
import { translate } from '../../i18n/i18n-instance';
import { conversationPath } from './chat-cache';

/**
 * A colleague's message while the window is in the background: the desktop's native notification
 * when the bridge offers one, else the browser's (permission asked on the first visit of
 * /chat-privado). Clicking it opens the conversation (the desktop: main sends it back as a deep link).
 */

/** Replayed events after a reconnect are not news: older messages are not announced. */
export const ANNOUNCE_MAX_AGE_MS = 2 * 60_000;
const BODY_MAX = 200;
const ASKED_KEY = 'atende.chatNotificationsAsked';

export function windowIsAttentive(doc: Pick<Document, 'hidden' | 'hasFocus'> | undefined = globalThis.document): boolean {
  if (!doc) return true;
  return !doc.hidden && doc.hasFocus();
}

export interface ChatNotice {
  title: string;
  body: string;
  /** The conversation as the viewer names it (the desktop opens it from the click). */
  conversation: { kind: 'user' | 'team'; id: number };
  /** The conversation's address on the screen (hash route). */
  path: string;
  tag: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

export function noticeOf(message: ChatMessageDto, viewerId: number, conversationName: string | null, t: Translate): ChatNotice {
  const ref = conversationOf(message, viewerId);
  const title =
    ref.kind === 'team' && conversationName
      ? t('internalChat.notification.teamTitle', { name: message.fromUserName, team: conversationName })
      : message.fromUserName;
  const text = message.body.trim() || (message.mediaName ? `📎 ${message.mediaName}` : t('internalChat.notification.file'));
  return {
    title,
    body: text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1)}…` : text,
    conversation: ref,
    path: conversationPath(ref),
    tag: `chat-${ref.kind}-${ref.id}`,
  };
}

interface NotificationLike {
  onclick: ((event: Event) => unknown) | null;
  close(): void;
}

export interface NotifyDeps {
  desktop: { notify?(request: Pick<DesktopNotificationRequest, 'title' | 'body' | 'chat'>): Promise<void> } | null | undefined;
  createWebNotification: ((title: string, options: { body: string; tag: string }) => NotificationLike) | null;
  webPermission: () => NotificationPermission | 'unsupported';
  open(path: string): void;
  now(): number;
}

const browserDeps = (): NotifyDeps => ({
  desktop: (globalThis as { desktop?: NotifyDeps['desktop'] }).desktop,
  createWebNotification: typeof Notification === 'undefined' ? null : (title, options) => new Notification(title, options),
  webPermission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  open: (path) => {
    window.focus();
    window.location.hash = `#${path}`;
  },
  now: () => Date.now(),
});

/** Shows the notice; 'desktop', 'web' or why not (for the tests). */
export function announceChatMessage(
  message: ChatMessageDto,
  conversationName: string | null,
  viewerId: number,
  deps: NotifyDeps = browserDeps(),
): 'desktop' | 'web' | 'old' | 'not-permitted' {
  const age = deps.now() - Date.parse(message.createdAt);
  if (Number.isFinite(age) && age > ANNOUNCE_MAX_AGE_MS) return 'old';
  const notice = noticeOf(message, viewerId, conversationName, translate as Translate);
  if (deps.desktop?.notify) {
    // Main opens the conversation on a click (a `/chat-privado` deep link).
    void deps.desktop.notify({ title: notice.title, body: notice.body, chat: notice.conversation }).catch(() => undefined);
    return 'desktop';
  }
  if (!deps.createWebNotification || deps.webPermission() !== 'granted') return 'not-permitted';
  try {
    const shown = deps.createWebNotification(notice.title, { body: notice.body, tag: notice.tag });
    shown.onclick = () => {
      deps.open(notice.path);
      shown.close();
    };
    return 'web';
  } catch {
    // Some browsers allow notifications only from a service worker: the unread badge still counts.
    return 'not-permitted';
  }
}

/** The first visit of /chat-privado asks for the browser's permission once (the desktop needs none). */
export function requestChatNotificationPermission(): void {
  if ((globalThis as { desktop?: { notify?: unknown } }).desktop?.notify) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  try {
    if (localStorage.getItem(ASKED_KEY)) return;
    localStorage.setItem(ASKED_KEY, '1');
  } catch {
    // No storage: ask anyway, the browser remembers the answer.
  }
  void Notification.requestPermission().catch(() => undefined);
}
