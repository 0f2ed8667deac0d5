import { useCallback, useEffect, useRef, useState } from 'react';
import type { DomainEventEnvelope } from '@shared/events';

/**
 * Screens that show figures computed on the server (dashboard, ticket panel) follow the socket by
 * asking again, not by patching: a ticket event can move several counters at once. They listen
 * here to the events the app already receives, and ask again at most once per interval.
 */

/** What a listener hears: a domain event, or RESYNC when events were missed and cannot be replayed. */
export type RealtimeNotice = Pick<DomainEventEnvelope, 'name'>;
export const RESYNC_NOTICE = '*';

type Listener = (notice: RealtimeNotice) => void;
const listeners = new Set<Listener>();

export function onRealtimeNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the realtime connection for every event it applies (and RESYNC_NOTICE). */
export function notifyRealtimeListeners(notice: RealtimeNotice): void {
  for (const listener of [...listeners]) {
    try {
      listener(notice);
    } catch (error) {
      console.error(error);
    }
  }
}

export interface ThrottleTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * At most one run per `intervalMs`: the first trigger after a quiet interval runs at once, the
 * triggers that follow within the interval become one run at its end (so the last change is
 * always shown, never more than `intervalMs` late).
 */
export function createThrottle(run: () => void, intervalMs: number, timers: ThrottleTimers = realTimers) {
  let lastRun = -Infinity;
  let pending: unknown = null;
  const fire = () => {
    pending = null;
    lastRun = timers.now();
    run();
  };
  return {
    trigger(): void {
      if (pending !== null) return;
      const wait = lastRun + intervalMs - timers.now();
      if (wait <= 0) fire();
      else pending = timers.setTimeout(fire, wait);
    },
    /** Counts as a run now without running (the caller has just fetched). */
    markRun(): void {
      lastRun = timers.now();
    },
    cancel(): void {
      if (pending !== null) timers.clearTimeout(pending);
      pending = null;
    },
  };
}

/** Live screens ask again at most this often (issue #13: "refetch throttled"). */
export const LIVE_REFRESH_MS = 2500;

/** Runs `refresh` (throttled) when one of `eventNames` arrives, and after a resync. */
export function useLiveRefresh(eventNames: readonly string[], refresh: () => void, intervalMs = LIVE_REFRESH_MS): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const names = eventNames.join('|');
  useEffect(() => {
    const wanted = new Set(names.split('|'));
    const throttle = createThrottle(() => latest.current(), intervalMs);
    // The figures on screen are being fetched now: the first event waits for the interval's end.
    throttle.markRun();
    const off = onRealtimeNotice((notice) => {
      if (notice.name === RESYNC_NOTICE || wanted.has(notice.name)) throttle.trigger();
    });
    return () => {
      off();
      throttle.cancel();
    };
  }, [names, intervalMs]);
}

/** What useSettledRefetch needs of an RTK Query hook's result. */
export interface Refetchable {
  refetch(): unknown;
  isFetching: boolean;
  /** A skipped query: nothing to refetch (RTK Query throws on refetching it). */
  isUninitialized?: boolean;
}

/**
 * Refetches the queries of a live screen without losing a request. RTK Query drops a refetch
 * asked while the same query is in flight; a change the server made during that fetch (a
 * campaign finishing while the list was being read after "start") then stayed off screen until
 * the next event, and the last event of a run has no next one. A refetch asked during a fetch is
 * remembered and run once that fetch has settled.
 */
export class SettledRefetch {
  private readonly missed = new Set<number>();

  constructor(private readonly queries: () => readonly Refetchable[]) {}

  /** Refetches every query now, or once its fetch in flight has settled. */
  request(): void {
    this.queries().forEach((query, i) => {
      if (query.isUninitialized) return;
      if (query.isFetching) this.missed.add(i);
      else void query.refetch();
    });
  }

  /** Called after each render: runs the refetches asked during a fetch that has now settled. */
  settle(): void {
    if (this.missed.size === 0) return;
    this.queries().forEach((query, i) => {
      if (!this.missed.has(i) || query.isFetching) return;
      this.missed.delete(i);
      if (!query.isUninitialized) void query.refetch();
    });
  }
}

/** The refresh of useLiveRefresh for these queries (see SettledRefetch). */
export function useSettledRefetch(...queries: Refetchable[]): () => void {
  const latest = useRef(queries);
  latest.current = queries;
  const [refetcher] = useState(() => new SettledRefetch(() => latest.current));
  useEffect(() => refetcher.settle());
  return useCallback(() => refetcher.request(), [refetcher]);
}
