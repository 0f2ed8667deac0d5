/**
 * Which failed requests the desktop answers from its local cache (issue #15). Part of the main
 * script on purpose and tiny: the API layer asks it on every failure, and only a `true` loads the
 * desktop's cache code (a dynamic import, never in the web app, which has no `window.desktop`).
 */

/** The console's reads the cache can answer: ticket list and detail, thread pages, searches. */
export const CACHE_ANSWERED_ENDPOINTS: ReadonlySet<string> = new Set([
  'getTickets',
  'getTicket',
  'getMessages',
  'searchTicketMessages',
  'searchTickets',
  'searchMessages',
]);

/** fetchBaseQuery's statuses for "no answer": the request failed on the way or timed out. */
export const isNoAnswer = (status: unknown): boolean => status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR';

/**
 * 'skip-network': the browser is offline, ask the cache at once; 'after-failure': try the network
 * and ask the cache when no answer comes; null: network only (the web app, or an endpoint the
 * cache cannot answer).
 */
export function cachePolicy(endpoint: string, hasDesktop: boolean, browserOnline: boolean): 'skip-network' | 'after-failure' | null {
  if (!hasDesktop || !CACHE_ANSWERED_ENDPOINTS.has(endpoint)) return null;
  return browserOnline ? 'after-failure' : 'skip-network';
}
