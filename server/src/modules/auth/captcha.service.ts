import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { captchaPowInput, leadingZeroBits, type CaptchaChallenge } from '@shared/captcha';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';

export type CaptchaDeps = Pick<AppDeps, 'config' | 'clock' | 'rateLimiter'>;

const VERSION = 'c1';

/**
 * Server side of the login captcha (shared/captcha.ts explains the proof of work).
 * A challenge is `c1.<expiresMs>.<difficulty>.<id>.<hmac>`: it carries its own expiry and
 * difficulty under an HMAC, so any server process verifies it without shared state. Single use
 * is the one shared fact: the first valid answer marks the id used (an atomic counter of the
 * rate limiter, Redis when REDIS_URL is set), until the challenge would have expired anyway.
 */
export class CaptchaService {
  private readonly key: Buffer;

  constructor(private readonly deps: CaptchaDeps) {
    // Derived from the JWT secret so no new secret has to be configured; the label keeps the
    // two uses apart (a captcha signature is never a valid token signature and vice versa).
    this.key = createHmac('sha256', deps.config.jwtSecret).update('atende:login-captcha').digest();
  }

  issue(): CaptchaChallenge {
    const expiresAt = this.deps.clock.now().getTime() + this.deps.config.captchaTtlSeconds * 1000;
    const body = `${VERSION}.${expiresAt}.${this.deps.config.captchaDifficulty}.${randomBytes(16).toString('hex')}`;
    return {
      token: `${body}.${this.sign(body)}`,
      difficulty: this.deps.config.captchaDifficulty,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** Throws ERR_CAPTCHA unless the answer solves an unexpired, unused challenge of ours; then marks it used. */
  async verify(token: string | undefined, solution: string | undefined): Promise<void> {
    if (!token || !solution) throw new AppError('ERR_CAPTCHA');
    const parts = token.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new AppError('ERR_CAPTCHA');
    const body = parts.slice(0, 4).join('.');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(parts[4]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('ERR_CAPTCHA');
    const expiresAt = Number(parts[1]);
    const difficulty = Number(parts[2]);
    const remainingMs = expiresAt - this.deps.clock.now().getTime();
    if (!(remainingMs > 0)) throw new AppError('ERR_CAPTCHA');
    const digest = createHash('sha256').update(captchaPowInput(token, solution)).digest();
    if (leadingZeroBits(digest) < difficulty) throw new AppError('ERR_CAPTCHA');
    // Counted after the checks so a wrong solution does not burn a challenge the person is still solving.
    const { count } = await this.deps.rateLimiter.hit(`captcha-used:${parts[3]}`, remainingMs);
    if (count > 1) throw new AppError('ERR_CAPTCHA');
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
