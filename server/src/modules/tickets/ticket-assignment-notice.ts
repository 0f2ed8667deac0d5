import type { Queryable } from '../../core/tenant-catalog';
import type { Emit } from '../../realtime/domain-events';
import { notifyUser } from '../notifications/user-notifications';

/** The facts of a ticket the notice reads. */
interface TicketFacts {
  id: number;
  tenantId: number;
  userId: number | null;
  status: string;
}

/** The bell's text for a ticket handed to its new agent (issue #18). */
export const transferNoticeText = (ticketId: number, actorName: string): string =>
  `Ticket #${ticketId} transferido para você por ${actorName}`;

/**
 * A ticket that someone handed to another user (a transfer, an assignment, a mass transfer, a
 * reopening or a new ticket for them) puts a notification in that user's bell (kind 'transfer',
 * link: the ticket), in the transaction of the change, so each such change notifies once.
 * Nothing for taking a ticket oneself, for a change by the system (chatbot, sweeps), for a
 * ticket that stays with the same user, nor for one that leaves the active states.
 */
export async function noticeTicketAssignment(
  tx: Queryable,
  emit: Emit,
  before: Pick<TicketFacts, 'userId'> | null,
  after: TicketFacts,
  actorUserId: number | null,
): Promise<void> {
  if (actorUserId === null || after.userId === null || after.userId === actorUserId) return;
  if (before && before.userId === after.userId) return;
  if (after.status !== 'open' && after.status !== 'pending') return;
  const [actor] = (await tx.query(`SELECT name FROM users WHERE id = $1 AND "tenantId" = $2`, [actorUserId, after.tenantId])) as {
    name: string;
  }[];
  // Tickets change within the caller's tenant: the actor is found unless deleted meanwhile.
  if (!actor) return;
  await notifyUser(tx, emit, {
    tenantId: after.tenantId,
    userId: after.userId,
    kind: 'transfer',
    message: transferNoticeText(after.id, actor.name),
    link: `/atendimento/${after.id}`,
    createdById: actorUserId,
  });
}
