import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import { AppError } from '../core/app-error';

/** The packaged desktop console's own origin (desktop/main/config/desktop.config.ts). */
export const DESKTOP_APP_ORIGIN = 'app://desktop';

export type OriginDecision =
  /** No Origin header: not a browser's cross-origin call (server-to-server, curl, webhooks). */
  | { kind: 'none' }
  | { kind: 'allowed'; credentials: boolean }
  | { kind: 'refused' };

/**
 * The one rule deciding which browser origins may call the API and open sockets (HTTP CORS,
 * the CSRF check below, Socket.IO's handshake):
 * - the server's own origin (the web app it serves), compared by host:port with the request's
 *   Host (X-Forwarded-Host behind a trusted proxy), so it needs no configuration;
 * - the desktop app's `app://desktop`;
 * - each origin named in CORS_ORIGINS, with credentials;
 * - with `*` in CORS_ORIGINS, any other origin, but never with credentials (the browser then
 *   sends no cookie, so the refresh cookie cannot be used from a foreign page).
 */
export function decideOrigin(origin: string | undefined, requestHost: string, corsOrigins: readonly string[]): OriginDecision {
  if (!origin) return { kind: 'none' };
  if (origin === DESKTOP_APP_ORIGIN || corsOrigins.includes(origin)) return { kind: 'allowed', credentials: true };
  if (sameHost(origin, requestHost)) return { kind: 'allowed', credentials: true };
  if (corsOrigins.includes('*')) return { kind: 'allowed', credentials: false };
  return { kind: 'refused' };
}

function sameHost(origin: string, requestHost: string): boolean {
  if (!requestHost) return false;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    // Parsed the same way so default ports (":80", ":443") compare equal.
    return url.host === new URL(`${url.protocol}//${requestHost}`).host;
  } catch {
    return false;
  }
}

/** Origins as written in CORS_ORIGINS: comma-separated, trailing slashes ignored. */
export function parseCorsOrigins(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/** What the server says at start about its CORS setting (null: nothing to say). */
export function corsStartWarning(corsOrigins: readonly string[]): string | null {
  if (!corsOrigins.includes('*')) return null;
  return (
    "CORS_ORIGINS contains '*': any origin may call the API, but never with credentials (a wildcard with " +
    'credentials is refused); name each origin that needs cookies in CORS_ORIGINS'
  );
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from a refused origin. CORS alone only
 * hides the answer: a "simple" cross-origin POST (a form, or fetch without a preflight) would
 * still run on the server, and a sibling subdomain or another port is same-site, so the
 * SameSite refresh cookie would travel with it.
 */
export function refuseForeignOrigins(corsOrigins: readonly string[]): Middleware {
  return async (ctx, next) => {
    if (!SAFE_METHODS.has(ctx.method) && decideOrigin(ctx.get('origin'), ctx.host, corsOrigins).kind === 'refused') {
      throw new AppError('ERR_NO_PERMISSION');
    }
    await next();
  };
}

/** The request's host as Koa reads it (X-Forwarded-Host only behind a trusted proxy), for Socket.IO. */
export function hostOf(req: { headers: IncomingHttpHeaders }, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-host'] : undefined;
  const value = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim() || req.headers.host || '';
  return value;
}
