import { SOCKET_EVENTS } from '@shared/events';
import type { TicketDeletePayload } from '@shared/schemas/tickets';
import type { AuthContext } from '../core/auth-context';
import type { EventAudience } from '../db/entities';
import { canSeeTicket, type TicketViewer } from '../modules/tickets/ticket-visibility.policy';

/**
 * Who receives what: the one rule used by the socket fan-out and by GET /sync. Ticket-scoped
 * events follow the ticket visibility policy (modules/tickets/ticket-visibility.policy.ts), so a
 * socket receives exactly the ticket events whose ticket the REST list would show its user.
 */
export interface Recipient extends Pick<AuthContext, 'tenantId' | 'userId' | 'profile'> {
  /** The user's queues and the tenant's visibility settings; required for ticket events. */
  viewer?: TicketViewer;
}

export function canReceive(recipient: Recipient, tenantId: number, audience: EventAudience): boolean {
  if (recipient.tenantId !== tenantId) return false;
  switch (audience.scope) {
    case 'tenant':
      return true;
    case 'user':
      return audience.userId === recipient.userId;
    case 'users':
      return audience.userIds.includes(recipient.userId);
    case 'profiles':
      return audience.profiles.includes(recipient.profile);
    case 'ticket':
      // Without the viewer's facts nothing proves the ticket visible: never more than the list.
      return recipient.viewer ? canSeeTicket(recipient.viewer, audience.ticket) : false;
    default:
      return false;
  }
}

export interface Delivery {
  name: string;
  payload: unknown;
}

/**
 * What one recipient gets of one event: the event itself, nothing, or, for a ticket change
 * that takes the ticket out of the recipient's sight, `ticket:delete` {action, ticketId, reason}
 * carried under the same seq (so replay bookkeeping is unchanged).
 */
export function deliveryFor(
  recipient: Recipient,
  event: { tenantId: number; name: string; payload: unknown; audience: EventAudience },
): Delivery | null {
  if (canReceive(recipient, event.tenantId, event.audience)) return { name: event.name, payload: event.payload };
  const audience = event.audience;
  if (
    audience.scope === 'ticket' &&
    audience.previous &&
    recipient.viewer &&
    recipient.tenantId === event.tenantId &&
    canSeeTicket(recipient.viewer, audience.previous)
  ) {
    const payload: TicketDeletePayload = { action: 'delete', ticketId: audience.ticket.ticketId, reason: 'hidden' };
    return { name: SOCKET_EVENTS.ticketDelete, payload };
  }
  return null;
}

/**
 * The Socket.IO rooms an audience maps to; sockets join the rooms of their identity. Ticket
 * events have none: the hub decides per socket (deliveryFor), since visibility depends on each
 * user's queues and the tenant's settings, which no fixed room can express.
 */
export function roomsFor(tenantId: number, audience: EventAudience): string[] {
  switch (audience.scope) {
    case 'tenant':
      return [`tenant:${tenantId}`];
    case 'user':
      return [`user:${audience.userId}`];
    case 'users':
      return audience.userIds.map((id) => `user:${id}`);
    case 'profiles':
      return audience.profiles.map((p) => `tenant:${tenantId}:profile:${p}`);
    default:
      return [];
  }
}

export function roomsOf(auth: Pick<AuthContext, 'tenantId' | 'userId' | 'profile'>): string[] {
  return [`tenant:${auth.tenantId}`, `user:${auth.userId}`, `tenant:${auth.tenantId}:profile:${auth.profile}`];
}
