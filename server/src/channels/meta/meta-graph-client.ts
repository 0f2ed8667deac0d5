import { ChannelSendError, retryAfterMsOf } from '../channel-adapter';
import { noAnswerError, unreadableAnswer } from '../provider-http';

/**
 * A small client of the Graph API as the Messenger Platform uses it (Messenger and Instagram
 * messaging through a Facebook page), over global fetch. The page access token goes in
 * `Authorization: Bearer` (never in the URL, so it is never logged). Every call has a deadline
 * (AbortSignal.timeout). Failures become ChannelSendError with `retryable` as the outbound retry
 * loop needs it:
 * - no answer (refused, timeout), 5xx and 429: retryable; the connection lost mid-answer: the
 *   message may have arrived (`mayHaveArrived`, provider-http.ts);
 * - Graph errors Meta documents as transient (`is_transient: true`; codes 1 unknown, 2 service,
 *   4 app rate limit, 17 user rate limit, 32 page rate limit, 613 call rate limit, 1200 temporary
 *   send failure) even when answered with 400: retryable;
 * - any other 4xx (190 bad token, 100 bad parameter, 551 person unavailable, 10/2018278 outside
 *   the 24-hour window): final, with Graph's message, which the agent sees on the failed message.
 */
export const META_GRAPH_API_VERSION = 'v21.0';

const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 613, 1200]);

export interface MetaGraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    is_transient?: boolean;
    error_user_msg?: string;
    fbtrace_id?: string;
  };
}

export interface MetaGraphClientOptions {
  baseUrl: string;
  apiVersion?: string;
  accessToken: string;
  timeoutMs: number;
}

type Body = { json: unknown } | { form: FormData } | undefined;

export class MetaGraphClient {
  readonly apiVersion: string;

  constructor(private readonly opts: MetaGraphClientOptions) {
    this.apiVersion = opts.apiVersion ?? META_GRAPH_API_VERSION;
  }

  /** `path` is below the version, e.g. `/123/messages`. */
  async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: Body,
    query?: Record<string, string>,
    timeoutMs = this.opts.timeoutMs,
  ): Promise<T> {
    const url = new URL(`${this.opts.baseUrl}/${this.apiVersion}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.accessToken}` };
    let payload: string | FormData | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      payload = body.form;
    }
    const res = await timedFetch(url.toString(), { method, headers, body: payload }, timeoutMs, 'Graph API');
    if (!res.ok) throw await graphErrorOf(res);
    try {
      return (await res.json()) as T;
    } catch (err) {
      throw unreadableAnswer(err, 'Graph API', res.status);
    }
  }
}

/** fetch with a deadline; no answer becomes a ChannelSendError classified by provider-http.ts (never with the URL). */
export async function timedFetch(url: string, init: RequestInit, timeoutMs: number, who: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw noAnswerError(err, who, timeoutMs);
  }
}

/**
 * Bytes of an inbound attachment by its URL (Meta's CDN: public, short-lived, no token sent),
 * capped at maxBytes. 4xx (expired URL) is final; 5xx and no answer are retryable.
 */
export async function downloadUrl(
  url: string,
  maxBytes: number,
  timeoutMs: number,
  who: string,
  headers: Record<string, string> = {},
): Promise<{ buffer: Buffer; contentType: string | null }> {
  if (!/^https?:\/\//i.test(url)) throw new ChannelSendError(`${who}: endereço de mídia inválido`, false);
  const res = await timedFetch(url, { method: 'GET', headers }, timeoutMs, who);
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ChannelSendError(
      `${who}: download da mídia falhou (HTTP ${res.status})`,
      res.status >= 500 || res.status === 429,
      res.status,
    );
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new ChannelSendError(`mídia maior que o limite de ${maxBytes} bytes`, false, res.status);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
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
  }
  return { buffer: Buffer.concat(chunks), contentType: res.headers.get('content-type') };
}

async function graphErrorOf(res: Response): Promise<ChannelSendError> {
  let parsed: MetaGraphErrorBody | undefined;
  try {
    parsed = (await res.json()) as MetaGraphErrorBody;
  } catch {
    parsed = undefined;
  }
  const e = parsed?.error;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const sub = typeof e?.error_subcode === 'number' ? `/${e.error_subcode}` : '';
  const message = e?.message
    ? `Graph API: ${e.message}${code !== undefined ? ` (#${code}${sub})` : ''}`
    : `Graph API: HTTP ${res.status}`;
  const retryable =
    res.status >= 500 || res.status === 429 || e?.is_transient === true || (code !== undefined && TRANSIENT_CODES.has(code));
  return new ChannelSendError(message, retryable, res.status, code !== undefined ? String(code) : undefined, retryAfterMsOf(res.headers));
}
