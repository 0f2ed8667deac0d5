import type { EntityManager } from 'typeorm';
import type { Emit } from '../../realtime/domain-events';
import { applyTicketChange, selectTicket } from '../tickets/ticket-writes';
import { emitMessages } from './message-events';
import { lastMessagePreview, loadTicket } from './message-ticket';

/**
 * `appMessage:create` for messages the system queued in this transaction (automated texts:
 * greetings, absence messages, bot steps, a keyword's farewell), so an open chat shows them
 * before they are delivered. Call it last in the transaction, as emitMessages.
 */
export async function emitQueuedMessages(
  tx: EntityManager,
  emit: Emit,
  ticketId: number,
  messageIds: readonly number[],
): Promise<void> {
  if (messageIds.length === 0) return;
  const ticket = await loadTicket(tx, ticketId);
  if (ticket) await emitMessages(tx, emit, ticket, 'create', messageIds);
}

/**
 * Automated texts queued for a ticket: the last one becomes the ticket's last message (as the
 * farewell's and the chatbot's do; `ticket:update`), then `appMessage:create` for each, so the
 * list and an open chat show them before delivery.
 */
export async function announceAutomatedMessages(
  tx: EntityManager,
  emit: Emit,
  ticketId: number,
  messageIds: readonly number[],
  now: Date,
): Promise<void> {
  if (messageIds.length === 0) return;
  const current = await selectTicket(tx, ticketId);
  const [last] = (await tx.query(`SELECT body, "mediaType", "mediaName" FROM messages WHERE id = $1`, [
    messageIds[messageIds.length - 1],
  ])) as { body: string; mediaType: string; mediaName: string | null }[];
  if (current && last) {
    await applyTicketChange(tx, emit, current, { lastMessage: lastMessagePreview(last), lastMessageAt: now }, null);
  }
  await emitQueuedMessages(tx, emit, ticketId, messageIds);
}
