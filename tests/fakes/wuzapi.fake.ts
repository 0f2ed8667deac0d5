import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendJson, type RecordedRequest } from './fake-http-server';

/**
 * A local stand-in for Wuzapi, written for the tests (no Wuzapi code copied): users (one
 * WhatsApp session per token), the session, webhook, send, react and download endpoints the
 * wuzapi adapter calls, and webhooks posted to our server as Wuzapi posts them (JSON, or the
 * older form format with `jsonData`).
 *
 *   POST /session/connect | /session/logout | /session/disconnect
 *   GET  /session/status  {code, data: {Connected, LoggedIn, jid}, success}
 *   GET  /session/qr      {data: {QRCode: 'data:image/png;base64,...'}}; 500 'already logged in'
 *   POST /webhook {webhookURL, events}; DELETE /webhook
 *   POST /chat/send/text|image|video|audio|document -> {data: {Details: 'Sent', Timestamp, Id}}
 *   POST /chat/react; POST /chat/downloadimage|downloadvideo|downloadaudio|downloaddocument
 * A missing or unknown `Token` header answers 401 {code: 401, error: 'unauthorized', success: false}.
 */

export interface FakeWuzapiUser {
  token: string;
  connected: boolean;
  loggedIn: boolean;
  jid: string | null;
  webhook: string | null;
  events: string[];
  qr: string | null;
}

export class FakeWuzapi extends FakeHttpServer {
  readonly users = new Map<string, FakeWuzapiUser>();
  /** Media served by /chat/download*, by DirectPath. */
  readonly media = new Map<string, { bytes: Buffer; mimetype: string }>();
  webhookOrigin = '';
  /** 'form' posts `jsonData=<json>` as older Wuzapi servers do. */
  webhookFormat: 'json' | 'form' = 'json';
  private counter = 0;

  /** A Wuzapi user created by the gateway's administrator; answers its token. */
  addUser(): string {
    const token = `wz-${randomBytes(12).toString('hex')}`;
    this.users.set(token, { token, connected: false, loggedIn: false, jid: null, webhook: null, events: [], qr: null });
    return token;
  }

  user(token: string): FakeWuzapiUser {
    const u = this.users.get(token);
    if (!u) throw new Error('no such wuzapi user');
    return u;
  }

  async scan(token: string, number: string, opts: { webhook?: boolean } = {}): Promise<{ status: number; body: any } | null> {
    const u = this.user(token);
    u.loggedIn = true;
    u.connected = true;
    u.jid = `${number}:7@s.whatsapp.net`;
    u.qr = null;
    if (opts.webhook === false) return null;
    return this.deliver(token, { type: 'PairSuccess', event: { ID: u.jid, BusinessName: '', Platform: 'android' } });
  }

  refreshQr(token: string): Promise<{ status: number; body: any }> {
    const u = this.user(token);
    u.qr = this.newQr();
    return this.deliver(token, { type: 'QR', event: 'code', qrCodeBase64: u.qr });
  }

  logoutFromPhone(token: string): Promise<{ status: number; body: any }> {
    const u = this.user(token);
    u.loggedIn = false;
    u.jid = null;
    return this.deliver(token, { type: 'LoggedOut', event: { OnConnect: false, Reason: 401 } });
  }

  async inbound(
    token: string,
    spec: { from: string; id?: string; pushName?: string; message?: Record<string, unknown>; extra?: Record<string, unknown>; isGroup?: boolean; sender?: string },
    opts: { secret?: string | null } = {},
  ): Promise<{ status: number; body: any; id: string }> {
    const id = spec.id ?? `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    const chat = spec.from.includes('@') ? spec.from : `${spec.from}@s.whatsapp.net`;
    const res = await this.deliver(
      token,
      {
        type: 'Message',
        event: {
          Info: {
            Chat: chat,
            Sender: spec.sender ?? chat,
            IsFromMe: false,
            IsGroup: chat.endsWith('@g.us'),
            ID: id,
            Type: 'text',
            PushName: spec.pushName ?? 'Cliente',
            Timestamp: new Date().toISOString(),
          },
          Message: spec.message ?? { conversation: 'Olá!' },
          IsEphemeral: false,
        },
        ...(spec.extra ?? {}),
      },
      opts,
    );
    return { ...res, id };
  }

  ack(token: string, ids: string[], chat: string, state: 'Delivered' | 'Read'): Promise<{ status: number; body: any }> {
    return this.deliver(token, {
      type: 'ReadReceipt',
      state,
      event: { Chat: chat, Sender: chat, IsFromMe: false, IsGroup: false, MessageIDs: ids, Timestamp: new Date().toISOString(), Type: state === 'Read' ? 'read' : '' },
    });
  }

  /** Posts to the user's webhook as Wuzapi does (origin replaced by webhookOrigin). */
  async deliver(token: string, payload: Record<string, unknown>, opts: { secret?: string | null } = {}): Promise<{ status: number; body: any }> {
    const u = this.user(token);
    if (!u.webhook) throw new Error('wuzapi user has no webhook');
    const url = new URL(u.webhook);
    const target = new URL(`${url.pathname}${url.search}`, this.webhookOrigin || url.origin);
    if (opts.secret === null) target.searchParams.delete('secret');
    else if (opts.secret !== undefined) target.searchParams.set('secret', opts.secret);
    if (this.webhookFormat === 'json') return postJson(target.toString(), { ...payload, token });
    const form = new URLSearchParams({ jsonData: JSON.stringify(payload), token });
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  sends(kind?: string): RecordedRequest[] {
    return this.requests.filter((r) => (kind ? r.path === `/chat/send/${kind}` : r.path.startsWith('/chat/send/')));
  }

  protected override failureBody(status: number): unknown {
    return { code: status, error: status >= 500 ? 'internal server error' : 'invalid phone', success: false };
  }

  private newQr(): string {
    return `data:image/png;base64,${Buffer.from(`PNG-${randomBytes(12).toString('hex')}`).toString('base64')}`;
  }

  protected route(req: RecordedRequest, res: ServerResponse): void {
    const fail = (status: number, error: string) => sendJson(res, status, { code: status, error, success: false });
    const ok = (data: unknown) => sendJson(res, 200, { code: 200, data, success: true });
    const token = String(req.headers.token ?? '');
    const u = this.users.get(token);
    if (!u) return fail(401, 'unauthorized');
    const body = req.json ?? {};
    switch (`${req.method} ${req.path}`) {
      case 'POST /session/connect':
        if (u.connected) return fail(500, 'already connected');
        u.connected = true;
        if (!u.loggedIn) u.qr = this.newQr();
        return ok({ details: 'Connected!', events: (body.Subscribe ?? []).join(','), jid: u.jid, webhook: u.webhook });
      case 'GET /session/status':
        return ok({ Connected: u.connected, LoggedIn: u.loggedIn, ...(u.jid ? { jid: u.jid } : {}) });
      case 'GET /session/qr':
        if (!u.connected) return fail(500, 'not connected');
        if (u.loggedIn) return fail(500, 'already logged in');
        return ok({ QRCode: u.qr ?? '' });
      case 'POST /session/logout':
        if (!u.loggedIn) return fail(500, 'could not logout: not logged in');
        u.loggedIn = false;
        u.connected = false;
        u.jid = null;
        return ok({ Details: 'Logged out' });
      case 'POST /session/disconnect':
        if (!u.connected) return fail(500, 'not connected');
        u.connected = false;
        return ok({ Details: 'Disconnected' });
      case 'POST /webhook':
        if (!body.webhookURL) return fail(400, 'missing webhookURL');
        u.webhook = body.webhookURL;
        u.events = body.events ?? [];
        return ok({ webhook: u.webhook, events: u.events });
      case 'DELETE /webhook':
        u.webhook = null;
        return ok({ Details: 'Webhook and events deleted successfully' });
      case 'POST /chat/react':
        if (!u.loggedIn) return fail(500, 'no session');
        if (!body.Phone || !body.Id) return fail(400, 'missing Phone or Id in Payload');
        return ok({ Details: 'Sent', Timestamp: now(), Id: this.nextId() });
      default:
        break;
    }
    const send = /^\/chat\/send\/(text|image|video|audio|document)$/.exec(req.path);
    if (req.method === 'POST' && send) {
      if (!u.loggedIn) return fail(500, 'no session');
      const phone = String(body.Phone ?? '');
      if (!/^\d{8,15}$/.test(phone) && !phone.endsWith('@g.us')) return fail(400, 'invalid phone');
      const field = { text: 'Body', image: 'Image', video: 'Video', audio: 'Audio', document: 'Document' }[send[1]]!;
      if (!body[field]) return fail(400, `missing ${field} in Payload`);
      if (send[1] !== 'text' && !/^data:[^;]+;base64,/.test(String(body[field]))) return fail(400, `${field} data should start with "data:...;base64,"`);
      return ok({ Details: 'Sent', Timestamp: now(), Id: this.nextId() });
    }
    const download = /^\/chat\/download(image|video|audio|document)$/.exec(req.path);
    if (req.method === 'POST' && download) {
      const item = this.media.get(String(body.DirectPath ?? ''));
      if (!item) return fail(500, 'failed to download media');
      return ok({ Mimetype: item.mimetype, Data: `data:${item.mimetype};base64,${item.bytes.toString('base64')}` });
    }
    return fail(404, 'not found');
  }

  private nextId(): string {
    return `3EB0${(++this.counter).toString(16).toUpperCase().padStart(4, '0')}${randomBytes(6).toString('hex').toUpperCase()}`;
  }
}

const now = () => Math.floor(Date.now() / 1000);
