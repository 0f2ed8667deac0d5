import Bull from 'bull';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger';
import { watchRedis } from '../core/redis-watch';
import type { EnqueueOptions, FailedJob, JobHandler, JobQueue, JobSchedule } from './job-queue';

/** Completed and failed jobs kept in Redis for the job-queue screen; older ones are trimmed. */
const KEEP_COMPLETED = 1000;
const KEEP_FAILED = 5000;
/**
 * Longest an enqueue waits for Redis. A request that enqueues after its commit never hangs on a
 * Redis outage: past this the enqueue fails, the caller logs it, and the periodic sweep (which
 * does not use Redis) picks the committed row up. ioredis keeps the command for a bounded number
 * of reconnection tries (maxRetriesPerRequest), never indefinitely.
 */
export const ENQUEUE_DEADLINE_MS = 1_000;

/**
 * Bull driver (REDIS_URL set): one Bull queue per job name, created on first use, so several
 * server processes share the work and delayed or retrying jobs survive a restart. All queues
 * share one command and one subscriber connection; each needs its own blocking connection.
 */
export class BullJobQueue implements JobQueue {
  readonly driver = 'bull' as const;
  private readonly queues = new Map<string, Bull.Queue>();
  private readonly prefix: string;
  private readonly logger?: Logger;
  private shared: { client?: Redis; subscriber?: Redis } = {};
  private readonly blocking: Redis[] = [];
  private closing?: Promise<void>;

  constructor(
    private readonly redisUrl: string,
    opts: { prefix?: string; logger?: Logger } = {},
  ) {
    this.prefix = opts.prefix ? `${opts.prefix}:bull` : 'bull';
    this.logger = opts.logger;
  }

  process<T>(name: string, handler: JobHandler<T>, opts: { concurrency?: number } = {}): void {
    // Bull counts failed tries in attemptsMade, so the running try is one more.
    void this.queue(name).process(opts.concurrency ?? 1, async (job) => {
      await handler(job.data as T, { attempt: job.attemptsMade + 1, jobId: String(job.id) });
    });
  }

  async enqueue<T>(name: string, data: T, opts: EnqueueOptions = {}): Promise<string> {
    if (this.closing) throw new Error('job queue is closed');
    const queue = this.queue(name);
    const add = (async () => {
      if (opts.jobId) await this.forgetFinished(queue, opts.jobId);
      return queue.add(data, {
        delay: opts.delay,
        attempts: opts.attempts ?? 1,
        backoff: opts.backoff,
        jobId: opts.jobId,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      });
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not take job ${name} within ${ENQUEUE_DEADLINE_MS} ms`)), ENQUEUE_DEADLINE_MS);
    });
    // The add may still complete after the deadline (Redis back): harmless, every job re-checks its row.
    add.catch(() => undefined);
    try {
      const job = await Promise.race([add, deadline]);
      return String(job.id);
    } finally {
      clearTimeout(timer);
    }
  }

  async every(name: string, schedule: string | number, data?: unknown): Promise<void> {
    const queue = this.queue(name);
    // Every process calls every() at start: Bull dedupes the same repeat key, and a schedule
    // that changed since the last deploy replaces the old one instead of running beside it.
    for (const r of await queue.getRepeatableJobs()) {
      const same = typeof schedule === 'string' ? r.cron === schedule : r.every === schedule;
      if (!same) await queue.removeRepeatableByKey(r.key);
    }
    await queue.add(data ?? {}, {
      repeat: typeof schedule === 'string' ? { cron: schedule } : { every: schedule },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
  }

  async schedules(): Promise<JobSchedule[]> {
    const out: JobSchedule[] = [];
    for (const [name, queue] of this.queues) {
      for (const r of await queue.getRepeatableJobs()) {
        out.push(r.cron ? { name, cron: r.cron } : { name, every: Number(r.every) });
      }
    }
    return out;
  }

  async counts(name: string) {
    const c = await this.queue(name).getJobCounts();
    return { waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed, completed: c.completed };
  }

  /** The Bull queues created so far. */
  bullQueues(): Bull.Queue[] {
    return [...this.queues.values()];
  }

  names(): string[] {
    return [...this.queues.keys()].sort();
  }

  async failed(name: string, limit: number): Promise<FailedJob[]> {
    const queue = this.queues.get(name);
    if (!queue) return [];
    const jobs = (await queue.getFailed(0, limit - 1)).filter(Boolean);
    jobs.sort((a, b) => (b.finishedOn ?? 0) - (a.finishedOn ?? 0));
    return jobs.slice(0, limit).map((job) => ({
      id: String(job.id),
      reason: job.failedReason ?? '',
      attempts: job.attemptsMade,
      failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    }));
  }

  async retry(name: string, jobId: string): Promise<boolean> {
    const job = await this.queues.get(name)?.getJob(jobId);
    if (!job || !(await job.isFailed())) return false;
    await job.retry();
    return true;
  }

  async clean(name: string, state: 'completed' | 'failed'): Promise<number> {
    const queue = this.queues.get(name);
    if (!queue) return 0;
    return (await queue.clean(0, state)).length;
  }

  async restart(name: string): Promise<void> {
    const queue = this.queues.get(name);
    if (!queue) return;
    // A queue-wide pause moves its waiting jobs aside in Redis and the resume puts them back for
    // every worker. (A local pause would force-reconnect the worker's blocking connection, whose
    // aborted read Bull does not always swallow: an unhandled "Connection is closed".)
    await queue.pause();
    await queue.resume();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
      for (const c of this.blocking) c.disconnect();
      for (const c of [this.shared.client, this.shared.subscriber]) if (c) await c.quit().catch(() => c.disconnect());
    })();
    return this.closing;
  }

  /**
   * A jobId dedupes only while its job is pending (as in the memory driver). Bull would also
   * ignore an id whose finished job is still kept for the board, so that one is removed first.
   */
  private async forgetFinished(queue: Bull.Queue, jobId: string): Promise<void> {
    const existing = await queue.getJob(jobId);
    if (existing && ((await existing.isCompleted()) || (await existing.isFailed()))) {
      await existing.remove().catch(() => undefined);
    }
  }

  private queue(name: string): Bull.Queue {
    let queue = this.queues.get(name);
    if (queue) return queue;
    queue = new Bull(name, {
      prefix: this.prefix,
      createClient: (type) => this.connection(type),
    });
    queue.on('error', (err) => this.logger?.error({ err, job: name }, 'job queue error'));
    queue.on('failed', (job, err) => {
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
        this.logger?.warn({ err, job: name, jobId: job.id, attempts: job.attemptsMade }, 'job failed');
      }
    });
    this.queues.set(name, queue);
    return queue;
  }

  private connection(type: 'client' | 'subscriber' | 'bclient'): Redis {
    // Bull refuses subscriber and blocking connections that retry commands or check readiness.
    const longLived: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: false };
    if (type === 'bclient') {
      const c = watchRedis(new Redis(this.redisUrl, longLived), this.logger, 'jobs (blocking)');
      this.blocking.push(c);
      return c;
    }
    return (this.shared[type] ??= watchRedis(new Redis(this.redisUrl, type === 'subscriber' ? longLived : {}), this.logger, `jobs (${type})`));
  }
}
