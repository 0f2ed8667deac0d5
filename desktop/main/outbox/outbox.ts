import type { CacheDatabase } from '../cache/cache-database';
import { createOutboxHttp, type OutboxHttpOptions } from './outbox-http';
import type { OutboxItem, OutboxState } from './outbox-items';
import { replayItem, type Attempt } from './outbox-replay';
import { createOutboxStore } from './outbox-store';

/**
 * The offline outbox (issue #15 part 3): what the agent sends, notes, reacts and changes while
 * offline is queued in the account's encrypted cache and replayed in order when the connection
 * is back. Order is FIFO across the queue; a ticket's items never overtake each other: an item
 * that waits (backoff) or stopped (conflict, failure) holds the later items of its ticket, while
 * other tickets go on. Conflicts stay listed until the agent discards or retries them.
 *
 * The outbox does not decide when to replay: the app calls replay() on reconnect, after a login,
 * after enqueue when online, and at `retryAt` of the last report.
 */

export interface OutboxOptions extends Omit<OutboxHttpOptions, 'account'> {
  cache: CacheDatabase;
  /** Epoch ms; tests move it to pass a backoff. */
  now?: () => number;
  /** Exponential backoff of transient failures: base * 2^(attempts-1), capped, half of it random. */
  backoff?: { baseMs?: number; maxMs?: number };
}

// Changes cross the preload bridge (the console lists the queue): the shape is in the shared contract.
export type { DesktopOutboxChange as OutboxChange } from '@shared/desktop-api';
import type { DesktopOutboxChange as OutboxChange } from '@shared/desktop-api';

export interface ReplayReport {
  done: number;
  conflicts: number;
  failed: number;
  /** Items still queued (waiting for a backoff, behind a held item, or not reached). */
  queued: number;
  /** Why the pass ended early; null when it went through the whole queue. */
  stopped: 'offline' | 'unauthenticated' | 'rateLimited' | null;
  /** The earliest epoch ms at which a waiting item may go; null when none waits for a time. */
  retryAt: number | null;
}

export interface Outbox {
  /** Validates and stores the action; answers its client id (a send's id on the server too). */
  enqueue(entry: unknown): string;
  list(filter?: { states?: readonly OutboxState[]; ticketId?: number }): OutboxItem[];
  /** One pass over the queue; concurrent calls share it (and a call during a pass runs one more). */
  replay(): Promise<ReplayReport>;
  /** Removes an item that is not being sent (the agent gives up on it); false when there is none. */
  discard(clientId: string): boolean;
  /** Puts a conflict or failure back in the queue (e.g. after the agent reopened the ticket). */
  retry(clientId: string): boolean;
  onChange(listener: (change: OutboxChange) => void): () => void;
  /** Deletes done items older than `ageMs`; the console needs them only to match its bubbles. */
  pruneDone(ageMs: number): number;
}

const DEFAULT_BACKOFF = { baseMs: 2_000, maxMs: 5 * 60_000 };

export function createOutbox(options: OutboxOptions): Outbox {
  const store = createOutboxStore(options.cache);
  const http = createOutboxHttp({ ...options, account: options.cache.account });
  const now = options.now ?? Date.now;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const callerId = options.cache.account.userId;
  const listeners = new Set<(change: OutboxChange) => void>();

  const emit = (change: OutboxChange) => {
    for (const listener of listeners) {
      // A broken listener (a closed window) must not stop the replay or lose a state change.
      try {
        listener(change);
      } catch {
        /* ignored: the state is in the database either way */
      }
    }
  };
  const updated = (item: OutboxItem) => emit({ type: 'updated', item });

  /** Full jitter on half the delay: clients that went offline together do not return together. */
  const delayFor = (attempts: number, retryAfterMs: number | null) => {
    const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(Math.max(retryAfterMs ?? 0, exponential / 2 + Math.random() * (exponential / 2)));
  };

  /** Writes what an attempt came to, and counts it in the report. */
  function record(item: OutboxItem, attempt: Attempt, report: ReplayReport): void {
    const at = now();
    switch (attempt.kind) {
      case 'done':
        report.done++;
        return updated(store.markDone(item.clientId, attempt.result, at));
      case 'conflict':
      case 'failed':
        report[attempt.kind === 'conflict' ? 'conflicts' : 'failed']++;
        return updated(store.markStopped(item.clientId, attempt.kind, attempt.error, at));
      case 'transient':
        return updated(store.markRetry(item.clientId, attempt.error, at + delayFor(item.attempts, attempt.retryAfterMs), at));
      case 'stop': {
        // No connection: the next replay (on reconnect) tries at once. Too many requests: wait.
        const next = attempt.reason === 'rateLimited' ? at + delayFor(item.attempts, attempt.retryAfterMs) : 0;
        report.stopped = attempt.reason;
        return updated(store.markRetry(item.clientId, attempt.error, next, at));
      }
    }
  }

  async function pass(): Promise<ReplayReport> {
    const report: ReplayReport = { done: 0, conflicts: 0, failed: 0, queued: 0, stopped: null, retryAt: null };
    const held = new Set<number>();
    for (const item of store.unfinished()) {
      if (report.stopped) break;
      // An earlier item of this ticket waits or stopped: this one must not overtake it.
      if (held.has(item.ticketId)) continue;
      if (item.state !== 'queued' || item.nextAttemptAt > now()) {
        held.add(item.ticketId);
        continue;
      }
      const sending = store.markSending(item.clientId, now());
      if (!sending) continue; // discarded since the pass began
      updated(sending);
      const attempt = await replayItem(http, sending, callerId);
      record(sending, attempt, report);
      if (attempt.kind !== 'done') held.add(item.ticketId);
    }
    return summarize(report);
  }

  /** Counts what is left and when the earliest waiting item may go. */
  function summarize(report: ReplayReport): ReplayReport {
    const queued = store.list({ states: ['queued'] });
    const waiting = queued.map((i) => i.nextAttemptAt).filter((t) => t > 0);
    return { ...report, queued: queued.length, retryAt: waiting.length > 0 ? Math.min(...waiting) : null };
  }

  let running: Promise<ReplayReport> | null = null;
  let again = false;

  async function runPasses(): Promise<ReplayReport> {
    let report: ReplayReport;
    do {
      again = false;
      report = await pass();
    } while (again && !report.stopped);
    return report;
  }

  return {
    enqueue(entry) {
      const { item, created } = store.insert(entry, now());
      if (created) emit({ type: 'enqueued', item });
      return item.clientId;
    },
    list: (filter) => store.list(filter),
    replay() {
      if (running) {
        // Something was enqueued or the connection came back during the pass: one more pass.
        again = true;
        return running;
      }
      running = runPasses().finally(() => {
        running = null;
      });
      return running;
    },
    discard(clientId) {
      const removed = store.remove(clientId);
      if (removed) emit({ type: 'discarded', clientId });
      return removed;
    },
    retry(clientId) {
      const item = store.requeue(clientId, now());
      if (item) updated(item);
      return item !== null;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pruneDone: (ageMs) => store.pruneDone(now() - ageMs),
  };
}
