import {
  conversationOf,
  type ChatConversationDto,
  type ChatHistoryAnswer,
  type ChatKind,
  type ChatMessageDto,
  type Presence,
} from '@shared/schemas/internal-chat';

/**
 * How the internal chat's cached data changes, as plain functions on (Immer) drafts, so the rules
 * are tested without a store: a message arriving or changing, a conversation read, a colleague's
 * presence, an older page loaded.
 */

export interface ConversationRef {
  kind: ChatKind;
  id: number;
}

export const conversationKey = (ref: ConversationRef): string => `${ref.kind}:${ref.id}`;

export const sameConversation = (a: ConversationRef | null | undefined, b: ConversationRef | null | undefined): boolean =>
  Boolean(a && b && a.kind === b.kind && a.id === b.id);

/** Reads `?kind=&id=` (the screen's address, a notification's and a search result's link). */
export function conversationFromParams(params: URLSearchParams): ConversationRef | null {
  const kind = params.get('kind');
  const id = Number(params.get('id'));
  if ((kind !== 'user' && kind !== 'team') || !Number.isSafeInteger(id) || id <= 0) return null;
  return { kind, id };
}

/** The address of a conversation on the screen, optionally at one message (a search result). */
export function conversationPath(ref: ConversationRef, messageId?: number): string {
  const query = new URLSearchParams({ kind: ref.kind, id: String(ref.id) });
  if (messageId) query.set('message', String(messageId));
  return `/chat-privado?${query.toString()}`;
}

/**
 * A newer copy of a message, keeping the read state already known: a send's HTTP answer can
 * arrive after the socket's `chat:read` that marked it read (receipts only move forward here).
 */
function replaceKeepingReads(history: ChatHistoryAnswer, index: number, message: ChatMessageDto): void {
  const known = history.messages[index];
  history.messages[index] = {
    ...message,
    read: message.read || known.read,
    readCount: Math.max(message.readCount, known.readCount),
  };
}

/** Adds a message at its place (ids grow with time), or replaces the copy already there (same id or client id). */
export function upsertMessage(history: ChatHistoryAnswer, message: ChatMessageDto): void {
  const index = history.messages.findIndex(
    (m) =>
      m.id === message.id ||
      (message.clientId !== null && m.clientId === message.clientId && m.fromUserId === message.fromUserId),
  );
  if (index >= 0) {
    replaceKeepingReads(history, index, message);
    return;
  }
  const oldest = history.messages[0];
  // Older than the loaded window: it shows when that page is read (not out of order now).
  if (oldest && message.id < oldest.id && history.hasMore) return;
  let at = history.messages.length;
  while (at > 0 && history.messages[at - 1].id > message.id) at -= 1;
  history.messages.splice(at, 0, message);
}

/** Replaces a message's copy if it is loaded (an edit, a delete, a read count); false when it is not. */
export function patchMessage(history: ChatHistoryAnswer, message: ChatMessageDto): boolean {
  const index = history.messages.findIndex((m) => m.id === message.id);
  if (index < 0) return false;
  replaceKeepingReads(history, index, message);
  // The quotes of this message in later replies follow an edit or a delete.
  for (const m of history.messages) {
    if (m.replyTo?.id === message.id) {
      m.replyTo = { ...m.replyTo, body: message.body, deleted: message.deletedAt !== null };
    }
  }
  return true;
}

/** An older page read on scroll up, put before the loaded messages (duplicates dropped). */
export function prependOlder(history: ChatHistoryAnswer, page: ChatHistoryAnswer): void {
  const known = new Set(history.messages.map((m) => m.id));
  const oldest = history.messages[0]?.id ?? Infinity;
  const older = page.messages.filter((m) => !known.has(m.id) && m.id < oldest);
  history.messages.unshift(...older);
  history.hasMore = page.hasMore;
}

/**
 * A one-to-one's receiver read up to `lastReadId`: the viewer's messages up to there get the
 * double tick. (A room's "read by N" comes in each message's update: who had read it before is
 * not known here.)
 */
export function applyReadReceipt(history: ChatHistoryAnswer, viewerId: number, lastReadId: number): boolean {
  let changed = false;
  for (const m of history.messages) {
    if (m.fromUserId === viewerId && m.kind === 'user' && m.id <= lastReadId && !m.read) {
      m.read = true;
      m.readCount = Math.max(m.readCount, 1);
      changed = true;
    }
  }
  return changed;
}

/** The read state of fresh copies of the loaded messages (a room's "read by N"); false when nothing changed. */
export function applyReadState(history: ChatHistoryAnswer, fresh: readonly ChatMessageDto[]): boolean {
  const byId = new Map(fresh.map((m) => [m.id, m]));
  let changed = false;
  for (const m of history.messages) {
    const copy = byId.get(m.id);
    if (!copy || (copy.read === m.read && copy.readCount === m.readCount)) continue;
    m.read = copy.read;
    m.readCount = copy.readCount;
    changed = true;
  }
  return changed;
}

type LastMessage = NonNullable<ChatConversationDto['lastMessage']>;

const previewOf = (m: ChatMessageDto): LastMessage => ({
  id: m.id,
  body: m.body,
  fromUserId: m.fromUserId,
  fromUserName: m.fromUserName,
  createdAt: m.createdAt,
  deletedAt: m.deletedAt,
  mediaName: m.mediaName,
});

/**
 * A new message in the viewer's conversation list: it becomes the conversation's last message,
 * and counts as unread unless the viewer sent it or is reading that conversation now. False when
 * the conversation is not in the list (a room the viewer just joined): the list is read again.
 */
export function applyNewMessageToList(
  list: ChatConversationDto[],
  message: ChatMessageDto,
  viewerId: number,
  readingNow: boolean,
): boolean {
  const ref = conversationOf(message, viewerId);
  const conversation = list.find((c) => c.kind === ref.kind && c.id === ref.id);
  if (!conversation) return false;
  if (!conversation.lastMessage || conversation.lastMessage.id <= message.id) conversation.lastMessage = previewOf(message);
  if (message.fromUserId !== viewerId && !readingNow) conversation.unread += 1;
  return true;
}

/** An edited or deleted message that is a conversation's last one changes its preview. */
export function applyUpdateToList(list: ChatConversationDto[], message: ChatMessageDto, viewerId: number): void {
  const ref = conversationOf(message, viewerId);
  const conversation = list.find((c) => c.kind === ref.kind && c.id === ref.id);
  if (conversation?.lastMessage?.id === message.id) conversation.lastMessage = previewOf(message);
}

export function markListRead(list: ChatConversationDto[], ref: ConversationRef): number {
  const conversation = list.find((c) => c.kind === ref.kind && c.id === ref.id);
  if (!conversation) return 0;
  const was = conversation.unread;
  conversation.unread = 0;
  return was;
}

/**
 * The viewer's own `chat:read` (another tab, the desktop, or "mark unread"): read up to the last
 * message clears the count here; anything else (unread again from some message) needs the
 * server's count. Returns whether the list can be trusted without asking again.
 */
export function applyOwnRead(list: ChatConversationDto[], ref: ConversationRef, lastReadId: number): boolean {
  const conversation = list.find((c) => c.kind === ref.kind && c.id === ref.id);
  if (!conversation) return false;
  if (conversation.lastMessage && lastReadId < conversation.lastMessage.id) return false;
  conversation.unread = 0;
  return true;
}

/** `user:status`: the presence the event names, else online/offline from `isOnline`. */
export function presenceOf(payload: { isOnline?: unknown; presence?: unknown }): Presence | null {
  if (payload.presence === 'online' || payload.presence === 'away' || payload.presence === 'offline') return payload.presence;
  if (typeof payload.isOnline === 'boolean') return payload.isOnline ? 'online' : 'offline';
  return null;
}

export function applyPresence(list: ChatConversationDto[], userId: number, presence: Presence): boolean {
  const conversation = list.find((c) => c.kind === 'user' && c.id === userId);
  if (!conversation || conversation.presence === presence) return false;
  conversation.presence = presence;
  return true;
}

/** Most recent conversation first; those without messages after them, by name. */
export function sortConversations(list: readonly ChatConversationDto[]): ChatConversationDto[] {
  return [...list].sort((a, b) => {
    const at = a.lastMessage?.id ?? 0;
    const bt = b.lastMessage?.id ?? 0;
    if (at !== bt) return bt - at;
    return a.name.localeCompare(b.name, 'pt-BR', { sensitivity: 'base' });
  });
}

/** A conversation's line under its name: who wrote the last message (for rooms and own messages) and what. */
export function previewText(
  conversation: ChatConversationDto,
  viewerId: number | null,
  texts: { you: string; deleted: string; file: string },
): string {
  const last = conversation.lastMessage;
  if (!last) return '';
  const content = last.deletedAt
    ? texts.deleted
    : last.body.trim() || (last.mediaName ? `${texts.file}: ${last.mediaName}` : texts.file);
  if (last.fromUserId === viewerId) return `${texts.you}: ${content}`;
  if (conversation.kind === 'team') return `${last.fromUserName}: ${content}`;
  return content;
}

/** Filters the tab's list by name (the box above it); search of message texts is the server's. */
export function filterByName(list: readonly ChatConversationDto[], text: string): ChatConversationDto[] {
  const wanted = fold(text.trim());
  if (!wanted) return [...list];
  return list.filter((c) => fold(c.name).includes(wanted));
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
