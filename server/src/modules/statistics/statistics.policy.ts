import { isAdminProfile } from '@shared/profiles';
import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';
import { isPrivilegedViewer, type TicketViewer } from '../tickets/ticket-visibility.policy';

/**
 * Statistics (spec section 6: dashboards and reports are for administrators and supervisors):
 * admin, super and the platform superadmin; an agent (profile `user`) gets 403 ERR_NO_PERMISSION.
 * Every query starts from the caller's tenant, so there is no foreign row to hide.
 */
export function authorizeStatistics(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}

/**
 * Which queues' facts a caller counts. `queueIds` null: every queue; `withoutQueue`: facts of
 * tickets without a queue too.
 */
export interface StatisticsScope {
  queueIds: number[] | null;
  withoutQueue: boolean;
}

/**
 * Administrators count the whole tenant (or the queues they ask for). Supervisors follow the
 * ticket visibility policy without showAll: the queues they belong to, plus tickets without a
 * queue when the policy shows those to them (a privileged supervisor, or `nullticket` on); asking
 * for other queues narrows to the ones they may see. Statistics are per queue, so the policy's
 * other openers (own tickets, groups or closed tickets for all) do not widen them.
 */
export function statisticsScope(viewer: TicketViewer, requested?: readonly number[]): StatisticsScope {
  const asked = requested && requested.length > 0 ? [...new Set(requested)] : null;
  if (isAdminProfile(viewer.profile, viewer.email)) {
    return asked ? { queueIds: asked, withoutQueue: false } : { queueIds: null, withoutQueue: true };
  }
  const mine = new Set(viewer.queueIds);
  if (asked) return { queueIds: asked.filter((id) => mine.has(id)), withoutQueue: false };
  return { queueIds: [...mine], withoutQueue: isPrivilegedViewer(viewer) || viewer.flags.nullticket };
}
