import type { Redis } from 'ioredis';

/**
 * Fixed-window counters. In memory for one process; on Redis (INCR + PEXPIRE) when REDIS_URL
 * is set, so several server processes share the count.
 */
export interface RateLimiter {
  /** Adds one hit to `key` and returns the hits in the current window and the ms left in it. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Current hits without adding one. */
  peek(key: string): Promise<{ count: number; resetMs: number }>;
  reset(key: string): Promise<void>;
  /** Takes back one hit of the current window (an attempt that turned out not to count). */
  undo(key: string): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number) {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (this.windows.size > 10_000) this.sweep(now);
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async peek(key: string) {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return { count: 0, resetMs: 0 };
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async undo(key: string) {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count -= 1;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

/** Longest a request waits for Redis to count a hit; past it the process counts on its own. */
export const RATE_LIMIT_REDIS_DEADLINE_MS = 500;

/**
 * Counters shared by every process through Redis. No request waits on Redis (issue #12): while
 * Redis is unreachable, or slower than RATE_LIMIT_REDIS_DEADLINE_MS, this process counts on its
 * own (in memory) until Redis answers again, so limits still hold per process.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl:',
    private readonly deadlineMs = RATE_LIMIT_REDIS_DEADLINE_MS,
  ) {}

  hit(key: string, windowMs: number) {
    return this.orLocal(
      async () => {
        const k = this.prefix + key;
        const [[, count], [, ttl]] = (await this.redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
        let resetMs = ttl;
        if (ttl < 0) {
          await this.redis.pexpire(k, windowMs);
          resetMs = windowMs;
        }
        return { count, resetMs };
      },
      () => this.local.hit(key, windowMs),
    );
  }

  peek(key: string) {
    return this.orLocal(
      async () => {
        const k = this.prefix + key;
        const [[, value], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [[null, string | null], [null, number]];
        return { count: value ? Number(value) : 0, resetMs: Math.max(ttl, 0) };
      },
      () => this.local.peek(key),
    );
  }

  reset(key: string) {
    return this.orLocal(
      async () => {
        await this.redis.del(this.prefix + key);
      },
      () => this.local.reset(key),
    );
  }

  undo(key: string) {
    return this.orLocal(
      async () => {
        // Only an existing window is decremented: a key that expired meanwhile is not recreated
        // without a TTL.
        await this.redis.eval(
          "if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then return redis.call('DECR', KEYS[1]) end return 0",
          1,
          this.prefix + key,
        );
      },
      () => this.local.undo(key),
    );
  }

  private async orLocal<T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    // Not connected: not even queued (the client would keep the command until Redis is back).
    if (this.redis.status !== 'ready') return local();
    let timer: NodeJS.Timeout | undefined;
    const call = remote();
    call.catch(() => undefined);
    try {
      return await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis did not answer in time')), this.deadlineMs);
        }),
      ]);
    } catch {
      return local();
    } finally {
      clearTimeout(timer);
    }
  }
}
