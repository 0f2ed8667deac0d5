import type { SyncResponse } from '@shared/events';
import type { ContactDto } from '@shared/schemas/contacts';
import type { MessagesPage } from '@shared/schemas/messages';
import { RECORD_ID_MAX } from '@shared/schemas/record-id';
import type { TicketListResponse, TicketStatus } from '@shared/schemas/tickets';

/**
 * The few server routes the sync reads (docs/api.md), over the global fetch. Failures are typed
 * so the engine can tell "no network" (offline banner, retry) from "the server said no".
 */

export interface SyncApiOptions {
  /** The server's URL, e.g. https://app.example.com (paths are appended to it). */
  baseUrl: string;
  /** The access token of the session; null when logged out. Called for every request. */
  getAccessToken(): string | null | Promise<string | null>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request; a hung connection must not hold the sync forever. */
  timeoutMs?: number;
}

/** The request never got an HTTP answer (no network, DNS, refused, timeout). */
export class SyncNetworkError extends Error {
  readonly code = 'ERR_SYNC_NETWORK';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SyncNetworkError';
  }
}

/** The server answered with an error status (or with something that is not its JSON). */
export class SyncHttpError extends Error {
  readonly code = 'ERR_SYNC_HTTP';
  constructor(
    readonly status: number,
    /** The server's error code (ERR_INVALID_TOKEN, ERR_NO_TICKET_FOUND …) when it sent one. */
    readonly serverError: string | null,
    path: string,
  ) {
    super(`GET ${path} answered ${status}${serverError ? ` ${serverError}` : ''}`);
    this.name = 'SyncHttpError';
  }
}

/**
 * A `before` above every message id: the newest page by keyset. GET /messages marks the thread
 * read when its FIRST page (no `before`) is read by the ticket's agent; a background sync must
 * not do that on the agent's behalf, and the keyset form of the same page does not.
 */
export const NEWEST_PAGE_BEFORE = RECORD_ID_MAX;

/**
 * `since` above any seq a tenant can reach (the route accepts up to 15 digits): the answer is
 * `reload: true` with the tenant's current `lastSeq` and no events, a cheap way to read the head.
 */
const SEQ_PROBE = '999999999999999';

const DEFAULT_TIMEOUT_MS = 30_000;

export interface SyncApi {
  /** GET /sync?since=<seq>. */
  eventsSince(since: number): Promise<SyncResponse>;
  /** The tenant's current seq (the point a snapshot is consistent from). */
  headSeq(): Promise<number>;
  /** GET /tickets for one tab, newest activity first; `cursor` from the previous page. */
  ticketPage(status: TicketStatus, pageSize: number, cursor: string | null): Promise<TicketListResponse>;
  /** GET /messages/{ticketId}, newest first, older than `before` (never marks the thread read). */
  threadPage(ticketId: number, before: number): Promise<MessagesPage>;
  /** GET /contacts/{id}. */
  contact(contactId: number): Promise<ContactDto>;
}

export function createSyncApi(options: SyncApiOptions): SyncApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function get<T>(path: string, query: Record<string, string | number | boolean> = {}): Promise<T> {
    const token = await options.getAccessToken();
    if (!token) throw new SyncHttpError(401, 'ERR_SESSION_EXPIRED', path);
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    // Read at call time, not at creation: tests and the app may swap the global fetch.
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(`${base}${path}${search ? `?${search}` : ''}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SyncNetworkError(`GET ${path} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      // The connection dropped mid-body, or a proxy answered with HTML: neither is the server's answer.
      if (response.ok) throw new SyncNetworkError(`GET ${path}: the answer could not be read`, { cause: error });
      body = null;
    }
    if (!response.ok) {
      const code = (body as { error?: unknown } | null)?.error;
      throw new SyncHttpError(response.status, typeof code === 'string' ? code : null, path);
    }
    return body as T;
  }

  return {
    eventsSince: (since) => get<SyncResponse>('/sync', { since }),
    async headSeq() {
      const answer = await get<SyncResponse>('/sync', { since: SEQ_PROBE });
      return answer.lastSeq;
    },
    ticketPage: (status, pageSize, cursor) =>
      get<TicketListResponse>('/tickets', { status, pageSize, count: false, ...(cursor ? { cursor } : {}) }),
    threadPage: (ticketId, before) => get<MessagesPage>(`/messages/${ticketId}`, { before }),
    contact: (contactId) => get<ContactDto>(`/contacts/${contactId}`),
  };
}
