import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

/**
 * Protocols and notes across tickets (`/protocolos`, `/notas`: spec section 2 puts both in the
 * supervisor menu): supervisors and administrators of the tenant (and the platform super
 * administrator, in their own tenant); an agent is refused (403 ERR_NO_PERMISSION) whatever they
 * send. Which rows a caller reads is the ticket visibility policy's answer, as for the reports.
 */
export function authorizeTicketRecords(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}
