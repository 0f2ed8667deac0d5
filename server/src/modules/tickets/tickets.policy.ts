import { isAdminProfile } from '@shared/profiles';
import { AppError } from '../../core/app-error';
import type { TicketAudienceFacts } from '../../db/entities';
import { canSeeTicket, isPrivilegedViewer, type TicketViewer } from './ticket-visibility.policy';

/**
 * Who may do what with tickets (spec section 6), declared once:
 * - Every action starts with "same tenant and visible": another tenant's ticket and a ticket
 *   of the tenant the caller may not see are both 404 ERR_NO_TICKET_FOUND (nothing leaks).
 * - Reading (ticket, logs, notes), adding notes, recording a rating and marking as read: anyone
 *   who sees the ticket.
 * - Changing a ticket (start, resolve, return to queue, transfer, chatbot, channel, forced and
 *   null-user updates, classification fields): anyone who sees it, but a ticket assigned to
 *   another user only by privileged viewers (admins; supervisors unless supervisorAdmin).
 *   Reopening a closed ticket assigns it to the caller, as taking a free ticket does.
 * - Spying (looking without taking): privileged viewers.
 * - Taking over a contact's ongoing ticket (POST /tickets with assignExisting) and the mass
 *   actions (resolve pending, mass transfer): administrators (admin profile or support e-mail).
 * - Channel-wide actions (close all tickets of a channel, move them to another channel):
 *   privileged viewers (the channels screen is in the supervisor menu).
 * - Deleting a note: its author or a privileged viewer.
 */
export type TicketAction = 'read' | 'note' | 'rate' | 'markRead' | 'change' | 'reopen' | 'spy';

export type TicketsCollectionAction =
  'create' | 'createForOther' | 'assignExisting' | 'massResolve' | 'massTransfer' | 'channelWide';

const ANY_VIEWER: ReadonlySet<TicketAction> = new Set(['read', 'note', 'rate', 'markRead', 'reopen']);

export const ASSIGN_EXISTING_MESSAGE = 'Só um administrador pode atribuir este atendimento.';

/** Right after loading a ticket row: same tenant, visible, then the action's rule. */
export function authorizeTicket<T extends { tenantId: number }>(
  viewer: TicketViewer,
  action: TicketAction,
  row: T | null | undefined,
  facts: (row: T) => TicketAudienceFacts,
): T {
  if (!row || row.tenantId !== viewer.tenantId) throw new AppError('ERR_NO_TICKET_FOUND');
  const ticket = facts(row);
  if (!canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_TICKET_FOUND');
  if (ANY_VIEWER.has(action)) return row;
  const privileged = isPrivilegedViewer(viewer);
  if (action === 'spy') {
    if (!privileged) throw new AppError('ERR_NO_PERMISSION');
    return row;
  }
  if (ticket.userId !== null && ticket.userId !== viewer.userId && !privileged) throw new AppError('ERR_NO_PERMISSION');
  return row;
}

export function authorizeTicketsAction(viewer: TicketViewer, action: TicketsCollectionAction): void {
  switch (action) {
    case 'create':
      return;
    case 'createForOther':
    case 'channelWide':
      if (!isPrivilegedViewer(viewer)) throw new AppError('ERR_NO_PERMISSION');
      return;
    case 'assignExisting':
      if (!isAdminProfile(viewer.profile, viewer.email))
        throw new AppError('ERR_NO_PERMISSION', { message: ASSIGN_EXISTING_MESSAGE });
      return;
    case 'massResolve':
    case 'massTransfer':
      if (!isAdminProfile(viewer.profile, viewer.email)) throw new AppError('ERR_NO_PERMISSION');
      return;
  }
}

/** A note is deleted by its author or a privileged viewer. */
export function authorizeNoteDelete(viewer: TicketViewer, note: { userId: number | null }): void {
  if (note.userId !== viewer.userId && !isPrivilegedViewer(viewer)) throw new AppError('ERR_NO_PERMISSION');
}
