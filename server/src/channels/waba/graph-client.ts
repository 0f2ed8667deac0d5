import { ChannelSendError, retryAfterMsOf } from '../channel-adapter';
import { noAnswerError, unreadableAnswer } from '../provider-http';

/**
 * A small client of the Graph API (WhatsApp Cloud API) over global fetch. Every call has a
 * deadline (AbortSignal.timeout); failures become ChannelSendError with `retryable` set the way
 * the outbound retry loop needs it:
 * - no answer (connection refused, timeout), 5xx and 429: retryable, the send stays pending;
 * - the connection lost mid-answer (or a 2xx that cannot be read): the message may have arrived
 *   (`mayHaveArrived`, provider-http.ts), so the delivery does not resend it blindly;
 * - Graph throttling codes (4 app limit, 80007 WABA limit, 130429 throughput, 131056 pair rate)
 *   even when answered with 400: retryable, later is fine;
 * - any other 4xx (bad token, invalid recipient, unknown template): not retryable, with
 *   Graph's own message, which the agent sees on the failed message.
 */
export const GRAPH_DEFAULT_TIMEOUT_MS = 15_000;

const THROTTLING_CODES = new Set([4, 80007, 130429, 131056]);

export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_user_msg?: string;
    error_data?: { details?: string };
    fbtrace_id?: string;
  };
}

export interface GraphClientOptions {
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
  timeoutMs?: number;
}

type Body = { json: unknown } | { form: FormData } | undefined;

export class GraphClient {
  private readonly timeoutMs: number;

  constructor(private readonly opts: GraphClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? GRAPH_DEFAULT_TIMEOUT_MS;
  }

  /** `path` is below the version, e.g. `/123/messages`. */
  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: Body, query?: Record<string, string>): Promise<T> {
    const url = new URL(`${this.opts.baseUrl}/${this.opts.apiVersion}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    return this.send<T>(method, url.toString(), body);
  }

  /** Follows an absolute URL Graph gave us (paging `next`). */
  async getAbsolute<T>(url: string): Promise<T> {
    return this.send<T>('GET', url, undefined);
  }

  /** Media bytes: Graph's media URLs need the same bearer token. */
  async download(url: string, maxBytes: number): Promise<{ buffer: Buffer; contentType: string | null }> {
    const res = await this.fetch('GET', url, undefined);
    if (!res.ok) throw await errorOf(res);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new ChannelSendError(`mídia maior que o limite de ${maxBytes} bytes`, false, res.status);
    }
    const buffer = Buffer.from(await readCapped(res, maxBytes));
    return { buffer, contentType: res.headers.get('content-type') };
  }

  private async send<T>(method: string, url: string, body: Body): Promise<T> {
    const res = await this.fetch(method, url, body);
    if (!res.ok) throw await errorOf(res);
    try {
      return (await res.json()) as T;
    } catch (err) {
      throw unreadableAnswer(err, 'Graph API', res.status);
    }
  }

  private async fetch(method: string, url: string, body: Body): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.accessToken}` };
    let payload: string | FormData | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      payload = body.form;
    }
    try {
      return await fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw noAnswerError(err, 'Graph API', this.timeoutMs);
    }
  }
}

async function errorOf(res: Response): Promise<ChannelSendError> {
  let parsed: GraphErrorBody | undefined;
  try {
    parsed = (await res.json()) as GraphErrorBody;
  } catch {
    parsed = undefined;
  }
  const e = parsed?.error;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const detail = e?.error_data?.details && e.error_data.details !== e.message ? ` ${e.error_data.details}` : '';
  const message = e?.message
    ? `Graph API: ${e.message}${code !== undefined ? ` (#${code})` : ''}${detail}`
    : `Graph API: HTTP ${res.status}`;
  const retryable = res.status >= 500 || res.status === 429 || (code !== undefined && THROTTLING_CODES.has(code));
  return new ChannelSendError(message, retryable, res.status, code !== undefined ? String(code) : undefined, retryAfterMsOf(res.headers));
}

async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ChannelSendError(`mídia maior que o limite de ${maxBytes} bytes`, false, res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
