import type { EntityManager } from 'typeorm';
import { updateReturning } from '../../core/tenant-catalog';
import { renderForTicket } from '../tickets/ticket-variables';
import { queueOutboundText, selectTicket } from '../tickets/ticket-writes';
import { businessHoursOf, isWithinBusinessHours } from './business-hours';

/**
 * The conversation window of the absence message: it goes out at most once while the last
 * absence message or the last agent reply of the ticket is less than this old. A customer who
 * writes at night gets it once, not on every message; a conversation an agent is carrying past
 * closing time gets none.
 */
export const ABSENCE_WINDOW_HOURS = 12;

export type AbsenceOutcome = 'open' | 'sent' | 'alreadySent' | 'noMessage' | 'notActive';

/**
 * For an inbound message of a ticket: outside the ticket's business hours (its queue's week, else
 * the tenant's, in the tenant's time zone) the tenant's absence message is queued as an automated
 * message (origin `businessHours`). The window mark (tickets."absenceMessageAt") is claimed with
 * one conditional UPDATE in the same transaction as the message, so a retry, a second worker or
 * a restart never sends it twice in a window.
 */
export async function sendAbsenceMessageIfClosed(
  tx: EntityManager,
  ticket: { id: number; tenantId: number; queueId: number | null },
  now: Date,
  /** Receives the id of the message queued, for the caller to announce. */
  queued: number[] = [],
): Promise<AbsenceOutcome> {
  const hours = await businessHoursOf(tx, ticket.tenantId, ticket.queueId);
  if (isWithinBusinessHours(hours.week, now, hours.timeZone)) return 'open';
  if (!hours.absenceMessage) return 'noMessage';
  const claimed = await updateReturning<{ id: number }>(
    tx,
    `UPDATE tickets t SET "absenceMessageAt" = $3
      WHERE t.id = $1 AND t."tenantId" = $2 AND t.status IN ('open', 'pending') AND NOT t."isGroup"
        AND t."whatsappId" IS NOT NULL
        AND (t."absenceMessageAt" IS NULL OR t."absenceMessageAt" <= $3::timestamptz - make_interval(hours => $4))
        AND NOT EXISTS (
          SELECT 1 FROM messages m
           WHERE m."ticketId" = t.id AND m."fromMe" AND NOT m."isPrivate" AND m."userId" IS NOT NULL
             AND m."createdAt" > $3::timestamptz - make_interval(hours => $4)
             AND COALESCE(m."dataJson"->>'origin', '') = '')
      RETURNING t.id`,
    [ticket.id, ticket.tenantId, now, ABSENCE_WINDOW_HOURS],
  );
  if (claimed.length === 0) {
    const current = await selectTicket(tx, ticket.id);
    return current && (current.status === 'open' || current.status === 'pending') ? 'alreadySent' : 'notActive';
  }
  const current = (await selectTicket(tx, ticket.id))!;
  const text = await renderForTicket(tx, hours.absenceMessage, {
    tenantId: current.tenantId,
    ticketId: current.id,
    userId: null,
    now,
  });
  queued.push(await queueOutboundText(tx, current, text, { userId: null, now, kind: 'businessHours' }));
  return 'sent';
}
