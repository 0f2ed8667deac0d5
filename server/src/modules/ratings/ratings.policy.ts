import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

/**
 * The ratings list (spec section 2: "evaluations" is in the supervisor's menu): supervisors and
 * admins of the tenant; an agent gets 403 ERR_NO_PERMISSION before the query is read. Which
 * ratings a supervisor sees follows the ticket visibility policy (the rated ticket).
 */
export function authorizeRatings(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}
