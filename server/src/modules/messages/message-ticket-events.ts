import { SOCKET_EVENTS } from '@shared/events';
import type { TicketEventPayload } from '@shared/schemas/tickets';
import type { Queryable } from '../../core/tenant-catalog';
import type { Emit } from '../../realtime/domain-events';
import { TICKET_SELECT, audienceFactsOf, presentTicket, type TicketRow } from '../tickets/tickets.presenter';
import { lastMessagePreview } from './message-ticket';

/**
 * What a message changes on its ticket, and the `ticket:create|update` event that tells the
 * ticket list (the tickets module's shape and audience, so both modules speak alike).
 */
export async function emitTicketChanged(
  tx: Queryable,
  emit: Emit,
  ticketId: number,
  action: TicketEventPayload['action'] = 'update',
): Promise<void> {
  const [row] = (await tx.query(`${TICKET_SELECT} WHERE t.id = $1`, [ticketId])) as TicketRow[];
  if (!row) return;
  const payload: TicketEventPayload = { action, ticket: presentTicket(row) };
  await emit(row.tenantId, action === 'create' ? SOCKET_EVENTS.ticketCreate : SOCKET_EVENTS.ticketUpdate, payload, {
    scope: 'ticket',
    ticket: audienceFactsOf(row),
  });
}

/**
 * An agent's message becomes the ticket's last message (list preview and order); a message to
 * the customer also marks the ticket answered. Private notes move neither.
 */
export async function touchTicketForOutbound(
  tx: Queryable,
  ticketId: number,
  message: { body: string; mediaType: string; mediaName: string | null; isPrivate: boolean },
  at: Date,
): Promise<void> {
  if (message.isPrivate) return;
  await tx.query(
    `UPDATE tickets SET "lastMessage" = $2, "lastMessageAt" = GREATEST("lastMessageAt", $3), answered = true, "updatedAt" = now()
      WHERE id = $1`,
    [ticketId, lastMessagePreview(message), at],
  );
}
