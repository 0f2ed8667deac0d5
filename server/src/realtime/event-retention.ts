import type { DataSource } from 'typeorm';
import type { AppDeps } from '../deps';

/** Events stay replayable by GET /sync this long; a client away longer reloads instead. */
export const EVENT_RETENTION_DAYS = 7;
export const PRUNE_EVENTS_JOB = 'domain-events.prune';
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 5000;

/** Registers the hourly pruning of old domain events (a periodic task: survives a Redis loss). */
export function scheduleEventPruning(deps: Pick<AppDeps, 'periodic' | 'dataSource' | 'clock' | 'logger'>): void {
  deps.periodic.register({
    name: PRUNE_EVENTS_JOB,
    intervalMs: PRUNE_INTERVAL_MS,
    runAtStart: false,
    run: async () => {
      const cutoff = new Date(deps.clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
      const deleted = await pruneEventsBefore(deps.dataSource, cutoff);
      if (deleted > 0) deps.logger.info({ deleted, cutoff }, 'pruned old domain events');
    },
  });
}

/**
 * Deletes events created before `cutoff`, oldest first, in small batches. Ids grow with time, so
 * only the head of the primary-key index is read: no index on "createdAt" is needed and a run
 * with nothing to delete reads one batch. A row from a long transaction that committed late
 * may outlive the cutoff by one run; retention is a floor, not an exact age.
 */
export async function pruneEventsBefore(dataSource: DataSource, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const [, count] = (await dataSource.query(
      `DELETE FROM domain_events WHERE id IN (
         SELECT id FROM (SELECT id, "createdAt" FROM domain_events ORDER BY id LIMIT $2) head
          WHERE head."createdAt" < $1)`,
      [cutoff, PRUNE_BATCH],
    )) as [unknown, number];
    total += count;
    if (count < PRUNE_BATCH) return total;
  }
}
