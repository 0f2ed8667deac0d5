import { ChannelSendError, retryAfterMsOf } from '../channel-adapter';
import { downloadUrl, timedFetch } from '../meta/meta-graph-client';
import { unreadableAnswer } from '../provider-http';

/**
 * A client of the notification hub's HTTP API (NotificaMe-style). The real API's documentation
 * is not available to this project, so the protocol below is ours, modelled on NotificaMe's
 * public shape (channels addressed by id, a token header, `contents` arrays), and documented in
 * docs/api.md; adjusting it to the real hub means changing this file, hub-webhook.ts and the fake.
 *
 *   Header on every call: X-API-Token: <hubToken>
 *   GET    /v1/channels/{channel}          -> {id, name, type, status: 'ACTIVE'|'INACTIVE', number?}
 *   PUT    /v1/channels/{channel}/webhook  {url, secret} -> {url}   (the hub then POSTs events to
 *          url with header X-Hub-Webhook-Secret: <secret>)
 *   DELETE /v1/channels/{channel}/webhook  -> 204
 *   POST   /v1/channels/{channel}/files    multipart `file` -> {fileId, fileUrl}
 *   POST   /v1/channels/{channel}/messages {to, contents: [{type:'text', text} | {type:'file',
 *          fileUrl, fileMimeType, fileName, fileCaption?}], replyTo?} -> {id, timestamp}
 *   Errors: {error: {code, message}}.
 * Failures become ChannelSendError: no answer, 5xx and 429 retryable (a connection lost
 * mid-answer: may have arrived, provider-http.ts); other 4xx final with the hub's message.
 */
export interface HubClientOptions {
  baseUrl: string;
  token: string;
  channel: string;
  timeoutMs: number;
}

export interface HubErrorBody {
  error?: { code?: string | number; message?: string };
  message?: string;
}

type Body = { json: unknown } | { form: FormData } | undefined;

export class HubClient {
  constructor(private readonly opts: HubClientOptions) {}

  /** `path` below the channel, e.g. `/messages` ('' for the channel itself). */
  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Body): Promise<T> {
    const url = `${this.opts.baseUrl}/v1/channels/${encodeURIComponent(this.opts.channel)}${path}`;
    const headers: Record<string, string> = { 'x-api-token': this.opts.token, accept: 'application/json' };
    let payload: string | FormData | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      payload = body.form;
    }
    const res = await timedFetch(url, { method, headers, body: payload }, this.opts.timeoutMs, 'Hub');
    if (!res.ok) throw await hubErrorOf(res);
    if (res.status === 204) return undefined as T;
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw unreadableAnswer(err, 'Hub', res.status);
    }
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw unreadableAnswer(err, 'Hub', res.status);
    }
  }

  /**
   * Bytes of an inbound file. The token goes only to the hub's own origin (a file hosted
   * elsewhere gets no credentials).
   */
  async download(fileUrl: string, maxBytes: number): Promise<{ buffer: Buffer; contentType: string | null }> {
    const sameOrigin = originOf(fileUrl) !== null && originOf(fileUrl) === originOf(this.opts.baseUrl);
    return downloadUrl(fileUrl, maxBytes, this.opts.timeoutMs, 'Hub', sameOrigin ? { 'x-api-token': this.opts.token } : {});
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

async function hubErrorOf(res: Response): Promise<ChannelSendError> {
  let parsed: HubErrorBody | undefined;
  try {
    parsed = (await res.json()) as HubErrorBody;
  } catch {
    parsed = undefined;
  }
  const detail = parsed?.error?.message ?? parsed?.message;
  const code = parsed?.error?.code;
  const message = detail ? `Hub: ${detail}${code !== undefined ? ` (${code})` : ''}` : `Hub: HTTP ${res.status}`;
  const retryable = res.status >= 500 || res.status === 429;
  return new ChannelSendError(message, retryable, res.status, code !== undefined ? String(code) : undefined, retryAfterMsOf(res.headers));
}
