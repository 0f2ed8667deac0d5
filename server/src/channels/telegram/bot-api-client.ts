import { ChannelSendError, RETRY_AFTER_MAX_MS } from '../channel-adapter';
import { noAnswerError, unreadableAnswer } from '../provider-http';

/**
 * A small client of the Telegram Bot API over global fetch:
 * `${baseUrl}/bot<token>/<method>` answers `{ok, result}` or `{ok:false, error_code, description,
 * parameters?: {retry_after}}`; files are downloaded from `${baseUrl}/file/bot<token>/<file_path>`.
 * Every call has a deadline (AbortSignal.timeout). Failures become ChannelSendError:
 * - no answer (refused, timeout), 5xx and 429 (flood control, retry_after): retryable; the
 *   connection lost mid-answer: the message may have arrived (`mayHaveArrived`, provider-http.ts);
 * - any other 4xx (bad token 401, chat not found 400, bot blocked 403): final, with Telegram's
 *   description, which the agent sees on the failed message.
 */
export const TELEGRAM_DEFAULT_TIMEOUT_MS = 15_000;

export interface BotApiClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}

interface BotApiAnswer<T> {
  ok?: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export class BotApiClient {
  readonly timeoutMs: number;

  constructor(private readonly opts: BotApiClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? TELEGRAM_DEFAULT_TIMEOUT_MS;
  }

  /** Calls a Bot API method with a JSON body (or multipart when `form` is given). */
  async call<T>(method: string, body?: Record<string, unknown> | FormData): Promise<T> {
    const url = `${this.opts.baseUrl}/bot${this.opts.token}/${method}`;
    const init: RequestInit =
      body instanceof FormData
        ? { method: 'POST', body }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) };
    const res = await this.fetch(url, init, method);
    let parsed: BotApiAnswer<T> | undefined;
    try {
      parsed = (await res.json()) as BotApiAnswer<T>;
    } catch (err) {
      // A 2xx cut mid-answer: Telegram took the call. A failure's body is only its wording.
      if (res.ok) throw unreadableAnswer(err, 'Telegram', res.status);
      parsed = undefined;
    }
    if (res.ok && parsed?.ok) return parsed.result as T;
    throw errorOf(res.status, parsed);
  }

  /** Bytes of a file by its file_path (from getFile), capped at maxBytes. */
  async downloadFile(filePath: string, maxBytes: number): Promise<{ buffer: Buffer; contentType: string | null }> {
    const url = `${this.opts.baseUrl}/file/bot${this.opts.token}/${filePath.split('/').map(encodeURIComponent).join('/')}`;
    const res = await this.fetch(url, { method: 'GET' }, 'file');
    if (!res.ok) {
      let parsed: BotApiAnswer<unknown> | undefined;
      try {
        parsed = (await res.json()) as BotApiAnswer<unknown>;
      } catch {
        parsed = undefined;
      }
      throw errorOf(res.status, parsed);
    }
    const buffer = Buffer.from(await res.arrayBuffer());
    if (buffer.length > maxBytes) throw new ChannelSendError(`mídia maior que o limite de ${maxBytes} bytes`, false, res.status);
    return { buffer, contentType: res.headers.get('content-type') };
  }

  private async fetch(url: string, init: RequestInit, method: string): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      // Never the URL: it carries the bot token.
      throw noAnswerError(err, 'Telegram Bot API', this.timeoutMs, method);
    }
  }
}

function errorOf(status: number, body: BotApiAnswer<unknown> | undefined): ChannelSendError {
  const code = body?.error_code ?? status;
  const retryAfter = body?.parameters?.retry_after;
  const description = body?.description
    ? `Telegram: ${body.description}${retryAfter ? ` (tente após ${retryAfter} s)` : ''}`
    : `Telegram: HTTP ${status}`;
  const retryable = status >= 500 || status === 429 || code === 429 || code >= 500;
  const waitMs = typeof retryAfter === 'number' && retryAfter >= 0 ? Math.min(retryAfter * 1000, RETRY_AFTER_MAX_MS) : undefined;
  return new ChannelSendError(description, retryable, status, String(code), waitMs);
}
