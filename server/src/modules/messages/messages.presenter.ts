import type { MessageDto, MessageReaction, MessageStatus, QuotedMessageSummary } from '@shared/schemas/messages';

/** A message as read by MESSAGE_SELECT (messages.query.ts), quoted message flattened in. */
export interface MessageRow {
  id: number | string;
  tenantId: number;
  messageId: string | null;
  clientId: string | null;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  whatsappId: number | null;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaName: string | null;
  mimeType: string | null;
  hasMedia: boolean;
  quotedMsgId: number | string | null;
  status: MessageStatus;
  ack: number;
  read: boolean;
  reactions: MessageReaction[] | null;
  isEdited: boolean;
  isDeleted: boolean;
  isSync: boolean;
  isPrivate: boolean;
  scheduleDate: Date | string | null;
  sendAttempts: number;
  nextRetryAt: Date | string | null;
  lastError: string | null;
  unconfirmed?: boolean;
  buttons: { id: string; title: string }[] | null;
  schedule: { recurrenceDays: number; repetitions: number; occurrence: number } | null;
  timestamp: number | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  q_id: number | string | null;
  q_body: string | null;
  q_fromMe: boolean | null;
  q_mediaType: string | null;
  q_mediaName: string | null;
  q_isDeleted: boolean | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The route that streams a message's file to authenticated users of its tenant. */
export const mediaUrlOf = (id: number): string => `/messages/media/${id}`;

function quoted(row: MessageRow): QuotedMessageSummary | null {
  if (row.q_id === null || row.q_id === undefined) return null;
  return {
    id: Number(row.q_id),
    body: row.q_body ?? '',
    fromMe: Boolean(row.q_fromMe),
    mediaType: row.q_mediaType ?? 'chat',
    mediaName: row.q_mediaName,
    isDeleted: Boolean(row.q_isDeleted),
  };
}

/** The one shape a message leaves the server in (never the tenant id or the stored file path). */
export function presentMessage(row: MessageRow): MessageDto {
  const id = Number(row.id);
  const status = row.status;
  return {
    id,
    messageId: row.messageId,
    clientId: row.clientId,
    ticketId: row.ticketId,
    contactId: row.contactId,
    userId: row.userId,
    whatsappId: row.whatsappId,
    body: row.body,
    fromMe: row.fromMe,
    mediaType: row.mediaType,
    mediaName: row.mediaName,
    mimeType: row.mimeType,
    mediaUrl: row.hasMedia ? mediaUrlOf(id) : null,
    quotedMsgId: row.quotedMsgId === null ? null : Number(row.quotedMsgId),
    quotedMsg: quoted(row),
    status,
    ack: row.ack,
    read: row.read,
    reactions: Array.isArray(row.reactions) ? row.reactions : [],
    isEdited: row.isEdited,
    isDeleted: row.isDeleted,
    isSync: row.isSync,
    isPrivate: row.isPrivate,
    scheduleDate: iso(row.scheduleDate),
    schedule: row.schedule
      ? {
          recurrenceDays: row.schedule.recurrenceDays,
          repetitions: row.schedule.repetitions,
          occurrence: row.schedule.occurrence,
        }
      : null,
    sendAttempts: row.sendAttempts,
    nextRetryAt: iso(row.nextRetryAt),
    lastError: row.lastError,
    buttons: row.buttons ?? null,
    flags: {
      edited: row.isEdited,
      deleted: row.isDeleted,
      scheduled: status === 'scheduled',
      sync: row.isSync,
      undelivered: status === 'failed',
      retryPending: status === 'pending' && row.lastError !== null,
      unconfirmed: status === 'failed' && row.unconfirmed === true,
      private: row.isPrivate,
    },
    timestamp: row.timestamp === null ? null : Number(row.timestamp),
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}
