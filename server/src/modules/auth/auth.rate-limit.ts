import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from '../../core/app-error';
import type { RateLimiter } from '../../http/rate-limit';

export interface AttemptLimitOptions {
  limiter: RateLimiter;
  /** Namespace of the counter, e.g. `login`. */
  name: string;
  max: number;
  windowMs: number;
  /** Reset the count when the request succeeds (login: only failures should pile up). */
  resetOnSuccess: boolean;
}

/**
 * Limits attempts per (e-mail of the body, client IP), ahead of validation. The hit is counted
 * before the attempt runs (one atomic increment), so a burst of parallel guesses cannot all slip
 * through a read-then-write gap; with `resetOnSuccess`, a successful attempt clears the count,
 * so in effect only failures accumulate. Over the limit: 429 ERR_LIMIT_MAX with Retry-After.
 */
export function attemptLimit(opts: AttemptLimitOptions): Middleware {
  return async (ctx, next) => {
    const body = (ctx.request as unknown as { body?: { email?: unknown } }).body;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    // Hashed so a huge or odd e-mail never becomes a huge key in Redis.
    const key = `${opts.name}:${createHash('sha256').update(`${email}\n${ctx.ip}`).digest('hex')}`;
    const { count, resetMs } = await opts.limiter.hit(key, opts.windowMs);
    if (count > opts.max) {
      throw new AppError('ERR_LIMIT_MAX', { headers: { 'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))) } });
    }
    await next();
    if (opts.resetOnSuccess) await opts.limiter.reset(key);
  };
}
