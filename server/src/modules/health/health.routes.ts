import Router from '@koa/router';
import type { AppDeps } from '../../deps';

/** Outbound messages overdue by more than BACKLOG_AGE_S count as a backlog past this many. */
export const BACKLOG_THRESHOLD = 500;
const BACKLOG_AGE_S = 60;
/** /health answers within about this long even when a dependency hangs. */
const CHECK_DEADLINE_MS = 2_000;

type HealthStatus = 'ok' | 'degraded' | 'down';

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/**
 * GET /health, for load balancers and operators:
 * - `down` (503): the database does not answer; nothing works without it.
 * - `degraded` (200: keep routing, reads and writes still work): Redis unreachable, a periodic
 *   task late, or an outbound backlog above BACKLOG_THRESHOLD; `reasons` says which.
 * - `ok` (200) otherwise. `sweeps` lists each periodic task's last run.
 */
export function healthRoutes(deps: AppDeps): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const reasons: string[] = [];
    const started = performance.now();
    let database: 'up' | 'down' = 'up';
    try {
      await within(deps.dataSource.query('SELECT 1'), CHECK_DEADLINE_MS);
    } catch {
      database = 'down';
      reasons.push('database unreachable');
    }
    const dbLatencyMs = Math.round((performance.now() - started) * 10) / 10;
    const redis = deps.redis ? (deps.redis.status === 'ready' ? 'up' : 'down') : undefined;
    if (redis === 'down') reasons.push('redis unreachable: jobs wait for the periodic sweeps');

    let sweeps: Awaited<ReturnType<AppDeps['periodic']['status']>> = [];
    let backlog: number | undefined;
    if (database === 'up') {
      try {
        sweeps = await within(deps.periodic.status(), CHECK_DEADLINE_MS);
        for (const s of sweeps) if (s.late) reasons.push(`periodic task late: ${s.name}`);
        const [row] = await within(
          deps.dataSource.query(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM messages WHERE status = 'pending'
               AND "nextRetryAt" < now() - make_interval(secs => $1) LIMIT $2) overdue`,
            [BACKLOG_AGE_S, BACKLOG_THRESHOLD + 1],
          ),
          CHECK_DEADLINE_MS,
        );
        backlog = Number(row.n);
        if (backlog > BACKLOG_THRESHOLD) reasons.push(`outbound backlog above ${BACKLOG_THRESHOLD}`);
      } catch {
        reasons.push('could not read the periodic tasks or the outbound backlog');
      }
    }
    const status: HealthStatus = database === 'down' ? 'down' : reasons.length > 0 ? 'degraded' : 'ok';
    ctx.status = status === 'down' ? 503 : 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      status,
      reasons,
      database: deps.config.databaseUrl ? 'postgresql' : 'embedded',
      databaseState: database,
      jobs: deps.jobs.driver,
      ...(redis ? { redis } : {}),
      dbLatencyMs,
      ...(backlog !== undefined ? { outboundBacklog: backlog } : {}),
      sweeps: sweeps.map((s) => ({
        name: s.name,
        intervalMs: s.intervalMs,
        lastFinishedAt: s.lastFinishedAt,
        lastDurationMs: s.lastDurationMs,
        // Anonymous callers learn that the last run failed, not its error text (it is in the log).
        failed: s.lastError !== null,
        late: s.late,
      })),
    };
  });
  return router;
}
