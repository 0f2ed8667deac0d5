import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

/**
 * Reports (spec sections 2 and 6, issue #13): supervisors and administrators of the tenant (and
 * the platform super administrator, in their own tenant); an agent is refused (403
 * ERR_NO_PERMISSION) on every call. Every report reads the caller's tenant only, and the ticket
 * reports show a supervisor the tickets the ticket visibility policy lets them see.
 */
export function authorizeReports(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}
