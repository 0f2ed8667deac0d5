import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Logger } from '../core/logger';

/**
 * Periodic work (sweeps, schedules, retention) that must survive the loss of Redis.
 *
 * Every server process runs a timer per task; before a run it claims the task's row in
 * `periodic_runs` with one UPDATE (no connection or transaction is held during the run, which
 * matters for the one-connection embedded database). The claim succeeds only when the last run
 * started at least ~one interval ago and no live lease is held, so with several processes the
 * task still runs about once per interval, by one of them. A process that dies mid-run leaves a
 * lease that expires after LEASE_MS. The row records the last run (start, end, duration, error),
 * which /health reads. Nothing of this lives in Redis, so a Redis restart, failover or flush
 * never stops a sweep (issue #12: repeatable Bull jobs vanished with Redis' data).
 *
 * `scope` separates deployments that share a database (the tests run many servers on one
 * database, each with its own providers); production processes share the default scope.
 */
export interface PeriodicTask {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
  /** Also run once right after start (work a restart may have left due). Default true. */
  runAtStart?: boolean;
}

export interface PeriodicStatus {
  name: string;
  intervalMs: number;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  /** No run finished within LATE_FACTOR intervals (plus a grace) of now. */
  late: boolean;
}

/** A claimed run not finished after this long is considered dead and may be claimed again. */
export const LEASE_MS = 5 * 60_000;
/** A task is late when its last finished run is older than this many intervals plus LATE_GRACE_MS. */
export const LATE_FACTOR = 3;
export const LATE_GRACE_MS = 30_000;
/** Timers fire a little early or late; a claim accepts a start this much earlier than one interval. */
const CLAIM_TOLERANCE = 0.9;

export class PeriodicScheduler {
  private readonly tasks = new Map<string, PeriodicTask>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<boolean>>();
  private readonly owner = randomUUID();
  private startedAt?: number;
  private stopped = false;

  constructor(
    private readonly deps: { dataSource: DataSource; logger: Logger },
    private readonly scope: string,
  ) {}

  /** Declares a task; registered before or after start, it runs from then on. */
  register(task: PeriodicTask): void {
    if (this.tasks.has(task.name)) throw new Error(`periodic task ${task.name} registered twice`);
    this.tasks.set(task.name, task);
    if (this.startedAt !== undefined) this.arm(task);
  }

  /** The declared tasks (name and interval). */
  list(): { name: string; intervalMs: number }[] {
    return [...this.tasks.values()].map(({ name, intervalMs }) => ({ name, intervalMs }));
  }

  start(): void {
    if (this.startedAt !== undefined) return;
    this.startedAt = Date.now();
    for (const task of this.tasks.values()) this.arm(task);
  }

  /**
   * Runs a task now in this process, regardless of its interval (tests, operators), after any run
   * already in progress here.
   */
  async runNow(name: string): Promise<void> {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`unknown periodic task ${name}`);
    // A run already under way may have started before the caller's rows were written: run again after it.
    await this.running.get(name)?.catch(() => undefined);
    await this.tick(task, { force: true });
  }

  /** Last runs of this scope's tasks, for /health. */
  async status(now = new Date()): Promise<PeriodicStatus[]> {
    const rows: {
      name: string;
      lastStartedAt: Date | null;
      lastFinishedAt: Date | null;
      lastDurationMs: number | null;
      lastError: string | null;
    }[] = await this.deps.dataSource.query(
      `SELECT name, "lastStartedAt", "lastFinishedAt", "lastDurationMs", "lastError" FROM periodic_runs WHERE scope = $1`,
      [this.scope],
    );
    const byName = new Map(rows.map((r) => [r.name, r]));
    return [...this.tasks.values()].map((task) => {
      const row = byName.get(task.name);
      const finished = row?.lastFinishedAt ? new Date(row.lastFinishedAt) : null;
      const allowance = task.intervalMs * LATE_FACTOR + LATE_GRACE_MS;
      // Right after start nothing has run yet: not late until a whole allowance has passed.
      const since = finished?.getTime() ?? this.startedAt ?? now.getTime();
      return {
        name: task.name,
        intervalMs: task.intervalMs,
        lastStartedAt: row?.lastStartedAt ? new Date(row.lastStartedAt).toISOString() : null,
        lastFinishedAt: finished ? finished.toISOString() : null,
        lastDurationMs: row?.lastDurationMs ?? null,
        lastError: row?.lastError ?? null,
        late: now.getTime() - since > allowance,
      };
    });
  }

  /** Stops the timers and waits for runs in progress in this process. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private arm(task: PeriodicTask): void {
    const loop = (delay: number) => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        void this.tick(task, { force: false }).finally(() => loop(task.intervalMs));
      }, delay);
      timer.unref();
      this.timers.set(task.name, timer);
    };
    // A first run soon after start picks up what a restart left due; then one per interval.
    loop(task.runAtStart === false ? task.intervalMs : Math.min(1000, task.intervalMs));
  }

  private tick(task: PeriodicTask, opts: { force: boolean }): Promise<boolean> {
    const inFlight = this.running.get(task.name);
    if (inFlight) return inFlight;
    const run = this.claimAndRun(task, opts.force).finally(() => this.running.delete(task.name));
    this.running.set(task.name, run);
    return run;
  }

  private async claimAndRun(task: PeriodicTask, force: boolean): Promise<boolean> {
    if (this.stopped && !force) return false;
    let claimed: unknown[];
    try {
      claimed = await this.claim(task, force);
    } catch (err) {
      // The database is down: nothing to claim, and the next tick tries again.
      this.deps.logger.warn({ err, task: task.name }, 'could not claim a periodic task');
      return false;
    }
    if (claimed.length === 0) return false;
    const started = performance.now();
    let error: string | null = null;
    try {
      await task.run();
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      this.deps.logger.error({ err, task: task.name }, 'periodic task failed');
    }
    const duration = Math.round(performance.now() - started);
    await this.deps.dataSource
      .query(
        `UPDATE periodic_runs SET "leaseUntil" = NULL, "leaseOwner" = NULL, "lastFinishedAt" = now(),
                "lastDurationMs" = $3, "lastError" = $4
          WHERE scope = $1 AND name = $2 AND "leaseOwner" = $5`,
        [this.scope, task.name, duration, error, this.owner],
      )
      .catch((err) => this.deps.logger.warn({ err, task: task.name }, 'could not record a periodic run'));
    return true;
  }

  private async claim(task: PeriodicTask, force: boolean): Promise<unknown[]> {
    await this.deps.dataSource.query(
      `INSERT INTO periodic_runs (scope, name, "intervalMs") VALUES ($1, $2, $3) ON CONFLICT (scope, name) DO NOTHING`,
      [this.scope, task.name, task.intervalMs],
    );
    const result = (await this.deps.dataSource.query(
      `UPDATE periodic_runs
          SET "leaseUntil" = now() + make_interval(secs => $4::float8 / 1000), "leaseOwner" = $5,
              "lastStartedAt" = now(), "intervalMs" = $3
        WHERE scope = $1 AND name = $2
          AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
          AND ($6 OR "lastStartedAt" IS NULL OR "lastStartedAt" <= now() - make_interval(secs => $3::float8 * $7 / 1000))
        RETURNING name`,
      [this.scope, task.name, task.intervalMs, LEASE_MS, this.owner, force, CLAIM_TOLERANCE],
    )) as [unknown[], number] | unknown[];
    // TypeORM answers UPDATE ... RETURNING as [rows, affected].
    return Array.isArray(result[0]) ? (result[0] as unknown[]) : (result as unknown[]);
  }
}
