import type { ErrorCode } from '@shared/errors';
import type { Profile } from '@shared/profiles';
import { profileMayOpen } from '../app/routing/route-table';

/**
 * Errors whose toast carries a way out: a button to the screen that fixes the cause. Offered
 * only to profiles that may open that screen (an agent is not sent to a page it cannot see).
 */
export interface ErrorAction {
  /** Route path, opened through the hash router. */
  to: string;
  labelKey: string;
}

const ERROR_ACTIONS: Partial<Record<ErrorCode, ErrorAction>> = {
  ERR_NO_DEF_WAPP_FOUND: { to: '/sessoes', labelKey: 'channels.openConnections' },
  ERR_CONNECTION_LIMIT: { to: '/sessoes', labelKey: 'channels.openConnections' },
};

export function errorActionFor(code: ErrorCode | null, profile: Profile | null): ErrorAction | null {
  const action = code ? ERROR_ACTIONS[code] : undefined;
  if (!action || !profileMayOpen(profile, action.to)) return null;
  return action;
}
