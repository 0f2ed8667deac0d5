import { ADMIN_PROFILES, SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';
import type { AuthContext } from '../../core/auth-context';

/**
 * Who may read what is happening now (spec section 6): the ticket panel overview is admin only;
 * the agents-now list of the dashboard is for supervisors and admins. Agents get 403
 * ERR_NO_PERMISSION. What a supervisor sees inside is narrowed by the ticket visibility policy
 * (ticket-panel.service.ts); the tenant is always the caller's.
 */
export const ticketPanelPolicy = {
  authorize(auth: AuthContext, action: 'panel' | 'agentsNow'): void {
    requireProfile(auth, action === 'panel' ? ADMIN_PROFILES : SUPERVISOR_PROFILES);
  },
};
