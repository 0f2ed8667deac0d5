import { signWebhook } from './graph-api.fake';

/**
 * Meta's side of webhook delivery, as far as a fault test needs it: a signed POST of the payload
 * (X-Hub-Signature-256 with the app secret), and, on any answer but 2xx or no answer at all, the
 * same payload again after a backoff (Meta retries failed deliveries, first at once, then less and
 * less often for up to 36 hours; here the schedule is short). Every attempt is recorded.
 */
export interface WebhookAttempt {
  /** HTTP status, or 0 when there was no answer (refused, reset, timeout). */
  status: number;
  startedAt: number;
  answeredAt: number;
}

export interface WebhookDelivery {
  attempts: WebhookAttempt[];
  delivered: boolean;
}

/** Waits between tries, in ms: 100, 200, 400 ... 3,200 then every 5 s (about a minute in all). */
export const META_RETRY_DELAYS_MS = [100, 200, 400, 800, 1_600, 3_200, ...Array.from({ length: 10 }, () => 5_000)];

export class MetaWebhookSender {
  constructor(
    private readonly url: string,
    private readonly appSecret: string,
    private readonly opts: { retryDelaysMs?: number[]; timeoutMs?: number } = {},
  ) {}

  async deliver(payload: unknown): Promise<WebhookDelivery> {
    const body = JSON.stringify(payload);
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signWebhook(body, this.appSecret) };
    const delays = this.opts.retryDelaysMs ?? META_RETRY_DELAYS_MS;
    const attempts: WebhookAttempt[] = [];
    for (let i = 0; ; i++) {
      const startedAt = performance.now();
      let status: number;
      try {
        const res = await fetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.opts.timeoutMs ?? 20_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      attempts.push({ status, startedAt, answeredAt: performance.now() });
      if (status >= 200 && status < 300) return { attempts, delivered: true };
      if (i >= delays.length) return { attempts, delivered: false };
      await new Promise((r) => setTimeout(r, delays[i]));
    }
  }
}

/**
 * From the deliveries of a fault window: the moment (performance.now()) after which every answer
 * was a 2xx, or `since` when nothing failed after it.
 */
export function recoveredAt(deliveries: WebhookDelivery[], since: number): number {
  const attempts = deliveries.flatMap((d) => d.attempts).filter((a) => a.answeredAt >= since);
  const lastFailure = Math.max(since, ...attempts.filter((a) => a.status < 200 || a.status >= 300).map((a) => a.answeredAt));
  const firstSuccessAfter = attempts
    .filter((a) => a.status >= 200 && a.status < 300 && a.answeredAt >= lastFailure)
    .reduce((min, a) => Math.min(min, a.answeredAt), Infinity);
  return lastFailure === since ? since : Number.isFinite(firstSuccessAfter) ? firstSuccessAfter : lastFailure;
}
