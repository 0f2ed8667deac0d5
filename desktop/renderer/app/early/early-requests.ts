/**
 * The dashboard's first calls, made by the start-up script (boot.ts) while the app's main script
 * is still downloading and compiling, and handed to the app's API layer when it asks for the very
 * same request (app-base-query.ts): the answers arrive a few hundred milliseconds earlier than
 * calls made by the app's own start (issue #13, start-up: the administrator's first chart).
 *
 * An early answer is taken once, for the same URL and the same token, within EARLY_MAX_AGE_MS;
 * anything else goes out as usual. The module is shared by the two scripts (one instance).
 */

import { REQUEST_TIMEOUT_MS } from '@shared/limits';

/** An early answer older than this is not used (the app asks again). */
export const EARLY_MAX_AGE_MS = 15_000;

interface Early {
  response: Promise<Response>;
  at: number;
}

const pending = new Map<string, Early>();
let appStarted = false;

const keyOf = (absoluteUrl: string, token: string) => `${token}\n${absoluteUrl}`;

/** The URL as a Request made from it reports it (resolved against the document). */
export const absoluteUrl = (url: string): string => new URL(url, document.baseURI).href;

/** boot.ts: a GET of the API with the stored token, kept for the app to take over. */
export function startEarlyGet(url: string, token: string): void {
  if (appStarted) return;
  const href = absoluteUrl(url);
  // The API layer's own time limit (fetchBaseQuery's timeout does not reach a call it did not make).
  const response = fetch(href, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  // Never taken (the page changed its mind): its failure is nobody's error.
  response.catch(() => undefined);
  pending.set(keyOf(href, token), { response, at: performance.now() });
}

/** The app's own start: from here on every call goes out by itself. */
export function markAppStarted(): void {
  appStarted = true;
  setTimeout(() => pending.clear(), EARLY_MAX_AGE_MS);
}

/** The API's fetch: the early answer to this very request, once; null when there is none. */
export function takeEarlyResponse(request: Request): Promise<Response> | null {
  if (pending.size === 0 || request.method !== 'GET') return null;
  const auth = request.headers.get('authorization') ?? '';
  const key = keyOf(request.url, auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '');
  const early = pending.get(key);
  if (!early) return null;
  pending.delete(key);
  return performance.now() - early.at <= EARLY_MAX_AGE_MS ? early.response : null;
}
