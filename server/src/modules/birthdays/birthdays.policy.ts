import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

/** The birthdays screen (spec section 2: in the supervisor's menu): supervisors and admins; agents 403. */
export function authorizeBirthdays(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}
