import type { SupportAccessResponse } from '@shared/schemas/admin-tenants';
import { appStorage, STORAGE_KEYS, type LoginResponse } from '../../app/session/app-storage';
import { startSession } from '../../app/session/session-controller';

/**
 * Support access in the browser (issue #17, part 10). Entering keeps the super administrator's
 * own login aside, signs in with the support token and remembers the access for the banner;
 * leaving (exit button or time over) ends it on the server and puts the super administrator's
 * login back. The page reloads on each switch so every cache and socket starts over.
 */
const SUPPORT_KEY = 'supportAccess';
const RETURN_KEY = 'supportReturn';

export interface StoredSupportAccess {
  id: number;
  tenantId: number;
  tenantName: string;
  userId: number;
  expiresAt: string;
}

export function readSupportAccess(): StoredSupportAccess | null {
  try {
    const raw = localStorage.getItem(SUPPORT_KEY);
    return raw ? (JSON.parse(raw) as StoredSupportAccess) : null;
  } catch {
    return null;
  }
}

export function enterSupportAccess(response: SupportAccessResponse): void {
  const token = appStorage.readToken();
  const user = localStorage.getItem(STORAGE_KEYS.user);
  if (token && user) localStorage.setItem(RETURN_KEY, JSON.stringify({ ...JSON.parse(user), token }));
  const access: StoredSupportAccess = {
    id: response.support.id,
    tenantId: response.tenantId,
    tenantName: response.support.tenantName,
    userId: response.userId,
    expiresAt: response.support.expiresAt,
  };
  localStorage.setItem(SUPPORT_KEY, JSON.stringify(access));
  const { support: _support, ...login } = response;
  startSession(login as LoginResponse);
  window.location.hash = '#/';
  window.location.reload();
}

export function forgetSupportAccess(): void {
  localStorage.removeItem(SUPPORT_KEY);
}

/** Ends the access on the server (ignoring failures: an expired one is already refused) and returns to the super administrator. */
export async function leaveSupportAccess(endOnServer: () => Promise<unknown>): Promise<void> {
  await endOnServer().catch(() => undefined);
  forgetSupportAccess();
  const saved = localStorage.getItem(RETURN_KEY);
  localStorage.removeItem(RETURN_KEY);
  if (saved) {
    startSession(JSON.parse(saved) as LoginResponse);
    window.location.hash = '#/tenants';
  } else {
    appStorage.clear([STORAGE_KEYS.token]);
    window.location.hash = '#/login';
  }
  window.location.reload();
}
