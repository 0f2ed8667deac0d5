import type { Queryable } from '../../core/tenant-catalog';
import type { Emit } from '../../realtime/domain-events';
import { emitTicketChanged } from './message-ticket-events';
import type { MessageTicket } from './message-ticket';
import { returnedRows } from './messages.query';

/**
 * Ticket status `schedule` (spec section 4): the ticket whose next action is a scheduled send.
 * A message scheduled for a contact without an ongoing ticket waits in one (per contact and
 * channel), out of the agents' queue; the schedule sweep turns it pending at the first send, and
 * a `schedule` ticket left without scheduled messages (canceled, or moved to the contact's
 * ongoing ticket) is closed.
 */

/** The open-or-pending ticket of the ticket's contact on its channel, if any. */
export async function activeTicketOf(tx: Queryable, ticket: MessageTicket): Promise<number | null> {
  const [row] = (await tx.query(
    `SELECT id FROM tickets WHERE "tenantId" = $1 AND "contactId" = $2 AND COALESCE("whatsappId", 0) = COALESCE($3::int, 0)
        AND status IN ('open', 'pending') LIMIT 1`,
    [ticket.tenantId, ticket.contactId, ticket.whatsappId],
  )) as { id: number }[];
  return row?.id ?? null;
}

/**
 * The ticket a scheduled message for a contact waits in: the contact's ongoing (open or pending)
 * ticket on the channel, else its `schedule` ticket there, else a new `schedule` ticket (not in
 * the agents' queue until the send). Serialized per contact by a transaction lock, so two
 * schedules made at once share one ticket.
 */
export async function holdingTicket(
  tx: Queryable,
  input: {
    tenantId: number;
    contactId: number;
    channelId: number | null;
    channelType: string | null;
    isGroup: boolean;
    actorUserId: number;
  },
): Promise<{ id: number; created: boolean }> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('schedule-ticket'), $1)`, [input.contactId]);
  const [existing] = (await tx.query(
    `SELECT id FROM tickets WHERE "tenantId" = $1 AND "contactId" = $2 AND COALESCE("whatsappId", 0) = COALESCE($3::int, 0)
        AND status IN ('open', 'pending', 'schedule')
      ORDER BY (status = 'schedule'), id LIMIT 1`,
    [input.tenantId, input.contactId, input.channelId],
  )) as { id: number }[];
  if (existing) return { id: existing.id, created: false };
  const [inserted] = (await tx.query(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", status, "isActiveDemand")
     VALUES ($1, $2, $3, $4, $5, 'schedule', true) RETURNING id`,
    [input.tenantId, input.contactId, input.channelId, input.channelType, input.isGroup],
  )) as { id: number }[];
  await tx.query(`UPDATE tickets SET protocol = to_char(now(), 'YYYYMMDD') || lpad(id::text, 8, '0') WHERE id = $1`, [inserted.id]);
  await tx.query(`INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data) VALUES ($1, $2, $3, 'create', $4)`, [
    input.tenantId,
    inserted.id,
    input.actorUserId,
    JSON.stringify({ status: 'schedule', channelId: input.channelId }),
  ]);
  return { id: inserted.id, created: true };
}

/** A `schedule` ticket with no scheduled message left has nothing to do: it is closed. */
export async function closeEmptyHoldingTicket(tx: Queryable, emit: Emit, ticketId: number): Promise<void> {
  const closed = returnedRows<{ id: number }>(
    await tx.query(
      `UPDATE tickets SET status = 'closed', "closedAt" = now(), "updatedAt" = now()
        WHERE id = $1 AND status = 'schedule'
          AND NOT EXISTS (SELECT 1 FROM messages WHERE "ticketId" = $1 AND status = 'scheduled')
        RETURNING id`,
      [ticketId],
    ),
  );
  if (closed.length > 0) await emitTicketChanged(tx, emit, ticketId, 'update');
}
