import type { CacheDatabase } from '../cache/cache-database';
import { createMediaStore, type MediaUsage } from './media-store';

/**
 * The files of cached messages (images, audio, documents), kept in the account's encrypted cache
 * so the console shows them offline (issue #15: "media cached within a size budget, LRU,
 * configurable"). Cache first: a cached file is answered without the network (and becomes the
 * most recently used); otherwise GET /messages/media/{id} with the session's token, stored when
 * it fits, and the least recently used files evicted down to the budget in the same transaction.
 */

export const MEDIA_BUDGET_DEFAULT_BYTES = 200 * 1024 * 1024;
export const MEDIA_MAX_ITEM_DEFAULT_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface MediaFile {
  mimeType: string;
  bytes: Uint8Array;
}

export type MediaCacheErrorCode =
  /** No answer from the server and the file is not cached. */
  | 'ERR_DESKTOP_MEDIA_OFFLINE'
  /** The server has no file for this message, or not for this user (404). */
  | 'ERR_DESKTOP_MEDIA_NOT_FOUND'
  /** No token, or the server refused it (401/403): the renderer refreshes and asks again. */
  | 'ERR_DESKTOP_MEDIA_UNAUTHORIZED'
  /** Any other answer (5xx, 429, a 400...). */
  | 'ERR_DESKTOP_MEDIA_FAILED';

export class MediaCacheError extends Error {
  override name = 'MediaCacheError';
  constructor(
    readonly code: MediaCacheErrorCode,
    message: string,
    /** The server's HTTP status and error code, when it answered. */
    readonly httpStatus: number | null = null,
    readonly serverCode: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
  }
}

export interface MediaCacheOptions {
  /** The open account's cache (its `media` table). */
  database: CacheDatabase;
  /** The server's base URL; the route is at its root. */
  serverUrl: string;
  getAccessToken(): string | null | Promise<string | null>;
  fetch?: typeof fetch;
  /** The cache's size (the sum of the files); default 200 MB. */
  budgetBytes?: number;
  /** Larger files are answered but not kept; default 5 MB. */
  maxItemBytes?: number;
  now?: () => number;
  timeoutMs?: number;
}

export interface MediaCacheUsage extends MediaUsage {
  budgetBytes: number;
}

export interface MediaCache {
  /** The message's file: from the cache, else from the server (then cached when it fits). */
  get(messageId: number): Promise<MediaFile>;
  usage(): MediaCacheUsage;
  /** A new budget; evicts down to it at once. */
  setBudget(bytes: number): MediaCacheUsage;
  clear(): void;
}

function assertSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

async function serverErrorCode(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: unknown };
    return typeof body?.error === 'string' ? body.error : null;
  } catch {
    return null;
  }
}

export function createMediaCache(options: MediaCacheOptions): MediaCache {
  const store = createMediaStore(options.database);
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const maxItemBytes = options.maxItemBytes ?? MEDIA_MAX_ITEM_DEFAULT_BYTES;
  let budgetBytes = options.budgetBytes ?? MEDIA_BUDGET_DEFAULT_BYTES;
  assertSize('maxItemBytes', maxItemBytes);
  assertSize('budgetBytes', budgetBytes);
  const base = options.serverUrl.replace(/\/+$/, '');
  /** One request per message however many views ask at once. */
  const inFlight = new Map<number, Promise<MediaFile>>();

  const download = async (messageId: number): Promise<MediaFile> => {
    const token = await options.getAccessToken();
    if (!token) throw new MediaCacheError('ERR_DESKTOP_MEDIA_UNAUTHORIZED', 'no session to fetch the file with');
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await doFetch(`${base}/messages/media/${messageId}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      if (!res.ok) {
        const serverCode = await serverErrorCode(res);
        const detail = `the server answered ${res.status}${serverCode ? ` ${serverCode}` : ''}`;
        if (res.status === 404) throw new MediaCacheError('ERR_DESKTOP_MEDIA_NOT_FOUND', `no file for message ${messageId} (${detail})`, 404, serverCode);
        if (res.status === 401 || res.status === 403) throw new MediaCacheError('ERR_DESKTOP_MEDIA_UNAUTHORIZED', detail, res.status, serverCode);
        throw new MediaCacheError('ERR_DESKTOP_MEDIA_FAILED', detail, res.status, serverCode);
      }
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (error) {
      if (error instanceof MediaCacheError) throw error;
      // No answer, a dropped connection or a timeout: and the file is not cached.
      throw new MediaCacheError('ERR_DESKTOP_MEDIA_OFFLINE', `message ${messageId}'s file is not cached and the server cannot be reached`, null, null, {
        cause: error,
      });
    }
    // The server's own type (sanitised there); nothing else of its headers is kept.
    const mimeType = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() || 'application/octet-stream';
    const file = { mimeType, bytes };
    // The account may have closed (logout) while the file was on its way: answer it, keep nothing.
    if (bytes.byteLength <= maxItemBytes && options.database.connection.open) store.put(messageId, file, now(), budgetBytes);
    return file;
  };

  return {
    get(messageId) {
      if (!Number.isSafeInteger(messageId) || messageId <= 0) return Promise.reject(new RangeError('messageId must be a positive integer'));
      const cached = store.read(messageId, now());
      if (cached) return Promise.resolve(cached);
      const running = inFlight.get(messageId);
      if (running) return running;
      const started = download(messageId).finally(() => inFlight.delete(messageId));
      inFlight.set(messageId, started);
      return started;
    },
    usage: () => ({ ...store.usage(), budgetBytes }),
    setBudget(bytes) {
      assertSize('budgetBytes', bytes);
      budgetBytes = bytes;
      store.evictTo(bytes);
      return { ...store.usage(), budgetBytes };
    },
    clear: () => store.clear(),
  };
}
