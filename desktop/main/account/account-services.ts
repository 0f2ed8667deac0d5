import type { DesktopCachePurge } from '@shared/desktop-api';
import { createMediaCache, type MediaCache } from '../media/media-cache';
import { createOutbox, type Outbox, type OutboxChange } from '../outbox/outbox';
import type { OutboxState } from '../outbox/outbox-items';
import { syncCacheOf } from '../sync/sync-cache';
import { createSyncEngine, type SyncEngine, type SyncLogger, type SyncStatus } from '../sync/sync-engine';
import type { PurgeRequest } from '../sync/sync-events';
import type { OpenAccount } from './account-session';

/**
 * What runs for an open account in the main process: the sync engine that keeps its cache in
 * step and the outbox that delivers what the agent did offline. Started by the account session's
 * onOpen hook, stopped (before any wipe) by the function it returns.
 *
 * When things run: the sync on start and whenever the renderer says the connection is back
 * (`online()`, on every socket connect); the outbox after the sync reached the server (idle),
 * after a new token, after an enqueue, and at the time its last pass asked to come back.
 *
 * A server purge (the sync applied a `desktop:purge` for this user, issue #15): these services
 * stop (a delivery pass in flight awaited), count what the outbox never delivered, and call
 * `purge` (the account session's purge(): the cache is emptied and opened again, which starts new
 * services on it, whose first sync takes a new snapshot); then `onPurged` tells the console.
 */
export interface AccountServices {
  readonly sync: SyncEngine;
  readonly outbox: Outbox;
  /** The files of cached messages, viewable offline (LRU within a size budget). */
  readonly media: MediaCache;
  /** The socket (re)connected or the network came back: sync, then deliver the queue. */
  online(): void;
  /** A new access token of the account arrived (the renderer refreshed it). */
  tokenChanged(): void;
  /** No more runs; resolves once a delivery pass in flight has finished (before a wipe). */
  stop(): Promise<void>;
}

export interface AccountServicesOptions {
  serverOrigin: string;
  fetch?: typeof fetch;
  logger?: SyncLogger;
  onSyncStatus?(status: SyncStatus): void;
  onOutboxChange?(change: OutboxChange): void;
  /** The media cache's size; its default (200 MB) otherwise. */
  mediaBudgetBytes?: number;
  /** Larger files are shown but not cached; 5 MB by default. */
  mediaMaxItemBytes?: number;
  /** Injected by tests; the global timers otherwise. */
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  now?: () => number;
  /**
   * Empties this account's cache and opens it again: AccountSession.purge(open), which stops
   * these services first (their detach) and starts new ones on the empty cache (its onOpen).
   */
  purge?(): Promise<unknown>;
  /** A server purge is done: for the console's notice (unsent offline actions were lost with it). */
  onPurged?(purge: DesktopCachePurge): void;
}

/** Outbox states of actions the server never got: a purge loses them. */
const UNDELIVERED: readonly OutboxState[] = ['queued', 'sending', 'conflict', 'failed'];

export function startAccountServices(
  open: OpenAccount,
  options: AccountServicesOptions,
): AccountServices {
  const timers = options.timers ?? { setTimeout, clearTimeout };
  const now = options.now ?? Date.now;
  const sync = createSyncEngine({
    cache: syncCacheOf(open.account, open.store),
    api: { baseUrl: options.serverOrigin, getAccessToken: () => open.accessToken(), fetch: options.fetch },
    logger: options.logger,
    onPurge: (request) => void purge(request),
  });
  const outbox = createOutbox({
    cache: open.database,
    serverUrl: options.serverOrigin,
    getAccessToken: () => open.accessToken(),
    // The renderer owns the refresh (the rotation of the refresh token must happen in one place);
    // it hands the new token over with setAccessToken, which triggers the next pass.
    refreshAccessToken: async () => null,
    fetch: options.fetch,
  });
  const media = createMediaCache({
    database: open.database,
    serverUrl: options.serverOrigin,
    getAccessToken: () => open.accessToken(),
    fetch: options.fetch,
    budgetBytes: options.mediaBudgetBytes,
    maxItemBytes: options.mediaMaxItemBytes,
    now,
  });
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();

  const clearRetry = () => {
    if (retryTimer) timers.clearTimeout(retryTimer);
    retryTimer = null;
  };

  const deliver = (): void => {
    if (stopped) return;
    clearRetry();
    inFlight = outbox
      .replay()
      .then((report) => {
        if (stopped || report.retryAt === null) return;
        retryTimer = timers.setTimeout(deliver, Math.max(0, report.retryAt - now()));
      })
      .catch((error: unknown) => options.logger?.warn('outbox: replay failed', { error: String(error) }));
  };

  let lastState: SyncStatus['state'] = sync.status().state;
  const unsubscribeStatus = sync.onStatus((status) => {
    options.onSyncStatus?.(status);
    // The server answered the whole way: a good moment for the queue too.
    if (status.state === 'idle' && lastState !== 'idle') deliver();
    lastState = status.state;
  });
  const unsubscribeOutbox = outbox.onChange((change) => {
    options.onOutboxChange?.(change);
    if (change.type === 'enqueued') deliver();
  });

  const online = () => {
    if (stopped) return;
    void sync.sync();
    deliver();
  };

  async function stop(): Promise<void> {
    stopped = true;
    clearRetry();
    unsubscribeStatus();
    unsubscribeOutbox();
    sync.stop();
    await inFlight;
  }

  /** The sync reached a purge of this cache (it stopped itself; called once per engine). */
  async function purge(request: PurgeRequest): Promise<void> {
    if (stopped) return; // closing anyway (logout, switch): the cache goes or stays with the account
    await stop();
    // Counted once no pass is in flight, before the wipe: what the agent did offline and the
    // server never got goes with the cache.
    let lostOutboxItems: number;
    try {
      lostOutboxItems = outbox.list({ states: UNDELIVERED }).length;
    } catch {
      return; // the account closed meanwhile (logout, switch): there is nothing left to purge
    }
    options.logger?.warn('account: the server purged the local cache', {
      seq: request.seq,
      reason: request.reason,
      lostOutboxItems,
    });
    if (!options.purge) return;
    try {
      await options.purge();
    } catch (error) {
      options.logger?.warn('account: the purge failed', { error: String(error) });
      return;
    }
    options.onPurged?.({ reason: request.reason, lostOutboxItems });
  }

  online();

  return {
    sync,
    outbox,
    media,
    online,
    tokenChanged: online,
    stop,
  };
}
