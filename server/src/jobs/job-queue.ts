/**
 * The one job interface (ARCHITECTURE: Jobs). Two drivers implement it: Bull on Redis when
 * REDIS_URL is set (bull-queue.ts) and in-process otherwise (memory-queue.ts). Business state
 * that must survive a restart lives in PostgreSQL rows; jobs only move it forward.
 */
export interface EnqueueOptions {
  /** Milliseconds to wait before the job runs. */
  delay?: number;
  /** Total tries including the first (default 1). */
  attempts?: number;
  /** Fixed or exponential backoff between tries, in milliseconds. */
  backoff?: { type: 'fixed' | 'exponential'; delay: number };
  /** Deduplication key: a second enqueue with the same id while the first is waiting is ignored. */
  jobId?: string;
}

export interface JobSchedule {
  name: string;
  /** Interval in ms (every(name, ms)). */
  every?: number;
  /** Cron expression (every(name, cron)). */
  cron?: string;
}

export type JobHandler<T = unknown> = (data: T, meta: { attempt: number; jobId: string }) => Promise<void>;

/** A job that failed its last try, as the super administrator's job-queue screen lists it. */
export interface FailedJob {
  id: string;
  /** The error message of the last try. */
  reason: string;
  attempts: number;
  failedAt: string | null;
}

export type JobCounts = { waiting: number; active: number; delayed: number; failed: number; completed: number };

/**
 * What the super administrator's job-queue screen (/tenantsQueue) reads and does; both drivers
 * implement it, so the board works with and without Redis.
 */
export interface JobQueueBoard {
  /** Every job name this process knows (a handler, a schedule or a job was registered for it). */
  names(): string[];
  /** The most recent failed jobs of `name` (newest first), at most `limit`. */
  failed(name: string, limit: number): Promise<FailedJob[]>;
  /** Runs a failed job again; false when no such failed job exists (any more). */
  retry(name: string, jobId: string): Promise<boolean>;
  /** Forgets the finished jobs of one state; answers how many were removed. */
  clean(name: string, state: 'completed' | 'failed'): Promise<number>;
  /** Pauses and resumes the queue `name` (Bull: queue-wide, in Redis), or re-arms its timers (memory). */
  restart(name: string): Promise<void>;
}

export interface JobQueue extends JobQueueBoard {
  readonly driver: 'bull' | 'memory';
  /**
   * Registers the handler of a job name. Call before enqueueing that name. `concurrency`: jobs
   * of this name one process runs at once (default 1 with Bull; the memory driver runs each job
   * on its own timer, so every due job at once).
   */
  process<T>(name: string, handler: JobHandler<T>, opts?: { concurrency?: number }): void;
  enqueue<T>(name: string, data: T, opts?: EnqueueOptions): Promise<string>;
  /** Runs `name` periodically: a cron expression or a fixed interval in ms. */
  every(name: string, schedule: string | number, data?: unknown): Promise<void>;
  /** The periodic schedules registered with every(), one per job name (what a restart or a sweep relies on). */
  schedules(): Promise<JobSchedule[]>;
  /** Counts per state, for the super administrator's job-queue screen. */
  counts(name: string): Promise<JobCounts>;
  close(): Promise<void>;
}
