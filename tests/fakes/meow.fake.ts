import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendBytes, sendJson, type RecordedRequest } from './fake-http-server';

/**
 * A local Meow gateway speaking the protocol our meow adapter models (meow-adapter.ts; no real
 * Meow server was available to verify it against): one session per bearer token, QR codes,
 * pairing codes, sends, reactions, media, and webhooks posted to our server as `{event, data}`.
 * Errors: {error: {code, message}}; a missing or unknown token answers 401.
 */

export interface FakeMeowSession {
  token: string;
  state: 'logged_out' | 'connecting' | 'qr' | 'connected';
  qr: string | null;
  pairingCode: string | null;
  jid: string | null;
  webhookUrl: string | null;
}

export class FakeMeow extends FakeHttpServer {
  readonly sessions = new Map<string, FakeMeowSession>();
  /** Media served by GET /v1/media/:id. */
  readonly media = new Map<string, { bytes: Buffer; mimeType: string }>();
  webhookOrigin = '';
  private counter = 0;

  addToken(): string {
    const token = `meow-${randomBytes(12).toString('hex')}`;
    this.sessions.set(token, { token, state: 'logged_out', qr: null, pairingCode: null, jid: null, webhookUrl: null });
    return token;
  }

  session(token: string): FakeMeowSession {
    const s = this.sessions.get(token);
    if (!s) throw new Error('no meow session');
    return s;
  }

  async scan(token: string, number: string, opts: { webhook?: boolean } = {}): Promise<{ status: number; body: any } | null> {
    const s = this.session(token);
    Object.assign(s, { state: 'connected', qr: null, pairingCode: null, jid: `${number}.0:3@s.whatsapp.net` });
    if (opts.webhook === false) return null;
    return this.deliver(token, 'session.connected', { jid: s.jid });
  }

  logoutFromPhone(token: string): Promise<{ status: number; body: any }> {
    Object.assign(this.session(token), { state: 'logged_out', jid: null });
    return this.deliver(token, 'session.logged_out', { reason: 'desconectada no celular' });
  }

  async inbound(token: string, data: Record<string, unknown>, opts: { secret?: string | null } = {}): Promise<{ status: number; body: any; id: string }> {
    const id = String(data.id ?? `3EB0${randomBytes(8).toString('hex').toUpperCase()}`);
    const chat = String(data.chat ?? '');
    const res = await this.deliver(
      token,
      'message',
      { sender: chat, pushName: 'Cliente', fromMe: false, timestamp: Math.floor(Date.now() / 1000), ...data, id, chat: chat.includes('@') ? chat : `${chat}@s.whatsapp.net` },
      opts,
    );
    return { ...res, id };
  }

  ack(token: string, ids: string[], status: 'delivered' | 'read' | 'played' | 'failed'): Promise<{ status: number; body: any }> {
    return this.deliver(token, 'receipt', { ids, status });
  }

  async deliver(token: string, event: string, data: unknown, opts: { secret?: string | null } = {}): Promise<{ status: number; body: any }> {
    const s = this.session(token);
    if (!s.webhookUrl) throw new Error('meow session has no webhook');
    const url = new URL(s.webhookUrl);
    const target = new URL(`${url.pathname}${url.search}`, this.webhookOrigin || url.origin);
    if (opts.secret === null) target.searchParams.delete('secret');
    else if (opts.secret !== undefined) target.searchParams.set('secret', opts.secret);
    return postJson(target.toString(), { event, data });
  }

  sends(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
  }

  protected override failureBody(status: number): unknown {
    return { error: { code: status >= 500 ? 'internal' : 'invalid_recipient', message: status >= 500 ? 'internal error' : 'invalid recipient' } };
  }

  private view(s: FakeMeowSession) {
    return { state: s.state, qr: s.qr, pairingCode: s.pairingCode, jid: s.jid };
  }

  protected route(req: RecordedRequest, res: ServerResponse): void {
    const fail = (status: number, code: string, message: string) => sendJson(res, status, { error: { code, message } });
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const s = this.sessions.get(token);
    if (!s) return fail(401, 'unauthorized', 'invalid token');
    const body = req.json ?? {};
    const route = `${req.method} ${req.path}`;
    if (route === 'POST /v1/session/start') {
      if (!body.webhookUrl) return fail(400, 'bad_request', 'webhookUrl is required');
      s.webhookUrl = body.webhookUrl;
      if (s.state !== 'connected') {
        s.state = 'qr';
        s.qr = `2@${randomBytes(20).toString('base64')}`;
        s.pairingCode = body.pairingNumber ? `${randomBytes(4).toString('hex').toUpperCase()}` : null;
      }
      return sendJson(res, 200, this.view(s));
    }
    if (route === 'GET /v1/session') return sendJson(res, 200, this.view(s));
    if (route === 'POST /v1/session/logout') {
      Object.assign(s, { state: 'logged_out', qr: null, pairingCode: null, jid: null });
      return sendJson(res, 200, { state: 'logged_out' });
    }
    if (route === 'DELETE /v1/session') {
      this.sessions.delete(token);
      return sendJson(res, 200, { deleted: true });
    }
    if (route === 'POST /v1/messages') {
      if (s.state !== 'connected') return fail(409, 'not_connected', 'session not connected');
      const to = String(body.to ?? '');
      if (!/^\d{8,15}$/.test(to) && !to.endsWith('@g.us')) return fail(400, 'invalid_recipient', `invalid recipient ${to}`);
      if (!body.text && !body.media?.base64) return fail(400, 'bad_request', 'text or media is required');
      return sendJson(res, 200, { id: this.nextId(), timestamp: Math.floor(Date.now() / 1000) });
    }
    const reaction = /^\/v1\/messages\/([^/]+)\/reactions$/.exec(req.path);
    if (req.method === 'POST' && reaction) return sendJson(res, 200, { id: this.nextId() });
    const media = /^\/v1\/media\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && media) {
      const item = this.media.get(decodeURIComponent(media[1]));
      if (!item) return fail(404, 'not_found', 'media not found');
      return sendBytes(res, item.bytes, item.mimeType);
    }
    return fail(404, 'not_found', 'route not found');
  }

  private nextId(): string {
    return `MEOW${(++this.counter).toString(16).toUpperCase().padStart(4, '0')}${randomBytes(6).toString('hex').toUpperCase()}`;
  }
}
