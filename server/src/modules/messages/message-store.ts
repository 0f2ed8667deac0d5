import { randomUUID } from 'node:crypto';
import { ACK_BY_STATUS } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import { recordOutboundMessages } from '../tickets/ticket-metrics';
import type { MessageTicket } from './message-ticket';

/** An outbound (or private) message about to be written. */
export interface OutboundDraft {
  body: string;
  mediaType: string;
  mediaPath?: string | null;
  mediaName?: string | null;
  mimeType?: string | null;
  quotedMsgId?: number | null;
  clientId: string;
  isPrivate: boolean;
  /** pending: to send now; scheduled: at scheduleDate; sent: a private note (never leaves the server). */
  status: 'pending' | 'scheduled' | 'sent';
  scheduleDate?: Date | null;
  dataJson?: Record<string, unknown> | null;
  lastError?: string | null;
  /** Written by the system on its own (a birthday greeting): counted as automated, never as an agent's reply. */
  automated?: boolean;
}

/** A server-made client id when the client sent none (every outbound row has one). */
export const serverClientId = (prefix = 'srv'): string => `${prefix}-${randomUUID()}`;

/**
 * Writes the message row FIRST (LESSONS 2), idempotent on (tenant, clientId): a retry of the
 * same request finds the row the first try wrote and sends nothing twice (`created` false).
 * A clientId already used for another ticket is refused. Runs in the caller's transaction, which
 * also records the message's metric fact.
 */
export async function insertOutbound(
  tx: Queryable,
  ticket: MessageTicket,
  userId: number | null,
  draft: OutboundDraft,
  now: Date,
): Promise<{ id: number; created: boolean }> {
  const ack = draft.status === 'sent' ? ACK_BY_STATUS.sent : ACK_BY_STATUS.pending;
  // Due now (pending) or at its date (scheduled): the sweep's index is (status, nextRetryAt).
  const nextRetryAt = draft.status === 'pending' ? now : draft.status === 'scheduled' ? (draft.scheduleDate ?? null) : null;
  const inserted: { id: string }[] = await tx.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", "whatsappId", "userId", "clientId", "fromMe", body, "mediaType",
                           "mediaPath", "mediaName", "mimeType", "quotedMsgId", status, ack, "isPrivate", "scheduleDate",
                           "nextRetryAt", "dataJson", "lastError", timestamp, read, "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, true, $21, $21)
     ON CONFLICT ("tenantId", "clientId") WHERE "clientId" IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      ticket.tenantId,
      ticket.id,
      ticket.contactId,
      ticket.whatsappId,
      userId,
      draft.clientId,
      draft.body,
      draft.mediaType,
      draft.mediaPath ?? null,
      draft.mediaName ?? null,
      draft.mimeType ?? null,
      draft.quotedMsgId ?? null,
      draft.status,
      ack,
      draft.isPrivate,
      draft.scheduleDate ?? null,
      nextRetryAt,
      draft.dataJson ? JSON.stringify(draft.dataJson) : null,
      draft.lastError ?? null,
      Math.floor(now.getTime() / 1000),
      now,
    ],
  );
  if (inserted[0]) {
    const id = Number(inserted[0].id);
    // A message going to the customer now is a metric fact (ticket-metrics.ts); a scheduled one
    // becomes one when it is due, a private note never.
    if (draft.status === 'pending' && !draft.isPrivate) {
      await recordOutboundMessages(tx, ticket.id, [id], userId !== null && !draft.automated ? 'reply' : 'autoMessage');
    }
    return { id, created: true };
  }
  const [existing] = (await tx.query(`SELECT id, "ticketId" FROM messages WHERE "tenantId" = $1 AND "clientId" = $2`, [
    ticket.tenantId,
    draft.clientId,
  ])) as { id: string; ticketId: number }[];
  if (!existing || existing.ticketId !== ticket.id) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'clientId', message: 'já usado por outra mensagem' }] });
  }
  return { id: Number(existing.id), created: false };
}
