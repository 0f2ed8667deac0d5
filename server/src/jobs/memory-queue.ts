import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger';
import type { EnqueueOptions, FailedJob, JobHandler, JobQueue, JobSchedule } from './job-queue';

interface PendingJob {
  id: string;
  name: string;
  data: unknown;
  attempt: number;
  opts: EnqueueOptions;
  timer?: NodeJS.Timeout;
  /** When the timer fires (epoch ms), so a restart re-arms it for the time left. */
  dueAt: number;
  state: 'waiting' | 'delayed' | 'active';
}

interface FailedMemoryJob extends FailedJob {
  data: unknown;
  opts: EnqueueOptions;
}

/** Failed jobs kept per name for the job-queue screen (as Bull keeps them in Redis). */
const KEEP_FAILED = 100;

/**
 * In-process driver: timers in this process. Work that must survive a restart is a PostgreSQL
 * row picked up by a periodic sweep, so losing these timers never loses work.
 */
export class MemoryJobQueue implements JobQueue {
  readonly driver = 'memory' as const;
  private readonly handlers = new Map<string, JobHandler<any>>();
  private readonly jobs = new Map<string, PendingJob>();
  private readonly intervals = new Map<string, { timer: NodeJS.Timeout; every: number }>();
  private readonly stats = new Map<string, { failed: number; completed: number }>();
  private readonly failedJobs = new Map<string, FailedMemoryJob[]>();
  private closed = false;

  constructor(private readonly logger?: Logger) {}

  process<T>(name: string, handler: JobHandler<T>): void {
    this.handlers.set(name, handler as JobHandler<any>);
  }

  async enqueue<T>(name: string, data: T, opts: EnqueueOptions = {}): Promise<string> {
    if (this.closed) throw new Error('job queue is closed');
    const id = opts.jobId ?? randomUUID();
    if (this.jobs.has(id)) return id;
    const job: PendingJob = { id, name, data, attempt: 0, opts, dueAt: 0, state: opts.delay ? 'delayed' : 'waiting' };
    this.jobs.set(id, job);
    this.schedule(job, opts.delay ?? 0);
    return id;
  }

  async every(name: string, schedule: string | number, data?: unknown): Promise<void> {
    if (typeof schedule !== 'number') {
      throw new Error(`memory job driver runs intervals in ms; cron "${schedule}" needs REDIS_URL (Bull)`);
    }
    // One pending run at a time, as with Bull's repeat: a slow run does not pile up the next ones.
    const timer = setInterval(() => void this.enqueue(name, data ?? {}, { jobId: `every:${name}` }), schedule);
    timer.unref();
    // A new schedule for the same name replaces the old one, as with the Bull driver.
    clearInterval(this.intervals.get(name)?.timer);
    this.intervals.set(name, { timer, every: schedule });
  }

  async schedules(): Promise<JobSchedule[]> {
    return [...this.intervals].map(([name, { every }]) => ({ name, every }));
  }

  async counts(name: string) {
    let waiting = 0;
    let active = 0;
    let delayed = 0;
    for (const j of this.jobs.values()) {
      if (j.name !== name) continue;
      if (j.state === 'waiting') waiting++;
      else if (j.state === 'active') active++;
      else delayed++;
    }
    const s = this.stats.get(name) ?? { failed: 0, completed: 0 };
    return { waiting, active, delayed, failed: s.failed, completed: s.completed };
  }

  names(): string[] {
    const names = new Set([...this.handlers.keys(), ...this.intervals.keys(), ...this.stats.keys()]);
    for (const j of this.jobs.values()) names.add(j.name);
    return [...names].sort();
  }

  async failed(name: string, limit: number): Promise<FailedJob[]> {
    return (this.failedJobs.get(name) ?? []).slice(0, limit).map(({ id, reason, attempts, failedAt }) => ({ id, reason, attempts, failedAt }));
  }

  async retry(name: string, jobId: string): Promise<boolean> {
    const list = this.failedJobs.get(name) ?? [];
    const index = list.findIndex((j) => j.id === jobId);
    if (index < 0) return false;
    const [job] = list.splice(index, 1);
    this.stat(name).failed--;
    await this.enqueue(name, job.data, { ...job.opts, delay: undefined, jobId: job.id });
    return true;
  }

  async clean(name: string, state: 'completed' | 'failed'): Promise<number> {
    const s = this.stat(name);
    const removed = s[state];
    s[state] = 0;
    if (state === 'failed') this.failedJobs.delete(name);
    return removed;
  }

  async restart(name: string): Promise<void> {
    const now = Date.now();
    for (const job of this.jobs.values()) {
      if (job.name !== name || job.state === 'active') continue;
      clearTimeout(job.timer);
      this.schedule(job, Math.max(0, job.dueAt - now));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.intervals.values()) clearInterval(timer);
    for (const j of this.jobs.values()) if (j.timer) clearTimeout(j.timer);
    this.jobs.clear();
  }

  private schedule(job: PendingJob, delay: number) {
    job.dueAt = Date.now() + delay;
    job.timer = setTimeout(() => void this.run(job), delay);
    job.timer.unref?.();
  }

  private recordFailure(job: PendingJob, err: unknown) {
    const list = this.failedJobs.get(job.name) ?? [];
    list.unshift({
      id: job.id,
      reason: err instanceof Error ? err.message : String(err),
      attempts: job.attempt,
      failedAt: new Date().toISOString(),
      data: job.data,
      opts: job.opts,
    });
    list.length = Math.min(list.length, KEEP_FAILED);
    this.failedJobs.set(job.name, list);
  }

  private stat(name: string) {
    let s = this.stats.get(name);
    if (!s) this.stats.set(name, (s = { failed: 0, completed: 0 }));
    return s;
  }

  private async run(job: PendingJob) {
    if (this.closed) return;
    const handler = this.handlers.get(job.name);
    if (!handler) {
      this.logger?.error({ job: job.name }, 'no handler registered for job');
      this.jobs.delete(job.id);
      this.stat(job.name).failed++;
      this.recordFailure(job, new Error(`no handler registered for job ${job.name}`));
      return;
    }
    job.attempt += 1;
    job.state = 'active';
    try {
      await handler(job.data, { attempt: job.attempt, jobId: job.id });
      this.jobs.delete(job.id);
      this.stat(job.name).completed++;
    } catch (err) {
      const attempts = job.opts.attempts ?? 1;
      if (job.attempt < attempts && !this.closed) {
        const base = job.opts.backoff?.delay ?? 0;
        // Same curve as Bull's exponential backoff (d, 3d, 7d, ...) so both drivers behave alike.
        const wait = job.opts.backoff?.type === 'exponential' ? Math.round((2 ** job.attempt - 1) * base) : base;
        job.state = 'delayed';
        this.schedule(job, wait);
      } else {
        this.logger?.warn({ err, job: job.name, attempt: job.attempt }, 'job failed');
        this.jobs.delete(job.id);
        this.stat(job.name).failed++;
        this.recordFailure(job, err);
      }
    }
  }
}
