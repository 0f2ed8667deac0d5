import type { AuthContext } from '../core/auth-context';
import type { EventAudience } from '../db/entities';

/**
 * Who may receive an event: the one rule used by the socket fan-out and by GET /sync.
 * (Ticket visibility, spec section 6, joins here with the tickets module.)
 */
export function canReceive(auth: Pick<AuthContext, 'tenantId' | 'userId' | 'profile'>, tenantId: number, audience: EventAudience): boolean {
  if (auth.tenantId !== tenantId) return false;
  switch (audience.scope) {
    case 'tenant':
      return true;
    case 'user':
      return audience.userId === auth.userId;
    case 'profiles':
      return audience.profiles.includes(auth.profile);
    case 'ticket':
      // Conservative until the ticket visibility policy joins here: supervisors and
      // administrators, and the assigned agent. Never more than the REST list would show.
      return auth.profile !== 'user' || audience.ticket.userId === auth.userId;
    default:
      return false;
  }
}

/** The Socket.IO rooms an audience maps to; sockets join the rooms of their identity. */
export function roomsFor(tenantId: number, audience: EventAudience): string[] {
  switch (audience.scope) {
    case 'tenant':
      return [`tenant:${tenantId}`];
    case 'user':
      return [`user:${audience.userId}`];
    case 'profiles':
      return audience.profiles.map((p) => `tenant:${tenantId}:profile:${p}`);
    case 'ticket':
      return [
        ...(['super', 'admin', 'superadmin'] as const).map((p) => `tenant:${tenantId}:profile:${p}`),
        ...(audience.ticket.userId ? [`user:${audience.ticket.userId}`] : []),
      ];
    default:
      return [];
  }
}

export function roomsOf(auth: Pick<AuthContext, 'tenantId' | 'userId' | 'profile'>): string[] {
  return [`tenant:${auth.tenantId}`, `user:${auth.userId}`, `tenant:${auth.tenantId}:profile:${auth.profile}`];
}
