import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from '../../core/app-error';
import type { RateLimiter } from '../../http/rate-limit';

/** What a counter is keyed on. */
export type AttemptScope = 'email+ip' | 'ip' | 'email';

export interface AttemptCounter {
  scope: AttemptScope;
  max: number;
  /**
   * After a successful attempt: `reset` clears the count (only failures in a row pile up),
   * `undo` takes back this attempt's own hit (only failures count, but one success does not
   * erase the failures before it: an attacker's own valid account cannot wipe an IP's count),
   * `keep` counts every attempt.
   */
  onSuccess: 'reset' | 'undo' | 'keep';
}

export interface AttemptLimitOptions {
  limiter: RateLimiter;
  /** Namespace of the counters, e.g. `login`. */
  name: string;
  windowMs: number;
  counters: AttemptCounter[];
}

/**
 * Limits attempts ahead of validation, on one or more counters: per (e-mail of the body, client
 * IP), per IP across accounts, per account across IPs. Each hit is counted before the attempt
 * runs (one atomic increment), so a burst of parallel guesses cannot all slip through a
 * read-then-write gap. Over any limit: 429 ERR_LIMIT_MAX with Retry-After (the longest wait).
 */
export function attemptLimit(opts: AttemptLimitOptions): Middleware {
  return async (ctx, next) => {
    const body = (ctx.request as unknown as { body?: { email?: unknown } }).body;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    const parts: Record<AttemptScope, string | null> = {
      'email+ip': `${email}\n${ctx.ip}`,
      ip: ctx.ip,
      // A body without an e-mail is not an account: the other counters cover it.
      email: email || null,
    };
    const active = opts.counters.flatMap((counter) => {
      const part = parts[counter.scope];
      // Hashed so a huge or odd e-mail never becomes a huge key in Redis.
      return part === null ? [] : [{ counter, key: `${opts.name}:${counter.scope}:${createHash('sha256').update(part).digest('hex')}` }];
    });
    const hits = await Promise.all(active.map(({ key }) => opts.limiter.hit(key, opts.windowMs)));
    const over = hits.filter((hit, i) => hit.count > active[i].counter.max);
    if (over.length) {
      const waitMs = Math.max(...over.map((hit) => hit.resetMs));
      throw new AppError('ERR_LIMIT_MAX', { headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } });
    }
    await next();
    await Promise.all(
      active.map(({ counter, key }) => {
        if (counter.onSuccess === 'reset') return opts.limiter.reset(key);
        if (counter.onSuccess === 'undo') return opts.limiter.undo(key);
        return undefined;
      }),
    );
  };
}
