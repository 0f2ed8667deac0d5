import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger';
import type { EnqueueOptions, JobHandler, JobQueue, JobSchedule } from './job-queue';

interface PendingJob {
  id: string;
  name: string;
  data: unknown;
  attempt: number;
  opts: EnqueueOptions;
  timer?: NodeJS.Timeout;
  state: 'waiting' | 'delayed' | 'active';
}

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
  private closed = false;

  constructor(private readonly logger?: Logger) {}

  process<T>(name: string, handler: JobHandler<T>): void {
    this.handlers.set(name, handler as JobHandler<any>);
  }

  async enqueue<T>(name: string, data: T, opts: EnqueueOptions = {}): Promise<string> {
    if (this.closed) throw new Error('job queue is closed');
    const id = opts.jobId ?? randomUUID();
    if (this.jobs.has(id)) return id;
    const job: PendingJob = { id, name, data, attempt: 0, opts, state: opts.delay ? 'delayed' : 'waiting' };
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

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.intervals.values()) clearInterval(timer);
    for (const j of this.jobs.values()) if (j.timer) clearTimeout(j.timer);
    this.jobs.clear();
  }

  private schedule(job: PendingJob, delay: number) {
    job.timer = setTimeout(() => void this.run(job), delay);
    job.timer.unref?.();
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
      }
    }
  }
}
