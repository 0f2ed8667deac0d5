import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { BullJobQueue } from './bull-queue';
import type { JobQueue } from './job-queue';
import { MemoryJobQueue } from './memory-queue';

/**
 * The same cases against both drivers, so code written against JobQueue behaves the same with
 * and without Redis. Bull runs against REDIS_URL (or a local Redis) only when one answers.
 */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisReachable = await redisAnswers(redisUrl);

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// setTimeout may fire a millisecond early; this is the tolerance of the "not before" checks.
const TIMER_SLACK_MS = 5;

interface Driver {
  name: string;
  skip?: string;
  create(): JobQueue;
  cleanup(queue: JobQueue): Promise<void>;
}

const drivers: Driver[] = [
  {
    name: 'memory',
    create: () => new MemoryJobQueue(),
    cleanup: (q) => q.close(),
  },
  {
    name: 'bull',
    skip: redisReachable ? undefined : `Redis unreachable at ${redisUrl}`,
    // A prefix per queue instance: parallel runs sharing one Redis never see each other's jobs.
    create: () => new BullJobQueue(redisUrl, { prefix: `test-jobs-${randomBytes(5).toString('hex')}` }),
    async cleanup(q) {
      const prefixes = new Set((q as BullJobQueue).bullQueues().map((b) => (b as unknown as { keyPrefix: string }).keyPrefix));
      await q.close();
      // Leave nothing behind in a Redis other runs share.
      const redis = new Redis(redisUrl);
      for (const prefix of prefixes) {
        const keys: string[] = [];
        for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) keys.push(...(batch as string[]));
        if (keys.length) await redis.del(...keys);
      }
      await redis.quit();
    },
  },
];

for (const driver of drivers) {
  const title = driver.skip ? `${driver.name} job driver (skipped: ${driver.skip})` : `${driver.name} job driver`;
  describe.skipIf(Boolean(driver.skip))(title, () => {
    let queue: JobQueue;
    const fresh = () => (queue = driver.create());

    afterEach(async () => {
      if (queue) await driver.cleanup(queue);
    });

    it('runs a job with its data, first attempt, and the id enqueue returned', async () => {
      fresh();
      const seen: { data: unknown; attempt: number; jobId: string }[] = [];
      queue.process<{ text: string }>('echo', async (data, meta) => {
        seen.push({ data, ...meta });
      });
      const id = await queue.enqueue('echo', { text: 'olá' });
      await waitFor(() => seen.length === 1, 5000, 'the job to run');
      expect(seen[0]).toEqual({ data: { text: 'olá' }, attempt: 1, jobId: id });
    });

    it('does not run a delayed job before its delay', async () => {
      fresh();
      let ranAt = 0;
      queue.process('later', async () => {
        ranAt = Date.now();
      });
      const enqueuedAt = Date.now();
      await queue.enqueue('later', {}, { delay: 400 });
      await sleep(200);
      expect(ranAt).toBe(0);
      expect((await queue.counts('later')).delayed).toBe(1);
      await waitFor(() => ranAt > 0, 5000, 'the delayed job');
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(400 - TIMER_SLACK_MS);
    });

    it('retries with backoff until the job succeeds', async () => {
      fresh();
      const tries: { attempt: number; at: number }[] = [];
      queue.process('flaky', async (_data, { attempt }) => {
        tries.push({ attempt, at: Date.now() });
        if (attempt < 3) throw new Error(`try ${attempt} fails`);
      });
      await queue.enqueue('flaky', {}, { attempts: 5, backoff: { type: 'fixed', delay: 150 } });
      await waitFor(async () => (await queue.counts('flaky')).completed === 1, 8000, 'the job to complete');
      expect(tries.map((t) => t.attempt)).toEqual([1, 2, 3]);
      for (let i = 1; i < tries.length; i++) expect(tries[i].at - tries[i - 1].at).toBeGreaterThanOrEqual(150 - TIMER_SLACK_MS);
      expect((await queue.counts('flaky')).failed).toBe(0);
    });

    it('waits longer between tries with exponential backoff', async () => {
      fresh();
      const at: number[] = [];
      queue.process('exp', async (_data, { attempt }) => {
        at.push(Date.now());
        if (attempt < 3) throw new Error('not yet');
      });
      await queue.enqueue('exp', {}, { attempts: 3, backoff: { type: 'exponential', delay: 100 } });
      await waitFor(() => at.length === 3, 8000, 'three tries');
      // d then 3d (Bull's curve, followed by the memory driver too).
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(100 - TIMER_SLACK_MS);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS);
    });

    it('gives up after the given attempts and counts the job as failed', async () => {
      fresh();
      const attempts: number[] = [];
      queue.process('doomed', async (_data, { attempt }) => {
        attempts.push(attempt);
        throw new Error('always fails');
      });
      await queue.enqueue('doomed', {}, { attempts: 2, backoff: { type: 'fixed', delay: 50 } });
      await waitFor(async () => (await queue.counts('doomed')).failed === 1, 8000, 'the job to fail');
      await sleep(300);
      expect(attempts).toEqual([1, 2]);
      expect(await queue.counts('doomed')).toMatchObject({ failed: 1, completed: 0, waiting: 0, delayed: 0, active: 0 });
    });

    it('ignores a second enqueue with the same jobId while the first is pending, accepts it again once done', async () => {
      fresh();
      const runs: string[] = [];
      queue.process<{ n: number }>('dedupe', async (data, { jobId }) => {
        runs.push(`${jobId}:${data.n}`);
      });
      const first = await queue.enqueue('dedupe', { n: 1 }, { jobId: 'ticket-42', delay: 200 });
      const second = await queue.enqueue('dedupe', { n: 2 }, { jobId: 'ticket-42', delay: 200 });
      expect(first).toBe('ticket-42');
      expect(second).toBe('ticket-42');
      await waitFor(() => runs.length === 1, 5000, 'the deduplicated job');
      await sleep(400);
      expect(runs).toEqual(['ticket-42:1']);

      await queue.enqueue('dedupe', { n: 3 }, { jobId: 'ticket-42' });
      await waitFor(() => runs.length === 2, 5000, 'the re-enqueued job');
      expect(runs[1]).toBe('ticket-42:3');
    });

    it('repeats a job registered with every()', async () => {
      fresh();
      const data: unknown[] = [];
      queue.process('tick', async (d) => {
        data.push(d);
      });
      await queue.every('tick', 200, { kind: 'sweep' });
      await waitFor(() => data.length >= 3, 5000, 'three repetitions');
      expect(data.slice(0, 3)).toEqual([{ kind: 'sweep' }, { kind: 'sweep' }, { kind: 'sweep' }]);
    });

    it('replaces the schedule when every() is called again for the same name', async () => {
      fresh();
      let runs = 0;
      queue.process('resched', async () => {
        runs++;
      });
      await queue.every('resched', 150);
      await queue.every('resched', 60_000);
      await sleep(700);
      expect(runs).toBe(0);
      expect((await queue.schedules()).filter((s) => s.name === 'resched')).toEqual([{ name: 'resched', every: 60_000 }]);
    });

    it('lists the schedules registered with every()', async () => {
      fresh();
      queue.process('listed-a', async () => undefined);
      queue.process('listed-b', async () => undefined);
      expect(await queue.schedules()).toEqual([]);
      await queue.every('listed-a', 60_000);
      await queue.every('listed-b', 120_000);
      const listed = (await queue.schedules()).sort((x, y) => x.name.localeCompare(y.name));
      expect(listed).toEqual([
        { name: 'listed-a', every: 60_000 },
        { name: 'listed-b', every: 120_000 },
      ]);
    });

    it('counts completed and failed jobs per name', async () => {
      fresh();
      queue.process<{ ok: boolean }>('mixed', async ({ ok }) => {
        if (!ok) throw new Error('bad input');
      });
      await queue.enqueue('mixed', { ok: true });
      await queue.enqueue('mixed', { ok: true });
      await queue.enqueue('mixed', { ok: false });
      await waitFor(
        async () => {
          const c = await queue.counts('mixed');
          return c.completed === 2 && c.failed === 1;
        },
        5000,
        'two completed and one failed',
      );
      expect(await queue.counts('mixed')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1, completed: 2 });
      expect(await queue.counts('never-used')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 });
    });

    it('lists its job names and the failed jobs with their reason, retries one and cleans the rest (job-queue board)', async () => {
      fresh();
      let failing = true;
      const runs: string[] = [];
      queue.process<{ n: number }>('board', async (data, { jobId }) => {
        runs.push(jobId);
        if (failing && data.n > 0) throw new Error(`job ${data.n} broke`);
      });
      const first = await queue.enqueue('board', { n: 1 });
      await queue.enqueue('board', { n: 2 });
      await queue.enqueue('board', { n: 0 });
      await waitFor(async () => (await queue.counts('board')).failed === 2 && (await queue.counts('board')).completed === 1, 5000, 'two failures');
      expect(queue.names()).toContain('board');
      const failed = await queue.failed('board', 10);
      expect(failed.map((j) => j.reason).sort()).toEqual(['job 1 broke', 'job 2 broke']);
      expect(failed.every((j) => j.attempts === 1 && typeof j.failedAt === 'string')).toBe(true);

      failing = false;
      expect(await queue.retry('board', first)).toBe(true);
      await waitFor(async () => (await queue.counts('board')).completed === 2, 5000, 'the retried job to complete');
      expect(runs.filter((id) => id === first)).toHaveLength(2);
      expect((await queue.failed('board', 10)).map((j) => j.reason)).toEqual(['job 2 broke']);
      expect(await queue.retry('board', 'no-such-job')).toBe(false);

      expect(await queue.clean('board', 'failed')).toBe(1);
      expect(await queue.failed('board', 10)).toEqual([]);
      expect(await queue.clean('board', 'completed')).toBe(2);
      expect(await queue.counts('board')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 });
    });

    it('keeps running jobs after a restart of the queue, delayed ones not before their time', async () => {
      fresh();
      const ran: number[] = [];
      queue.process<{ n: number }>('restartable', async (data) => {
        ran.push(data.n);
      });
      const enqueuedAt = Date.now();
      await queue.enqueue('restartable', { n: 1 }, { delay: 400 });
      await queue.restart('restartable');
      await queue.enqueue('restartable', { n: 2 });
      await waitFor(() => ran.includes(2), 5000, 'the job enqueued after the restart');
      expect(ran).toEqual([2]);
      await waitFor(() => ran.includes(1), 5000, 'the delayed job');
      expect(Date.now() - enqueuedAt).toBeGreaterThanOrEqual(400 - TIMER_SLACK_MS);
    });

    it('refuses new jobs once closed', async () => {
      fresh();
      await queue.close();
      await expect(queue.enqueue('late', {})).rejects.toThrow(/closed/);
    });
  });
}
