import {
  chatMediaUrlOf,
  type ChatConversationDto,
  type ChatKind,
  type ChatMessageDto,
} from '@shared/schemas/internal-chat';
import { presenceOf } from '../users/presence';

/** Shown as the author of messages whose user was deleted (their `fromUserId` is null). */
export const REMOVED_USER_NAME = 'Usuário removido';
/** A quoted message's text is cut to this many characters in the reply preview. */
export const REPLY_PREVIEW_CHARS = 200;

/** A chat_messages row with its author's name and its quoted message (CHAT_MESSAGE_SELECT). */
export interface ChatMessageRow {
  id: number;
  kind: ChatKind;
  toId: number;
  fromUserId: number | null;
  fromUserName: string | null;
  body: string;
  hasMedia: boolean;
  mediaName: string | null;
  mimeType: string | null;
  replyToId: number | null;
  replyBody: string | null;
  replyFromName: string | null;
  replyDeletedAt: Date | string | null;
  ticketId: number | null;
  clientId: string | null;
  editedAt: Date | string | null;
  deletedAt: Date | string | null;
  createdAt: Date | string;
}

/** Columns of CHAT_MESSAGE_SELECT, so writers can RETURNING-present the same shape. */
export const CHAT_MESSAGE_SELECT = `
  SELECT m.id, m.kind, m."toId", m."fromUserId", fu.name AS "fromUserName", m.body,
         (m."mediaPath" IS NOT NULL AND m."deletedAt" IS NULL) AS "hasMedia", m."mediaName", m."mimeType",
         m."replyToId", r.body AS "replyBody", ru.name AS "replyFromName", r."deletedAt" AS "replyDeletedAt",
         m."ticketId", m."clientId", m."editedAt", m."deletedAt", m."createdAt"
    FROM chat_messages m
    LEFT JOIN users fu ON fu.id = m."fromUserId"
    LEFT JOIN chat_messages r ON r.id = m."replyToId"
    LEFT JOIN users ru ON ru.id = r."fromUserId"`;

const iso = (d: Date | string): string => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null): string | null => (d === null ? null : iso(d));

/**
 * Read receipts of one message: `others` are the users of the conversation who are not its author
 * (the receiver of a one-to-one; the team's current members but the author), `lastRead` how far
 * each read. `readCount` = how many of them read it; `read` = all of them did.
 */
export function readStateOf(
  message: { id: number; fromUserId: number | null },
  others: readonly number[],
  lastRead: ReadonlyMap<number, number>,
): { read: boolean; readCount: number } {
  let readCount = 0;
  let counted = 0;
  for (const userId of others) {
    if (userId === message.fromUserId) continue;
    counted++;
    if ((lastRead.get(userId) ?? 0) >= message.id) readCount++;
  }
  return { read: counted > 0 && readCount === counted, readCount };
}

/**
 * A message as every user of its conversation sees it. A deleted message keeps its place as
 * "Mensagem apagada": body '' and no file. `members`: the conversation's users (for receipts).
 */
export function presentChatMessage(
  row: ChatMessageRow,
  members: readonly number[],
  lastRead: ReadonlyMap<number, number>,
): ChatMessageDto {
  const deleted = row.deletedAt !== null;
  const replyDeleted = row.replyDeletedAt !== null;
  return {
    id: row.id,
    kind: row.kind,
    toId: row.toId,
    fromUserId: row.fromUserId ?? 0,
    fromUserName: row.fromUserId === null ? REMOVED_USER_NAME : (row.fromUserName ?? ''),
    body: deleted ? '' : row.body,
    mediaUrl: !deleted && row.hasMedia ? chatMediaUrlOf(row.id) : null,
    mediaName: deleted ? null : row.mediaName,
    mimeType: deleted ? null : row.mimeType,
    replyTo:
      row.replyToId === null
        ? null
        : {
            id: row.replyToId,
            body: replyDeleted ? '' : (row.replyBody ?? '').slice(0, REPLY_PREVIEW_CHARS),
            fromUserName: row.replyFromName ?? REMOVED_USER_NAME,
            deleted: replyDeleted,
          },
    ticketId: row.ticketId,
    clientId: row.clientId,
    editedAt: isoOrNull(row.editedAt),
    deletedAt: isoOrNull(row.deletedAt),
    createdAt: iso(row.createdAt),
    ...readStateOf({ id: row.id, fromUserId: row.fromUserId }, members, lastRead),
  };
}

/** A row of the conversation list queries (internal-chat.service.ts `conversations`). */
export interface ConversationRow {
  kind: ChatKind;
  id: number;
  name: string;
  isOnline: boolean | null;
  away: boolean | null;
  members: number | null;
  unread: number;
  lastId: number | null;
  lastBody: string | null;
  lastFromUserId: number | null;
  lastFromUserName: string | null;
  lastCreatedAt: Date | string | null;
  lastDeletedAt: Date | string | null;
  lastMediaName: string | null;
}

export function presentConversation(row: ConversationRow): ChatConversationDto {
  const deleted = row.lastDeletedAt !== null;
  return {
    kind: row.kind,
    id: row.id,
    name: row.name,
    presence: row.kind === 'user' ? presenceOf({ isOnline: Boolean(row.isOnline), away: row.away }) : null,
    lastMessage:
      row.lastId === null
        ? null
        : {
            id: row.lastId,
            body: deleted ? '' : (row.lastBody ?? ''),
            fromUserId: row.lastFromUserId ?? 0,
            fromUserName: row.lastFromUserId === null ? REMOVED_USER_NAME : (row.lastFromUserName ?? ''),
            createdAt: iso(row.lastCreatedAt!),
            deletedAt: isoOrNull(row.lastDeletedAt),
            mediaName: deleted ? null : row.lastMediaName,
          },
    unread: Number(row.unread),
    members: row.kind === 'team' ? Number(row.members) : null,
  };
}
