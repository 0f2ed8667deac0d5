import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';
import { canSeeTicket, isPrivilegedViewer, visibilitySql, type TicketViewer } from '../tickets/ticket-visibility.policy';
import { ticketAudience, type MessageTicket } from './message-ticket';

/**
 * Who may do what with the messages of a ticket (spec section 6). Message access IS ticket
 * visibility (tickets/ticket-visibility.policy.ts, the one rule the ticket list, its events and
 * GET /sync use), so a message route never shows a ticket the ticket list would hide:
 * - another tenant's ticket, and a ticket of the caller's tenant hidden from the caller: both
 *   404 ERR_NO_TICKET_FOUND, as the tickets module answers (a hidden ticket's existence does not
 *   leak either); a message on such a ticket: 404 ERR_NOT_FOUND 'Mensagem não encontrada.';
 * - send, react, schedule, forward, retry: anyone who sees the ticket;
 * - edit and delete for everyone: the message's author or a privileged viewer (admin, and
 *   supervisors unless `supervisorAdmin` takes that away);
 * - birthday messages: supervisors and administrators (the "Birthdays" menu is theirs).
 */

/** Right after loading a ticket: 404 for another tenant's and for a hidden one alike. */
export function authorizeTicket(auth: AuthContext, viewer: TicketViewer, ticket: MessageTicket | null): MessageTicket {
  if (!ticket || ticket.tenantId !== auth.tenantId) throw new AppError('ERR_NO_TICKET_FOUND');
  const audience = ticketAudience(ticket);
  if (audience.scope !== 'ticket' || !canSeeTicket(viewer, audience.ticket, { showAll: true })) {
    throw new AppError('ERR_NO_TICKET_FOUND');
  }
  return ticket;
}

/** SQL condition over `tickets t` keeping the tickets the viewer may see (null: no restriction). */
export function visibleTicketsSql(viewer: TicketViewer, params: unknown[]): string | null {
  return visibilitySql(viewer, { showAll: true }, params);
}

/** Editing or deleting a sent message: its author, or a privileged viewer. */
export function authorizeMessageChange(
  auth: AuthContext,
  viewer: TicketViewer,
  message: { userId: number | null; fromMe: boolean },
): void {
  if (!message.fromMe) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: 'messageId', message: 'só é possível alterar mensagens enviadas pelo atendimento' }],
    });
  }
  if (message.userId !== auth.userId && !isPrivilegedViewer(viewer)) throw new AppError('ERR_NO_PERMISSION');
}

export function authorizeBirthdayMessages(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}

/**
 * Whether reading the thread counts as the agent reading it (resets the unread counter): the
 * assigned agent, or anyone on an unassigned ticket. A supervisor looking into someone else's
 * ticket is spying (spec section 4) and leaves the counter alone.
 */
export function readingMarksRead(auth: AuthContext, ticket: MessageTicket): boolean {
  return ticket.userId === null || ticket.userId === auth.userId;
}
