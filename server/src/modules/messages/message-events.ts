import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { MessageEventPayload } from '@shared/schemas/messages';
import type { Emit } from '../../realtime/domain-events';
import { ticketAudience, type MessageTicket } from './message-ticket';
import { presentMessage, type MessageRow } from './messages.presenter';
import { selectMessagesByIds } from './messages.query';

const EVENT_BY_ACTION = {
  create: SOCKET_EVENTS.messageCreate,
  update: SOCKET_EVENTS.messageUpdate,
  delete: SOCKET_EVENTS.messageDelete,
} as const;

/**
 * Records `appMessage:<action>` for each message, in the caller's transaction, to whoever may
 * see the ticket. Call it after the transaction's row writes: `emit` takes the tenant's event
 * lock, and taking it last everywhere keeps writers of one tenant from deadlocking.
 */
export async function emitMessages(
  tx: EntityManager,
  emit: Emit,
  ticket: MessageTicket,
  action: MessageEventPayload['action'],
  messageIds: readonly number[],
): Promise<void> {
  await emitMessageRows(emit, ticket, action, await selectMessagesByIds(tx, messageIds));
}

/** emitMessages for rows already read as presented (messages.query.ts's columns). */
export async function emitMessageRows(
  emit: Emit,
  ticket: MessageTicket,
  action: MessageEventPayload['action'],
  rows: readonly MessageRow[],
): Promise<void> {
  for (const row of rows) {
    const payload: MessageEventPayload = { action, ticketId: ticket.id, message: presentMessage(row) };
    await emit(ticket.tenantId, EVENT_BY_ACTION[action], payload, ticketAudience(ticket));
  }
}
