import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

/**
 * Campaigns (spec section 6: in the supervisor's menu): supervisors and administrators manage
 * them; agents get 403. Rows of another tenant are answered as not found by the service's loads
 * (every statement starts from the caller's tenant).
 */
export function authorizeCampaigns(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}

/**
 * Bulk sends (/massa): in the spec's main menu "for all", so every profile of the tenant; they
 * go through the same throttled campaign sender as campaigns.
 */
export function authorizeBulkSends(auth: AuthContext): void {
  requireProfile(auth, ['user', 'super', 'admin', 'superadmin']);
}
