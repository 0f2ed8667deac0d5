import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { REQUEST_TIMEOUT_MS } from '@shared/limits';
import { currentApiBaseUrl } from '../app/config/app-config';
import { connectionStatus } from '../app/connection/connection-status';
import { loadingOverlay } from '../app/feedback/loading-overlay.store';
import { showToast } from '../app/feedback/toaster';
import { takeEarlyResponse } from '../app/early/early-requests';
import { appStorage } from '../app/session/app-storage';
import { handleUnauthorized, isLoggingOut, requestNewToken, markTenantBlocked } from '../app/session/session-controller';
import { translate } from '../i18n/i18n-instance';
import { cachePolicy, isNoAnswer } from './cache-fallback-rule';
import { errorActionFor } from './error-actions';
import { describeError, errorCodeOf } from './error-mapper';
import { createTokenRefresher } from './token-refresher';

/**
 * Per-endpoint options (`extraOptions`):
 * - `anonymous`: a public call (login, password reset, public colours): no session handling,
 *   and its screen reports failures itself.
 * - `background`: polling and replay: no loading overlay and no toast (a failing poll would
 *   otherwise repeat its toast every 30 s).
 *
 * Every other failure gets the warning toast of spec section 8, so no screen can forget to
 * report one.
 */
export interface AppQueryOptions {
  anonymous?: boolean;
  background?: boolean;
}

const rawBaseQuery = fetchBaseQuery({
  // Read on every call: the desktop may learn its server address after start-up.
  baseUrl: '',
  // The start-up script's early calls answer the same requests of the app (boot.ts).
  fetchFn: (input, init) => (input instanceof Request ? takeEarlyResponse(input) : null) ?? fetch(input, init),
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders(headers) {
    const token = appStorage.readToken();
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

const withBaseUrl = (args: string | FetchArgs): string | FetchArgs => {
  const base = currentApiBaseUrl();
  if (typeof args === 'string') return base + args;
  return { ...args, url: base + args.url };
};

const refresher = createTokenRefresher(requestNewToken);

const isSessionExpired = (error: FetchBaseQueryError | undefined): boolean =>
  error?.status === 403 && errorCodeOf(error.data) === 'ERR_SESSION_EXPIRED';

/**
 * The desktop's local cache answers the console's reads the network cannot (issue #15); its code
 * loads only then, so the web app (no `window.desktop`) never fetches it.
 */
async function answerFromDesktopCache(args: string | FetchArgs, state: unknown, browserOnline: boolean): Promise<{ data: unknown } | null> {
  const desktop = hasDesktop() ? window.desktop : undefined;
  if (!desktop) return null;
  const { answerFromCache } = await import('../desktop-offline/cache-queries');
  const answer = await answerFromCache(desktop, args, { state, browserOnline });
  if (answer) connectionStatus.desktopChanged({ servedFromCache: true });
  return answer;
}

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;
const hasDesktop = () => typeof window !== 'undefined' && Boolean(window.desktop);

export const appBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, AppQueryOptions> = async (
  args,
  api,
  extraOptions = {},
) => {
  const cache = cachePolicy(api.endpoint, hasDesktop(), browserOnline());
  if (cache === 'skip-network') {
    const cached = await answerFromDesktopCache(args, api.getState(), false);
    if (cached) return cached;
  }
  const tracked = !extraOptions.background;
  if (tracked) loadingOverlay.requestStarted();
  try {
    const sentToken = appStorage.readToken();
    let result = await rawBaseQuery(withBaseUrl(args), api, extraOptions);
    if (cache && result.error && isNoAnswer(result.error.status)) {
      const cached = await answerFromDesktopCache(args, api.getState(), browserOnline());
      if (cached) return cached;
    }
    if (extraOptions.anonymous) return result;

    if (isSessionExpired(result.error)) {
      // Ask once for a new token and retry once (spec section 4); concurrent 403s share it.
      const token = await refresher.refresh(sentToken);
      if (!token) {
        handleUnauthorized(translate('errors.ERR_SESSION_EXPIRED'));
        return result;
      }
      result = await rawBaseQuery(withBaseUrl(args), api, extraOptions);
      if (isSessionExpired(result.error)) {
        handleUnauthorized(translate('errors.ERR_SESSION_EXPIRED'));
        return result;
      }
    }

    const error = result.error;
    if (!error) return result;
    if (error.status === 401 && !isLoggingOut()) {
      handleUnauthorized(describeError(error, translate));
    } else if (error.status === 402 && errorCodeOf(error.data) === 'ERR_ASAAS_OVERDUE') {
      markTenantBlocked();
      showToast(describeError(error, translate), 'warning');
    } else if (typeof error.status === 'number' && error.status >= 500) {
      showToast(describeError(error, translate), 'danger');
    } else if (isNoAnswer(error.status) && hasDesktop() && !browserOnline()) {
      // The desktop offline: the banner says so; a toast per failed read would bury the console.
    } else if (error.status !== 401 && !extraOptions.background) {
      const action = errorActionFor(errorCodeOf(error.data), appStorage.readSession()?.profile ?? null);
      showToast(describeError(error, translate), 'warning', action ? { text: translate(action.labelKey), href: `#${action.to}` } : undefined);
    }
    return result;
  } finally {
    if (tracked) loadingOverlay.requestFinished();
  }
};
