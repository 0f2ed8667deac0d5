import type { DomainEventEnvelope, SyncResponse } from '@shared/events';
import type { CacheStore, CacheSyncBatch } from '../cache/cache-store';
import type { SyncCache } from './sync-cache';
import { batchOfEvents, isEnvelope, purgeRequestOf, type PurgeRequest } from './sync-events';
import { createSyncApi, NEWEST_PAGE_BEFORE, SyncHttpError, SyncNetworkError, type SyncApi, type SyncApiOptions } from './sync-http';
import { DEFAULT_SNAPSHOT_WINDOW, readSnapshot, type SnapshotWindow } from './sync-snapshot';

/**
 * Keeps the local cache in step with the server (issue #15, "Sync"), in the main process.
 *
 * The cache holds the events up to `lastSeq` (saved in the same transaction as their rows), so:
 * - no seq yet (first login) or the server asked for a reload: a snapshot of the console's first
 *   screens, consistent from the seq read BEFORE it (what changes meanwhile is replayed after);
 * - then GET /sync?since=lastSeq, one transaction per answer;
 * - socket envelopes (handed in by the caller, who owns the socket) are applied when their seq
 *   is lastSeq + 1; older ones are duplicates; a jump means events were missed (or were not
 *   for this user: the server skips those in both streams) and is closed by a replay.
 * One run at a time; failures leave the cache as the last whole answer left it and are retried
 * with backoff. The status (idle, syncing, offline, error) is for the console's banner.
 *
 * A `desktop:purge` for the cache's user, reached in seq order (live or replayed), ends the
 * engine: nothing of its answer or run is written, the engine stops as stop() does, and
 * `onPurge` is called once; the caller wipes the cache and starts a new engine, whose snapshot
 * is read after the purge event, so it never sees that event again.
 */

// The status crosses the preload bridge (the console's banner): its shape is in the shared contract.
export type { DesktopSyncState as SyncState, DesktopSyncStatus as SyncStatus } from '@shared/desktop-api';
import type { DesktopSyncStatus as SyncStatus } from '@shared/desktop-api';

export interface SyncLogger {
  info?(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

export interface SyncEngineOptions {
  cache: SyncCache;
  /** The server and the session (baseUrl, getAccessToken, fetch), or a ready client. */
  api: SyncApiOptions | SyncApi;
  logger?: SyncLogger;
  now?: () => Date;
  /** Tickets per tab in a snapshot. */
  window?: SnapshotWindow;
  /** Backoff between failed runs: initialMs, doubled each time, at most maxMs. */
  retry?: { initialMs?: number; maxMs?: number };
  /**
   * How long a gap in the socket's seqs waits before a replay closes it (GAP_REPLAY_DELAY_MS).
   * The server skips the events a user may not see, so an agent's stream has holes all the time:
   * replaying each at once would be one GET /sync per event per agent. Waiting lets one replay
   * cover every hole of the period (and a late envelope fill its own); the console's screen is
   * fed by its socket directly, only the cache lags.
   */
  gapDelayMs?: number;
  /**
   * The server asked for this cache to go (a `desktop:purge` for its user, applied in seq order).
   * Called once, after the engine stopped; the caller empties the cache (the account session's
   * purge()) and starts a new engine on it. Without it the engine only stops.
   */
  onPurge?(request: PurgeRequest): void;
}

export interface LoadOlderResult {
  /** Messages written to the cache. */
  added: number;
  /** True once the cache holds the thread down to its first message. */
  complete: boolean;
}

export interface SyncEngine {
  /**
   * Starts a run, or joins the current one (which then replays once more at its end). Call on
   * login, on every socket (re)connect and when the network comes back. Never rejects: a failure
   * is in the status and is retried.
   */
  sync(): Promise<SyncStatus>;
  /** A socket `event` envelope ({seq, tenantId, name, payload, createdAt}). */
  onEnvelope(envelope: unknown): void;
  /** Caches the page of the ticket's thread below what the cache holds. */
  loadOlder(ticketId: number): Promise<LoadOlderResult>;
  status(): SyncStatus;
  /** Called on every status change; returns the unsubscribe function. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Logout, tenant switch, quit, purge: no more runs, retries or writes (call before wiping the cache). */
  stop(): void;
}

const DEFAULT_RETRY = { initialMs: 1_000, maxMs: 60_000 };
export const GAP_REPLAY_DELAY_MS = 1_500;
/** Replays in one run before giving up for now (events keep coming faster than we read them). */
const MAX_REPLAYS_PER_RUN = 20;
/** Snapshots in one run: a reload answer right after a snapshot twice means something is off. */
const MAX_SNAPSHOTS_PER_RUN = 2;
/** Envelopes held while a run is on or a gap is open; beyond this the replay brings them anyway. */
const MAX_PENDING = 5_000;

class SyncStoppedError extends Error {
  constructor() {
    super('sync stopped');
    this.name = 'SyncStoppedError';
  }
}

class SyncNotConvergingError extends Error {
  readonly code = 'ERR_SYNC_NOT_CONVERGING';
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { cache } = options;
  const api: SyncApi = 'eventsSince' in options.api ? options.api : createSyncApi(options.api);
  const now = options.now ?? (() => new Date());
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const tenantId = cache.account.tenantId;
  const listeners = new Set<(status: SyncStatus) => void>();
  /** Envelopes not applied yet, by seq. */
  const pending = new Map<number, DomainEventEnvelope>();
  const olderInFlight = new Map<number, Promise<LoadOlderResult>>();

  let current: SyncStatus = { state: 'idle', lastSeq: cache.store().lastSeq(), lastSyncedAt: null, error: null, nextRetryAt: null };
  let running: Promise<SyncStatus> | null = null;
  let rerun = false;
  let reloadRequested = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let gapTimer: ReturnType<typeof setTimeout> | null = null;
  const gapDelayMs = options.gapDelayMs ?? GAP_REPLAY_DELAY_MS;
  /** Bumped by every reset: work started against the old cache must not write to the new one. */
  let generation = 0;
  let stopped = false;

  const store = (): CacheStore => cache.store();

  function setStatus(change: Partial<SyncStatus>): void {
    if (stopped) return; // the cache may be closed or wiped already
    current = { ...current, ...change, lastSeq: store().lastSeq() };
    for (const listener of listeners) {
      try {
        listener(current);
      } catch (error) {
        options.logger?.warn('sync status listener failed', { error: String(error) });
      }
    }
  }

  /** Every write goes through here: nothing is written once stopped (the cache may be wiped). */
  function write(target: CacheStore, batch: CacheSyncBatch): void {
    if (stopped) throw new SyncStoppedError();
    target.applySyncBatch(batch);
  }

  /** The server filters by tenant already; an event of another tenant is never applied anyway. */
  function ownEvent(event: unknown): event is DomainEventEnvelope {
    if (!isEnvelope(event)) {
      options.logger?.warn('sync: malformed event ignored');
      return false;
    }
    if (event.tenantId !== tenantId) {
      options.logger?.warn('sync: event of another tenant ignored', { seq: event.seq, tenantId: event.tenantId });
      return false;
    }
    return true;
  }

  // ---- snapshot and replay ----

  async function takeSnapshot(): Promise<void> {
    // Read first: events after this seq are replayed over the snapshot, so nothing that changes
    // while the pages are read is lost (the store keeps the newer copy of each row).
    const head = await api.headSeq();
    const snapshot = await readSnapshot(api, options.window ?? DEFAULT_SNAPSHOT_WINDOW);
    if (stopped) throw new SyncStoppedError();
    // Only a cache that holds a sync point holds rows (they are saved together): a first sync
    // writes into it as it is, a reload replaces the whole copy in one transaction (the outbox's
    // queued work, not a copy, stays).
    const mustWipe = store().lastSeq() !== null;
    if (stopped) throw new SyncStoppedError();
    if (mustWipe) {
      generation++;
      store().replaceServerCopy({ ...snapshot, lastSeq: head });
    } else write(store(), { ...snapshot, lastSeq: head });
    reloadRequested = false;
    options.logger?.info?.('sync: snapshot written', { seq: head, tickets: snapshot.tickets.length, wiped: mustWipe });
  }

  /**
   * The events in seq order reached a purge of this cache: nothing of them is written (the cache
   * is about to be emptied; a write could only race the wipe), the engine stops, the caller is
   * told. Throws to end whatever run or drain got here.
   */
  function purgeRequested(request: PurgeRequest): never {
    if (stopped) throw new SyncStoppedError(); // stopped meanwhile (logout): the cache goes anyway
    stop();
    options.logger?.info?.('sync: the server purged this cache', { seq: request.seq, reason: request.reason });
    if (options.onPurge) {
      try {
        options.onPurge(request);
      } catch (error) {
        options.logger?.warn('sync: the purge handler failed', { error: String(error) });
      }
    } else options.logger?.warn('sync: purge requested with no handler: the sync stopped, the cache stays');
    throw new SyncStoppedError();
  }

  /** Applies events in seq order up to `lastSeq` in one transaction, unless they reach a purge. */
  function applyEvents(events: readonly DomainEventEnvelope[], lastSeq: number): void {
    const purge = purgeRequestOf(events, cache.account.userId);
    if (purge) purgeRequested(purge);
    write(store(), { ...batchOfEvents(events), lastSeq });
  }

  /** One GET /sync answer in one transaction with its lastSeq; false when it asks for a reload. */
  async function replayOnce(): Promise<boolean> {
    const since = store().lastSeq() as number;
    const answer: SyncResponse = await api.eventsSince(since);
    if (answer.reload || answer.lastSeq < since) return false;
    const events = answer.events.filter((e) => ownEvent(e) && e.seq > since && e.seq <= answer.lastSeq);
    applyEvents(events, answer.lastSeq);
    return true;
  }

  /**
   * Applies the held envelopes that continue the cache's seq. 'gap': some remain after a
   * missing seq; 'snapshot': nothing can be applied before the first snapshot.
   */
  function drainPending(): 'done' | 'gap' | 'snapshot' {
    const last = store().lastSeq();
    if (last === null) return 'snapshot';
    for (const seq of pending.keys()) if (seq <= last) pending.delete(seq); // duplicates, or replayed already
    const run: DomainEventEnvelope[] = [];
    for (let next = last + 1; pending.has(next); next++) {
      run.push(pending.get(next) as DomainEventEnvelope);
      pending.delete(next);
    }
    if (run.length > 0) applyEvents(run, run[run.length - 1].seq);
    return pending.size > 0 ? 'gap' : 'done';
  }

  async function runOnce(): Promise<void> {
    let snapshots = 0;
    for (let replays = 0; replays < MAX_REPLAYS_PER_RUN; replays++) {
      if (reloadRequested || store().lastSeq() === null) {
        if (++snapshots > MAX_SNAPSHOTS_PER_RUN) throw new SyncNotConvergingError('the server keeps asking for a reload');
        await takeSnapshot();
      }
      if (!(await replayOnce())) {
        reloadRequested = true;
        continue;
      }
      if (drainPending() === 'done') return;
    }
    throw new SyncNotConvergingError(`still behind after ${MAX_REPLAYS_PER_RUN} replays`);
  }

  // ---- runs, failures, retries ----

  function sync(): Promise<SyncStatus> {
    if (stopped) return Promise.resolve(current);
    clearRetry();
    clearGapTimer();
    if (running) {
      rerun = true;
      return running;
    }
    running = (async () => {
      setStatus({ state: 'syncing' });
      try {
        do {
          rerun = false;
          await runOnce();
        } while (rerun && !stopped);
        failures = 0;
        setStatus({ state: 'idle', lastSyncedAt: now().toISOString(), error: null, nextRetryAt: null });
      } catch (error) {
        fail(error);
      } finally {
        running = null;
      }
      // Envelopes that came after the run's last drain.
      if (pending.size > 0 && !retryTimer) settle();
      return current;
    })();
    return running;
  }

  function fail(error: unknown): void {
    if (error instanceof SyncStoppedError || stopped) return;
    failures++;
    const delay = Math.min(retry.maxMs, retry.initialMs * 2 ** (failures - 1));
    const offline = error instanceof SyncNetworkError;
    const message = error instanceof Error ? error.message : String(error);
    options.logger?.warn(`sync failed, retrying in ${delay} ms`, { message, failures });
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void sync();
    }, delay);
    // The main process must be able to quit with a retry pending.
    retryTimer.unref?.();
    setStatus({
      state: offline ? 'offline' : 'error',
      error: {
        code: (error as { code?: string }).code ?? 'ERR_SYNC',
        message,
        httpStatus: error instanceof SyncHttpError ? error.status : null,
      },
      nextRetryAt: new Date(now().getTime() + delay).toISOString(),
    });
  }

  function clearRetry(): void {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function clearGapTimer(): void {
    if (gapTimer) clearTimeout(gapTimer);
    gapTimer = null;
  }

  /** Outside a run: apply what continues the seq, start a replay for a gap. */
  function settle(): void {
    let outcome: ReturnType<typeof drainPending>;
    try {
      outcome = drainPending();
    } catch (error) {
      if (!(error instanceof SyncStoppedError)) options.logger?.warn('sync: applying an event failed', { message: String(error) });
      outcome = 'gap';
    }
    if (stopped) return; // a purge was reached
    if (outcome === 'done') {
      clearGapTimer();
      // A duplicate changes nothing: no status churn for the banner.
      if (current.lastSeq !== store().lastSeq()) setStatus({ lastSyncedAt: now().toISOString() });
      return;
    }
    // While a retry is scheduled the gap waits for it: no request storm while the server is down.
    // Otherwise one replay per gap period (see gapDelayMs), not one per hole.
    if (retryTimer || gapTimer) return;
    if (gapDelayMs <= 0) {
      void sync();
      return;
    }
    gapTimer = setTimeout(() => {
      gapTimer = null;
      if (!stopped && pending.size > 0) void sync();
    }, gapDelayMs);
    gapTimer.unref?.();
  }

  function onEnvelope(envelope: unknown): void {
    if (stopped || !ownEvent(envelope)) return;
    if (pending.size >= MAX_PENDING) pending.clear(); // a replay from lastSeq brings them all
    pending.set(envelope.seq, envelope);
    // During a run, the run drains them after its replay (in seq order with it).
    if (!running) settle();
  }

  // ---- older history ----

  function loadOlder(ticketId: number): Promise<LoadOlderResult> {
    // Two scrolls to the top of the same thread ask for the same page once.
    const inFlight = olderInFlight.get(ticketId);
    if (inFlight) return inFlight;
    const promise = fetchOlder(ticketId).finally(() => olderInFlight.delete(ticketId));
    olderInFlight.set(ticketId, promise);
    return promise;
  }

  async function fetchOlder(ticketId: number): Promise<LoadOlderResult> {
    const startedIn = generation;
    const coverage = store().threadCoverage(ticketId);
    if (coverage && coverage.beforeId === null) return { added: 0, complete: true };
    // No coverage: only events filled this thread; its newest page is the place to start.
    const page = await api.threadPage(ticketId, coverage?.beforeId ?? NEWEST_PAGE_BEFORE);
    // The cache was rebuilt meanwhile: this page belongs to the old one (the snapshot has its own).
    if (startedIn !== generation || stopped) return { added: 0, complete: false };
    const beforeId = page.hasMore ? page.nextBefore : null;
    const written = store().applySyncBatch({ messages: page.messages, threads: [{ ticketId, beforeId }] });
    return { added: written.messages, complete: beforeId === null };
  }

  function stop(): void {
    stopped = true;
    clearRetry();
    clearGapTimer();
    pending.clear();
    listeners.clear();
  }

  return {
    sync,
    onEnvelope,
    loadOlder,
    status: () => current,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop,
  };
}
