import type { CacheAccount } from '../cache/cache-database';
import type { OutboxError } from './outbox-items';

/**
 * The outbox's calls to the server's own HTTP API (the routes the console uses), with the
 * session's access token. Every answer is sorted into what the replay does next; nothing here
 * knows about rows or order.
 */

export interface OutboxHttpOptions {
  /** The server's base URL, e.g. https://app.example.com (the routes are at its root). */
  serverUrl: string;
  /** The session's current access token; null when logged out (the replay stops). */
  getAccessToken(): string | null | Promise<string | null>;
  /**
   * Asked once when the server says the token is expired or invalid; answers the new token, or
   * null when the session cannot be refreshed (the replay stops, the queue stays).
   */
  refreshAccessToken(): Promise<string | null>;
  /** The cache's account: a token of another tenant or user must not replay this queue. */
  account: CacheAccount;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request; a request that times out may have been applied (the replay is idempotent). */
  timeoutMs?: number;
}

export type HttpOutcome =
  /** 2xx with the parsed body. */
  | { kind: 'ok'; status: number; body: unknown }
  /** A 4xx the server meant: the action itself or the ticket's state is refused. */
  | { kind: 'refused'; error: OutboxError; fields: { path: string; message: string }[] }
  /** 5xx, 408, or a known temporary refusal: the item waits and tries again. */
  | { kind: 'transient'; error: OutboxError; retryAfterMs: number | null }
  /** No answer (network down, the connection dropped, a timeout): stop, the queue waits for the connection. */
  | { kind: 'offline'; error: OutboxError }
  /** 429: the server asks every client to slow down: stop the pass. */
  | { kind: 'rateLimited'; error: OutboxError; retryAfterMs: number | null }
  /** No token, or still refused after one refresh; or a token of another account. */
  | { kind: 'unauthenticated'; error: OutboxError };

export interface OutboxHttp {
  request(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<HttpOutcome>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Refusals that clear without the agent: the ticket's channel is disconnected (reactions go
 * through the provider at once) or the provider did not answer.
 */
const TEMPORARY_CODES = new Set(['ERR_WAPP_NOT_INITIALIZED', 'ERR_CHANNEL_UNAVAILABLE']);

/** The server's answers to a token it will not take: 401, or 403 for an expired session (spec section 4). */
function isAuthRefusal(status: number, code: string): boolean {
  return status === 401 || (status === 403 && code === 'ERR_SESSION_EXPIRED');
}

/** Whose an access token is, read without verifying (the server verifies); null when unreadable. */
export function tokenAccount(token: string): { tenantId: number; userId: number } | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      tid?: unknown;
      sub?: unknown;
    };
    const tenantId = Number(claims.tid);
    const userId = Number(claims.sub);
    return Number.isSafeInteger(tenantId) && Number.isSafeInteger(userId) ? { tenantId, userId } : null;
  } catch {
    return null;
  }
}

function retryAfterMs(headers: Headers): number | null {
  const seconds = Number(headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The server's `{error, message, fields}` answer, or a stand-in for a body that is not one. */
function serverError(status: number, body: unknown): { error: OutboxError; fields: { path: string; message: string }[] } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; message?: unknown; fields?: unknown };
  return {
    error: {
      code: typeof b.error === 'string' ? b.error : `HTTP_${status}`,
      message: typeof b.message === 'string' ? b.message : `O servidor respondeu ${status}.`,
      status,
    },
    fields: Array.isArray(b.fields) ? (b.fields as { path: string; message: string }[]) : [],
  };
}

function classify(res: Response, body: unknown): HttpOutcome {
  if (res.ok) return { kind: 'ok', status: res.status, body };
  const { error, fields } = serverError(res.status, body);
  if (res.status === 429) return { kind: 'rateLimited', error, retryAfterMs: retryAfterMs(res.headers) };
  if (res.status >= 500 || res.status === 408 || TEMPORARY_CODES.has(error.code)) {
    return { kind: 'transient', error, retryAfterMs: retryAfterMs(res.headers) };
  }
  if (isAuthRefusal(res.status, error.code)) return { kind: 'unauthenticated', error };
  return { kind: 'refused', error, fields };
}

const offline = (cause: unknown): HttpOutcome => ({
  kind: 'offline',
  error: {
    code: 'ERR_OUTBOX_OFFLINE',
    message: `Sem resposta do servidor: ${(cause as Error)?.message ?? String(cause)}`,
    status: null,
  },
});

const noSession = (message: string): HttpOutcome => ({
  kind: 'unauthenticated',
  error: { code: 'ERR_OUTBOX_NO_SESSION', message, status: null },
});

export function createOutboxHttp(options: OutboxHttpOptions): OutboxHttp {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.serverUrl.replace(/\/+$/, '');

  /** One request with a given token; a thrown fetch (or a body cut mid-way) is `offline`. */
  async function once(method: string, path: string, token: string, body: unknown): Promise<HttpOutcome> {
    try {
      const res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      return classify(res, await parseBody(res));
    } catch (cause) {
      return offline(cause);
    }
  }

  /** The token to use, refused when it belongs to another tenant or user than the cache. */
  function checkedToken(token: string | null): string | HttpOutcome {
    if (!token) return noSession('Sessão encerrada: entre novamente para enviar o que ficou na fila.');
    const owner = tokenAccount(token);
    if (owner && (owner.tenantId !== options.account.tenantId || owner.userId !== options.account.userId)) {
      return noSession('A sessão é de outra empresa ou usuário: a fila desta conta não é enviada com ela.');
    }
    return token;
  }

  return {
    async request(method, path, body) {
      const token = checkedToken(await options.getAccessToken());
      if (typeof token !== 'string') return token;
      const first = await once(method, path, token, body);
      if (first.kind !== 'unauthenticated') return first;
      // Access tokens are short-lived: one refresh and one retry, as the web console does.
      const fresh = checkedToken(await options.refreshAccessToken());
      if (typeof fresh !== 'string') return fresh;
      return once(method, path, fresh, body);
    },
  };
}
