import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendBytes, sendJson, type RecordedFile, type RecordedRequest } from './fake-http-server';

/**
 * A local stand-in for the notification hub, speaking the protocol of
 * server/src/channels/hub/hub-client.ts (ours, NotificaMe-style; the real hub's documentation is
 * not available here). Real HTTP on 127.0.0.1, every request recorded, failures on demand
 * (FakeHttpServer), files to download, and events posted to our webhook as the hub would.
 *
 *   GET    /v1/channels/{channel}          -> {id, name, type, status, number}
 *   PUT    /v1/channels/{channel}/webhook  {url, secret} -> {url}
 *   DELETE /v1/channels/{channel}/webhook  -> 204
 *   POST   /v1/channels/{channel}/files    multipart `file` -> {fileId, fileUrl}
 *   POST   /v1/channels/{channel}/messages {to, contents, replyTo?} -> {id, timestamp}
 *   GET    /files/{fileId}                 -> the bytes (X-API-Token required)
 * A wrong X-API-Token answers 401 {error: {code: 'UNAUTHORIZED', message: 'Invalid API token'}};
 * an unknown channel 404.
 */
export class FakeHubApi extends FakeHttpServer {
  token: string;
  readonly channelId: string;
  channelStatus = 'ACTIVE';
  channelNumber = '5511999990000';
  /** Our webhook as registered by the adapter (PUT /webhook). */
  webhook: { url: string; secret: string } | null = null;
  private readonly files = new Map<string, { bytes: Buffer; mimeType: string; name: string }>();
  private sentCount = 0;

  constructor(opts: { token?: string } = {}) {
    super();
    this.token = opts.token ?? `hub_${randomBytes(16).toString('hex')}`;
    this.channelId = `chan-${randomBytes(6).toString('hex')}`;
  }

  /** A file the fake serves; answers its URL (as an inbound content's fileUrl). */
  addFile(bytes: Buffer, mimeType: string, name = 'arquivo.bin'): string {
    const id = randomBytes(8).toString('hex');
    this.files.set(id, { bytes, mimeType, name });
    return `${this.url}/files/${id}`;
  }

  /** Accepted or refused send calls, in order. */
  messageCalls(): RecordedRequest[] {
    return this.requestsTo(`/v1/channels/${this.channelId}/messages`, 'POST');
  }

  sentTo(to: string): any[] {
    return this.messageCalls()
      .map((r) => r.json)
      .filter((j) => j?.to === to);
  }

  uploads(): RecordedRequest[] {
    return this.requestsTo(`/v1/channels/${this.channelId}/files`, 'POST');
  }

  protected override failureBody(status: number): unknown {
    return status >= 500
      ? { error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error' } }
      : { error: { code: 'BAD_REQUEST', message: 'Invalid request' } };
  }

  protected route(req: RecordedRequest, res: ServerResponse): void {
    if (req.headers['x-api-token'] !== this.token) {
      return sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: 'Invalid API token' } });
    }
    const file = /^\/files\/([0-9a-f]+)$/.exec(req.path);
    if (file && req.method === 'GET') {
      const item = this.files.get(file[1]);
      if (!item) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'File not found' } });
      return sendBytes(res, item.bytes, item.mimeType);
    }
    const m = /^\/v1\/channels\/([^/]+)(\/[a-z]+)?$/.exec(req.path);
    if (!m) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    if (decodeURIComponent(m[1]) !== this.channelId) {
      return sendJson(res, 404, { error: { code: 'CHANNEL_NOT_FOUND', message: `Channel ${m[1]} not found` } });
    }
    const edge = m[2] ?? '';
    const bad = (message: string) => sendJson(res, 400, { error: { code: 'BAD_REQUEST', message } });
    if (edge === '' && req.method === 'GET') {
      return sendJson(res, 200, {
        id: this.channelId,
        name: 'WhatsApp Loja',
        type: 'whatsapp',
        status: this.channelStatus,
        number: this.channelNumber,
      });
    }
    if (edge === '/webhook' && req.method === 'PUT') {
      const { url, secret } = req.json ?? {};
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return bad('webhook url must be http(s)');
      if (typeof secret !== 'string' || secret.length < 16) return bad('webhook secret must have 16 characters or more');
      this.webhook = { url, secret };
      return sendJson(res, 200, { url });
    }
    if (edge === '/webhook' && req.method === 'DELETE') {
      this.webhook = null;
      res.writeHead(204);
      res.end();
      return;
    }
    if (edge === '/files' && req.method === 'POST') {
      const f = req.form?.file as RecordedFile | undefined;
      if (!f || typeof f === 'string') return bad('file is required');
      const id = randomBytes(8).toString('hex');
      this.files.set(id, { bytes: f.bytes, mimeType: f.type, name: f.name });
      return sendJson(res, 200, { fileId: id, fileUrl: `${this.url}/files/${id}` });
    }
    if (edge === '/messages' && req.method === 'POST') {
      const body = req.json;
      if (!body?.to) return bad('to is required');
      const contents = Array.isArray(body.contents) ? body.contents : [];
      if (contents.length === 0) return bad('contents must not be empty');
      for (const c of contents) {
        if (c.type === 'text' && !c.text) return bad('text content must not be empty');
        if (c.type === 'file' && (!c.fileUrl || !c.fileMimeType)) return bad('file content needs fileUrl and fileMimeType');
        if (c.type !== 'text' && c.type !== 'file') return bad(`unknown content type ${c.type}`);
      }
      return sendJson(res, 200, {
        id: `hubmsg-${randomBytes(8).toString('hex')}-${++this.sentCount}`,
        timestamp: new Date().toISOString(),
      });
    }
    return sendJson(res, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${req.method} ${req.path}` } });
  }
}

// ---------- Events, as the hub posts them ----------

export const newHubContact = (): string => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
export const newHubMessageId = (): string => `hubin-${randomBytes(10).toString('hex')}`;

export function hubMessageEvent(
  channel: string,
  from: string,
  contents: Record<string, unknown>[],
  opts: { id?: string; name?: string; direction?: 'IN' | 'OUT'; replyTo?: string } = {},
): Record<string, unknown> {
  return {
    type: 'MESSAGE',
    id: `evt-${randomBytes(6).toString('hex')}`,
    channel,
    direction: opts.direction ?? 'IN',
    message: {
      id: opts.id ?? newHubMessageId(),
      from,
      to: channel,
      direction: opts.direction ?? 'IN',
      timestamp: new Date().toISOString(),
      visitor: { name: opts.name ?? 'Cliente Hub' },
      contents,
      ...(opts.replyTo ? { replyTo: opts.replyTo } : {}),
    },
  };
}

export function hubStatusEvent(
  channel: string,
  messageId: string,
  code: 'SENT' | 'DELIVERED' | 'READ' | 'REJECTED' | 'NOT_DELIVERED',
  description?: string,
): Record<string, unknown> {
  return {
    type: 'MESSAGE_STATUS',
    id: `evt-${randomBytes(6).toString('hex')}`,
    channel,
    messageId,
    status: { code, timestamp: new Date().toISOString(), ...(description ? { description } : {}) },
  };
}

/**
 * POSTs events to our webhook as the hub does: the secret in X-Hub-Webhook-Secret, or in
 * `?secret=` with `{query: true}`, or none with null.
 */
export async function deliverHubEvent(
  url: string,
  events: unknown,
  secret: string | null,
  opts: { query?: boolean } = {},
): Promise<{ status: number; body: any }> {
  if (secret !== null && opts.query) return postJson(`${url}?secret=${encodeURIComponent(secret)}`, events);
  return postJson(url, events, secret !== null ? { 'x-hub-webhook-secret': secret } : {});
}
