import type { MessagingWindowDto } from '@shared/schemas/templates';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { MessageTicket } from '../messages/message-ticket';

/** Meta's customer service window: free-form messages up to 24 hours after the customer's last message. */
export const WABA_WINDOW_MS = 24 * 3600_000;

/**
 * The 24-hour window of a ticket's conversation. Outside WABA there is none (always open). On
 * WABA it opens with each message the customer sends on this channel (any of the contact's
 * tickets on it) and closes 24 hours later; a conversation the customer never wrote in is
 * closed (only a template can start it).
 */
export async function messagingWindow(
  db: Queryable,
  ticket: Pick<MessageTicket, 'tenantId' | 'contactId' | 'whatsappId'>,
  now: Date,
): Promise<MessagingWindowDto> {
  if (ticket.whatsappId === null) return { channelType: null, windowOpen: true, lastInboundAt: null, closesAt: null };
  const [row] = (await db.query(
    // The messages are read for WABA channels only (CASE evaluates the subquery only then).
    `SELECT c.type,
            CASE WHEN c.type = 'waba' THEN
              (SELECT max(COALESCE(to_timestamp(m.timestamp), m."createdAt"))
                 FROM messages m JOIN tickets t ON t.id = m."ticketId"
                WHERE t."tenantId" = $1 AND t."contactId" = $2 AND t."whatsappId" = $3
                  AND m."fromMe" = false AND m."isPrivate" = false)
            END AS "lastInboundAt"
       FROM channels c WHERE c.id = $3 AND c."tenantId" = $1`,
    [ticket.tenantId, ticket.contactId, ticket.whatsappId],
  )) as { type: string; lastInboundAt: Date | string | null }[];
  if (!row) return { channelType: null, windowOpen: true, lastInboundAt: null, closesAt: null };
  if (row.type !== 'waba') return { channelType: row.type, windowOpen: true, lastInboundAt: null, closesAt: null };
  const last = row.lastInboundAt === null ? null : new Date(row.lastInboundAt);
  const closes = last ? new Date(last.getTime() + WABA_WINDOW_MS) : null;
  const open = closes !== null && closes.getTime() > now.getTime();
  return {
    channelType: 'waba',
    windowOpen: open,
    lastInboundAt: last?.toISOString() ?? null,
    closesAt: open && closes ? closes.toISOString() : null,
  };
}

/**
 * Refuses a free-form message to a WABA conversation whose window the customer opened and that
 * has closed since (ERR_WABA_WINDOW_CLOSED): the agent must send a template. A conversation the
 * customer never wrote in is not refused here: Meta refuses it (131047) and the message fails
 * with the same reason; GET /tickets/{id}/messaging-window reports it closed.
 */
export async function assertWindowOpenForText(
  db: Queryable,
  ticket: Pick<MessageTicket, 'tenantId' | 'contactId' | 'whatsappId'>,
  now: Date,
): Promise<void> {
  const window = await messagingWindow(db, ticket, now);
  if (window.channelType === 'waba' && !window.windowOpen && window.lastInboundAt !== null) {
    throw new AppError('ERR_WABA_WINDOW_CLOSED');
  }
}
