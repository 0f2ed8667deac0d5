import type { EntityManager } from 'typeorm';
import { foldForMatch } from '@shared/validation/match-text';
import type { Queryable } from '../../core/tenant-catalog';
import type { Emit } from '../../realtime/domain-events';
import { pickQueueUser } from '../queues/auto-distribution';
import { resolveBySystem } from './ticket-closing';
import { applyTicketChange, lockTicket, selectTicket, sendQueueGreeting } from './ticket-writes';

/**
 * What a channel's settings do to its tickets (issue #14, item 5): the customer's closing
 * keyword resolves the ticket, and a ticket created in the channel's queue is auto-distributed
 * (none / random / balanced) and greeted with the queue's greeting.
 */

export interface ChannelAutomation {
  closingKeyword: string | null;
  autoDistribution: 'none' | 'random' | 'balanced';
  chatFlowId: number | null;
}

export async function channelAutomationOf(db: Queryable, tenantId: number, channelId: number): Promise<ChannelAutomation | null> {
  const [row] = (await db.query(
    `SELECT "closingKeyword", "autoDistribution", "chatFlowId" FROM channels WHERE id = $1 AND "tenantId" = $2`,
    [channelId, tenantId],
  )) as ChannelAutomation[];
  return row ?? null;
}

/** Whether the customer's whole message is the channel's closing keyword. */
export function isClosingKeyword(text: string, keyword: string | null): boolean {
  if (!keyword) return false;
  const folded = foldForMatch(keyword);
  return folded.length > 0 && foldForMatch(text) === folded;
}

/** The closing keyword: resolves the ticket by the resolve rules (rating, farewell, close). */
export async function closeOnKeyword(
  tx: EntityManager,
  emit: Emit,
  ticket: { id: number; tenantId: number },
  now: Date,
  queued: number[] = [],
): Promise<boolean> {
  if (!(await lockTicket(tx, ticket.tenantId, ticket.id))) return false;
  const current = await selectTicket(tx, ticket.id);
  if (!current) return false;
  return (await resolveBySystem(tx, emit, current, now, 'closingKeyword', queued)) !== 'none';
}

/**
 * A ticket the inbound pipeline just created in its channel's queue: assigned to a user of the
 * queue when the channel distributes (the ticket opens for them), then greeted with the queue's
 * greeting. Answers the user it went to, if any.
 */
export async function enterChannelQueue(
  tx: EntityManager,
  emit: Emit,
  ticket: { id: number; tenantId: number },
  automation: ChannelAutomation,
  now: Date,
  /** Receives the id of the greeting queued, for the caller to announce. */
  queued: number[] = [],
): Promise<{ userId: number | null; greeted: boolean }> {
  if (!(await lockTicket(tx, ticket.tenantId, ticket.id))) return { userId: null, greeted: false };
  let current = await selectTicket(tx, ticket.id);
  if (!current || current.queueId === null || current.status !== 'pending') return { userId: null, greeted: false };
  let userId: number | null = null;
  if (automation.autoDistribution !== 'none' && current.userId === null && !current.isGroup) {
    userId = await pickQueueUser(tx, current.tenantId, current.queueId, automation.autoDistribution);
    if (userId !== null) {
      current = await applyTicketChange(
        tx,
        emit,
        current,
        { userId, status: 'open', startedAt: now },
        {
          type: 'autoDistribution',
          userId: null,
          data: { toUserId: userId, mode: automation.autoDistribution, queueId: current.queueId },
        },
      );
    }
  }
  const greeting = await sendQueueGreeting(tx, current, now);
  if (greeting !== null) queued.push(greeting);
  return { userId, greeted: greeting !== null };
}
