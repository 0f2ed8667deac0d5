import { ChannelSendError, retryAfterMsOf } from '../channel-adapter';
import { noAnswerError, unreadableAnswer } from '../provider-http';

/**
 * The JSON client the unofficial WhatsApp gateways share (Evolution API, Wuzapi, Meow), over
 * global fetch. Every call has a deadline (AbortSignal.timeout, CHANNEL_HTTP_TIMEOUT_MS). Failures
 * become ChannelSendError with `retryable` set the way the outbound retry loop needs it:
 * - no answer (connection refused, timeout), 5xx and 429: retryable, the send stays pending;
 * - the connection lost mid-answer: the message may have arrived (`mayHaveArrived`, provider-http.ts);
 * - any other 4xx (bad API key, unknown instance, invalid number): final, with the gateway's own
 *   message, which the agent sees on the failed message ('Mensagem não entregue: ...').
 * The gateway's message is read from the shapes these servers answer:
 *   Evolution `{status, error, response: {message: string[] | string}}`,
 *   Wuzapi `{code, error, success: false}`, Meow `{error: {code, message}}`, or `{message}`.
 * URLs and headers (API keys) never appear in error messages.
 */
export interface GatewayHttpOptions {
  /** Gateway origin without trailing slash (per channel: self-hosted). */
  baseUrl: string;
  /** Header carrying the credential, e.g. {apikey: key} or {Token: token}. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Prefix of error messages: 'Evolution API', 'Wuzapi', 'Meow'. */
  label: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export class GatewayHttpClient {
  constructor(readonly opts: GatewayHttpOptions) {}

  /** A JSON call; answers the parsed body (undefined when empty). */
  async request<T>(method: HttpMethod, path: string, body?: unknown, query?: Record<string, string | undefined>): Promise<T> {
    const url = new URL(`${this.opts.baseUrl.replace(/\/+$/, '')}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const init: RequestInit = { method, headers: { accept: 'application/json', ...this.opts.headers } };
    if (body !== undefined) {
      init.headers = { ...(init.headers as Record<string, string>), 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const res = await this.fetch(url.toString(), init, `${method} ${path.split('?')[0]}`);
    let text = '';
    try {
      text = await res.text();
    } catch (err) {
      // A 2xx cut mid-answer: the gateway took the call. A failure's body is only its wording.
      if (res.ok) throw unreadableAnswer(err, this.opts.label, res.status);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw gatewayError(this.opts.label, res.status, parsed, res.headers);
    return parsed as T;
  }

  /**
   * Bytes of a media URL the gateway gave us (capped at maxBytes). The gateway's credential is
   * sent only to the gateway's own origin, never to a third-party URL (S3, WhatsApp's CDN).
   */
  async download(url: string, maxBytes: number): Promise<{ buffer: Buffer; contentType: string | null }> {
    const absolute = new URL(url, this.opts.baseUrl);
    const sameOrigin = absolute.origin === new URL(this.opts.baseUrl).origin;
    const res = await this.fetch(absolute.toString(), { method: 'GET', headers: sameOrigin ? this.opts.headers : {} }, 'download');
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      throw gatewayError(this.opts.label, res.status, parsed, res.headers);
    }
    const buffer = Buffer.from(await res.arrayBuffer());
    if (buffer.length > maxBytes) throw new ChannelSendError(`${this.opts.label}: mídia maior que o limite de ${maxBytes} bytes`, false);
    return { buffer, contentType: res.headers.get('content-type') };
  }

  private async fetch(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      throw noAnswerError(err, this.opts.label, this.opts.timeoutMs, what);
    }
  }
}

/** The gateway's own words for a failure, from the error shapes these servers answer. */
export function gatewayMessageOf(body: unknown): string | null {
  if (typeof body === 'string') return body.trim().slice(0, 300) || null;
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const fromResponse = (b.response as { message?: unknown } | undefined)?.message;
  const candidates = [fromResponse, b.error, b.message, b.msg];
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim()) return c.trim();
    if (Array.isArray(c)) {
      const parts = c.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).filter(Boolean);
      if (parts.length) return parts.join('; ');
    }
    if (c && typeof c === 'object') {
      const inner = gatewayMessageOf(c);
      if (inner) return inner;
    }
  }
  return null;
}

export function gatewayError(label: string, status: number, body: unknown, headers?: Headers): ChannelSendError {
  const message = gatewayMessageOf(body);
  const retryable = status >= 500 || status === 429 || status === 408;
  return new ChannelSendError(`${label}: ${message ?? `HTTP ${status}`}`, retryable, status, undefined, retryAfterMsOf(headers));
}

/** `data:<mime>;base64,<data>` of a file. */
export function dataUrl(mimeType: string, bytes: Buffer): string {
  return `data:${mimeType};base64,${bytes.toString('base64')}`;
}

/** Bytes of base64 text, with or without a `data:...;base64,` prefix. */
export function bytesOfBase64(value: string): { buffer: Buffer; mimeType: string | null } {
  const match = /^data:([^;,]+)?(?:;[^,]*)?,(.*)$/s.exec(value);
  if (match) return { buffer: Buffer.from(match[2], 'base64'), mimeType: match[1] ?? null };
  return { buffer: Buffer.from(value, 'base64'), mimeType: null };
}
