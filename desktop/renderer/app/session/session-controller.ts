import { LOGIN_REDIRECT_AFTER_401_MS, REQUEST_TIMEOUT_MS } from '@shared/limits';
import { currentApiBaseUrl, isDesktop } from '../config/app-config';
import { clearToasts, showToast } from '../feedback/toaster';
import { KEYS_CLEARED_ON_LOGOUT, KEYS_CLEARED_ON_UNAUTHORIZED, appStorage, type LoginResponse } from './app-storage';
import { darkModeChanged, sessionCleared, sessionStarted, tenantBlockedChanged, tokenRefreshed } from './session.slice';

/**
 * Session side effects that start outside React (an HTTP answer, a socket event): clearing the
 * session, the delayed redirect to login, token refresh. The app registers its store dispatch,
 * router navigation and realtime client here at start-up.
 */
interface SessionControllerDeps {
  dispatch(action: unknown): void;
  navigate(path: string): void;
  disconnectRealtime(): void;
  resetApiCache(): void;
}

let deps: SessionControllerDeps | null = null;
/** Runs on an explicit logout, after the server was told and before the session is cleared (the desktop wipes its cache). */
let logoutHook: (() => Promise<void>) | null = null;
let loggingOut = false;
let redirectTimer: ReturnType<typeof setTimeout> | null = null;

export function configureSessionController(value: SessionControllerDeps): void {
  deps = value;
}

export const isLoggingOut = (): boolean => loggingOut;

export function setLogoutHook(hook: (() => Promise<void>) | null): void {
  logoutHook = hook;
}

/**
 * Stores the login answer (spec section 3 keys) and starts the session in the store. Toasts of
 * the time before (the anonymous visit's 'Necessário realizar login') do not follow the user in.
 */
export function startSession(response: LoginResponse): void {
  clearToasts();
  if (redirectTimer) clearTimeout(redirectTimer);
  redirectTimer = null;
  loggingOut = false;
  appStorage.writeLogin(response, { keepRefreshToken: isDesktop() });
  const stored = appStorage.readSession();
  if (stored) deps?.dispatch(sessionStarted(stored));
}

/**
 * 401 (spec section 4): drop token, username, profile and userId, show the message and go to
 * login 2 s later, so the user can read why. Several failing calls produce one redirect.
 */
export function handleUnauthorized(message: string): void {
  if (loggingOut || redirectTimer) return;
  appStorage.clear(KEYS_CLEARED_ON_UNAUTHORIZED);
  deps?.dispatch(sessionCleared());
  deps?.disconnectRealtime();
  showToast(message, 'danger');
  redirectTimer = setTimeout(() => {
    redirectTimer = null;
    deps?.resetApiCache();
    deps?.navigate('/login');
  }, LOGIN_REDIRECT_AFTER_401_MS);
}

/**
 * Explicit logout: the server revokes the session; whatever it answers, the local session ends
 * and no 401 handling runs meanwhile (spec: "except on logout").
 */
export async function endSession(callServer: () => Promise<unknown>): Promise<void> {
  loggingOut = true;
  try {
    await callServer().catch(() => undefined);
    await logoutHook?.().catch(() => undefined);
  } finally {
    deps?.disconnectRealtime();
    appStorage.clear(KEYS_CLEARED_ON_LOGOUT);
    deps?.dispatch(sessionCleared());
    deps?.resetApiCache();
    deps?.navigate('/login');
    loggingOut = false;
  }
}

/**
 * POST /auth/refresh_token with the cookie (web) or the stored refresh token (desktop).
 *
 * The server rotates refresh tokens and treats a spent one as theft (it revokes the session),
 * so tabs must not refresh at the same time: a Web Lock serialises them across tabs, and a tab
 * that finds the stored token already renewed by another one (`staleToken` differs) reuses it.
 */
export async function requestNewToken(staleToken: string | null = null): Promise<string | null> {
  const renew = async (): Promise<string | null> => {
    const stored = appStorage.readToken();
    if (staleToken && stored && stored !== staleToken) {
      deps?.dispatch(tokenRefreshed(stored));
      return stored;
    }
    const refreshToken = appStorage.readRefreshToken();
    const response = await fetch(`${currentApiBaseUrl()}/auth/refresh_token`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(refreshToken ? { refreshToken } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const body = (await response.json().catch(() => null)) as { token?: string; refreshToken?: string } | null;
    if (!body?.token) return null;
    appStorage.writeTokens(body.token, body.refreshToken, { keepRefreshToken: isDesktop() });
    deps?.dispatch(tokenRefreshed(body.token));
    return body.token;
  };
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request('atende:token-refresh', renew) : renew();
}

export function markTenantBlocked(): void {
  deps?.dispatch(tenantBlockedChanged(true));
}

export function rememberDarkMode(isDark: boolean): void {
  appStorage.patchUser({ configs: { isDark } });
  deps?.dispatch(darkModeChanged(isDark));
}
