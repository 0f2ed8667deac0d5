import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendJson, type RecordedRequest } from './fake-http-server';

/**
 * A local stand-in for the Evolution API v2, written for the tests (no Evolution code copied):
 * the endpoints the evo adapter calls, instances with their state, QR codes, a configurable
 * version, and webhooks posted to our server as Evolution posts them.
 *
 *   GET    /                                   {status: 200, message, version}
 *   POST   /instance/create                    403 when the name is taken; else {instance, hash, qrcode}
 *   GET    /instance/connect/:name             {pairingCode, code, base64, count} | {instance: {instanceName, state: 'open'}}
 *   GET    /instance/connectionState/:name     {instance: {instanceName, state}}; 404 unknown instance
 *   GET    /instance/fetchInstances            [{name, connectionStatus, ownerJid, profileName}]
 *   DELETE /instance/logout/:name              400 when not connected or connecting
 *   DELETE /instance/delete/:name
 *   POST   /webhook/set/:name                  {webhook: {enabled, url, byEvents, base64, events}}
 *   POST   /message/sendText|sendMedia|sendWhatsAppAudio|sendReaction/:name
 *   POST   /chat/updateMessage/:name, DELETE /chat/deleteMessageForEveryone/:name
 *   POST   /chat/getBase64FromMediaMessage/:name {message: {key: {id}}}
 * Every call needs the `apikey` header, else 401. Errors have Evolution's shape:
 * {status, error, response: {message: string[]}}.
 */

export interface FakeEvolutionInstance {
  name: string;
  state: 'open' | 'connecting' | 'close';
  ownerJid: string | null;
  webhook: { enabled: boolean; url: string; byEvents: boolean; base64: boolean; events: string[] } | null;
  qrCount: number;
  code: string;
  pairingCode: string | null;
}

export interface EvolutionMessageSpec {
  /** Digits of the sender (or a full JID: group, LID). */
  from: string;
  id?: string;
  pushName?: string;
  /** The `message` proto, e.g. {conversation: 'oi'}; text 'Olá!' by default. */
  message?: Record<string, unknown>;
  participant?: string;
  remoteJidAlt?: string;
  fromMe?: boolean;
  timestamp?: number;
  contextInfo?: Record<string, unknown>;
}

export class FakeEvolutionApi extends FakeHttpServer {
  apiKey = `evo-${randomBytes(12).toString('hex')}`;
  version: string;
  readonly instances = new Map<string, FakeEvolutionInstance>();
  /** Media served by getBase64FromMediaMessage, by message id. */
  readonly media = new Map<string, { bytes: Buffer; mimetype: string; fileName?: string }>();
  /** Our server's origin: registered webhook URLs are posted there (keeping path and secret). */
  webhookOrigin = '';
  private counter = 0;

  constructor(opts: { version?: string } = {}) {
    super();
    this.version = opts.version ?? '2.20.3';
  }

  /** The paired phone scans the QR code: state open; the connection.update webhook unless told not to. */
  async scan(name: string, number: string, opts: { webhook?: boolean } = {}): Promise<{ status: number; body: any } | null> {
    const instance = this.mustGet(name);
    instance.state = 'open';
    instance.ownerJid = `${number}@s.whatsapp.net`;
    if (opts.webhook === false) return null;
    return this.deliver(name, 'connection.update', { instance: name, state: 'open', statusReason: 200, wuid: instance.ownerJid, profileName: 'Loja' });
  }

  /** A new QR code, posted as qrcode.updated. */
  async refreshQr(name: string): Promise<{ status: number; body: any }> {
    const instance = this.mustGet(name);
    this.newCode(instance);
    return this.deliver(name, 'qrcode.updated', { qrcode: { instance: name, pairingCode: instance.pairingCode, code: instance.code, base64: this.png(instance.code) } });
  }

  /** The phone logged the session out: close with reason 401. */
  async logoutFromPhone(name: string): Promise<{ status: number; body: any }> {
    const instance = this.mustGet(name);
    instance.state = 'close';
    instance.ownerJid = null;
    return this.deliver(name, 'connection.update', { instance: name, state: 'close', statusReason: 401 });
  }

  /** An inbound message (messages.upsert), as Evolution posts it. */
  async inbound(name: string, spec: EvolutionMessageSpec, opts: { secret?: string | null } = {}): Promise<{ status: number; body: any; id: string }> {
    const id = spec.id ?? `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    const remoteJid = spec.from.includes('@') ? spec.from : `${spec.from}@s.whatsapp.net`;
    const res = await this.deliver(
      name,
      'messages.upsert',
      {
        key: { remoteJid, fromMe: spec.fromMe ?? false, id, ...(spec.participant ? { participant: spec.participant } : {}), ...(spec.remoteJidAlt ? { remoteJidAlt: spec.remoteJidAlt } : {}) },
        pushName: spec.pushName ?? 'Cliente',
        message: spec.message ?? { conversation: 'Olá!' },
        messageType: Object.keys(spec.message ?? { conversation: '' })[0],
        messageTimestamp: spec.timestamp ?? Math.floor(Date.now() / 1000),
        instanceId: name,
        source: 'android',
        ...(spec.contextInfo ? { contextInfo: spec.contextInfo } : {}),
      },
      opts,
    );
    return { ...res, id };
  }

  /** A delivery status of one of our messages (messages.update). */
  ack(name: string, id: string, status: 'SERVER_ACK' | 'DELIVERY_ACK' | 'READ' | 'PLAYED' | 'ERROR', remoteJid = ''): Promise<{ status: number; body: any }> {
    return this.deliver(name, 'messages.update', { messageId: `db-${id}`, keyId: id, remoteJid, fromMe: true, status, instanceId: name });
  }

  /**
   * Posts an event to the instance's registered webhook as Evolution does (origin replaced by
   * webhookOrigin; `secret` overrides the URL's secret, null removes it).
   */
  async deliver(name: string, event: string, data: unknown, opts: { secret?: string | null } = {}): Promise<{ status: number; body: any }> {
    const instance = this.mustGet(name);
    if (!instance.webhook?.url) throw new Error(`instance ${name} has no webhook`);
    const url = new URL(instance.webhook.url);
    const target = new URL(`${url.pathname}${url.search}`, this.webhookOrigin || url.origin);
    if (opts.secret === null) target.searchParams.delete('secret');
    else if (opts.secret !== undefined) target.searchParams.set('secret', opts.secret);
    return postJson(target.toString(), {
      event,
      instance: name,
      data,
      destination: instance.webhook.url,
      date_time: new Date().toISOString(),
      sender: instance.ownerJid,
      server_url: this.url,
      apikey: this.apiKey,
    });
  }

  /** Accepted sends (sendText, sendMedia, sendWhatsAppAudio), in order. */
  sends(): RecordedRequest[] {
    return this.requests.filter((r) => /^\/message\/(sendText|sendMedia|sendWhatsAppAudio)\//.test(r.path));
  }

  protected override failureBody(status: number): unknown {
    return { status, error: status >= 500 ? 'Internal Server Error' : 'Bad Request', response: { message: [status >= 500 ? 'Internal Server Error' : 'Bad Request'] } };
  }

  private mustGet(name: string): FakeEvolutionInstance {
    const instance = this.instances.get(name);
    if (!instance) throw new Error(`no instance ${name}`);
    return instance;
  }

  private newCode(instance: FakeEvolutionInstance): void {
    instance.qrCount++;
    instance.code = `2@${randomBytes(24).toString('base64')},${instance.name},${instance.qrCount}`;
  }

  private png(code: string): string {
    return `data:image/png;base64,${Buffer.from(`PNG:${code}`).toString('base64')}`;
  }

  private qr(instance: FakeEvolutionInstance) {
    return { pairingCode: instance.pairingCode, code: instance.code, base64: this.png(instance.code), count: instance.qrCount };
  }

  protected route(req: RecordedRequest, res: ServerResponse): void {
    const error = (status: number, message: string) =>
      sendJson(res, status, { status, error: status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Bad Request', response: { message: [message] } });
    if (req.headers.apikey !== this.apiKey) return error(401, 'Unauthorized');
    if (req.method === 'GET' && req.path === '/') {
      return sendJson(res, 200, { status: 200, message: 'Welcome to the Evolution API, it is working!', version: this.version, clientName: 'fake' });
    }
    if (req.method === 'POST' && req.path === '/instance/create') {
      const name = String(req.json?.instanceName ?? '');
      if (!name) return error(400, 'instanceName is required');
      if (this.instances.has(name)) return error(403, `This name "${name}" is already in use.`);
      const instance: FakeEvolutionInstance = { name, state: 'connecting', ownerJid: null, webhook: null, qrCount: 0, code: '', pairingCode: null };
      this.newCode(instance);
      this.instances.set(name, instance);
      return sendJson(res, 201, {
        instance: { instanceName: name, instanceId: randomBytes(8).toString('hex'), integration: req.json?.integration, status: 'connecting' },
        hash: randomBytes(8).toString('hex'),
        webhook: {},
        qrcode: this.qr(instance),
      });
    }
    if (req.method === 'GET' && req.path === '/instance/fetchInstances') {
      const only = req.query.get('instanceName');
      const items = [...this.instances.values()]
        .filter((i) => !only || i.name === only)
        .map((i) => ({ name: i.name, connectionStatus: i.state, ownerJid: i.ownerJid, profileName: i.ownerJid ? 'Loja' : null }));
      return sendJson(res, 200, items);
    }
    const m = /^\/([a-zA-Z]+)\/([a-zA-Z0-9]+)\/([^/]+)$/.exec(req.path);
    if (!m) return error(404, 'Cannot find route');
    const [, group, action, rawName] = m;
    const name = decodeURIComponent(rawName);
    const instance = this.instances.get(name);
    if (!instance) return error(404, `The "${name}" instance does not exist`);
    const route = `${req.method} /${group}/${action}`;
    switch (route) {
      case 'GET /instance/connect':
        if (instance.state === 'open') return sendJson(res, 200, { instance: { instanceName: name, state: 'open' } });
        if (instance.state === 'close') {
          instance.state = 'connecting';
          this.newCode(instance);
        }
        instance.pairingCode = req.query.get('number') ? `${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}`.toUpperCase() : null;
        return sendJson(res, 200, this.qr(instance));
      case 'GET /instance/connectionState':
        return sendJson(res, 200, { instance: { instanceName: name, state: instance.state } });
      case 'DELETE /instance/logout':
        if (instance.state === 'close') return error(400, `The "${name}" instance is not connected`);
        instance.state = 'close';
        instance.ownerJid = null;
        return sendJson(res, 200, { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } });
      case 'DELETE /instance/delete':
        this.instances.delete(name);
        return sendJson(res, 200, { status: 'SUCCESS', error: false, response: { message: 'Instance deleted' } });
      case 'POST /webhook/set': {
        const webhook = req.json?.webhook;
        if (!webhook?.url) return error(400, 'webhook.url is required');
        instance.webhook = { enabled: !!webhook.enabled, url: webhook.url, byEvents: !!webhook.byEvents, base64: !!webhook.base64, events: webhook.events ?? [] };
        return sendJson(res, 201, { webhook: { instanceName: name, webhook: instance.webhook } });
      }
      case 'POST /message/sendText':
      case 'POST /message/sendMedia':
      case 'POST /message/sendWhatsAppAudio':
      case 'POST /message/sendReaction': {
        if (instance.state !== 'open') return error(400, 'Connection Closed');
        const body = req.json ?? {};
        if (action === 'sendReaction') {
          if (!body.key?.id) return error(400, 'key.id is required');
          return sendJson(res, 201, { key: { remoteJid: body.key.remoteJid, fromMe: true, id: this.nextId() }, message: { reactionMessage: { key: body.key, text: body.reaction } }, messageTimestamp: now(), status: 'PENDING' });
        }
        const number = String(body.number ?? '');
        if (!/^\d{8,15}$/.test(number) && !number.endsWith('@g.us')) return error(400, `{"jid":"${number}","exists":false,"number":"${number}"}`);
        if (action === 'sendText' && !body.text) return error(400, 'text is required');
        if (action === 'sendMedia' && (!body.media || !body.mediatype)) return error(400, 'media is required');
        const remoteJid = number.includes('@') ? number : `${number}@s.whatsapp.net`;
        return sendJson(res, 201, { key: { remoteJid, fromMe: true, id: this.nextId() }, pushName: '', status: 'PENDING', message: {}, messageType: action, messageTimestamp: now(), instanceId: name });
      }
      case 'POST /chat/updateMessage':
        return sendJson(res, 201, { key: req.json?.key, status: 'PENDING', messageTimestamp: now() });
      case 'DELETE /chat/deleteMessageForEveryone':
        return sendJson(res, 201, { key: { ...(req.json ?? {}) }, message: { protocolMessage: { type: 'REVOKE' } } });
      case 'POST /chat/getBase64FromMediaMessage': {
        const id = req.json?.message?.key?.id;
        const item = this.media.get(String(id));
        if (!item) return error(400, 'Message not found');
        return sendJson(res, 201, { mediaType: 'document', fileName: item.fileName, size: { fileLength: item.bytes.length }, mimetype: item.mimetype, base64: item.bytes.toString('base64') });
      }
      default:
        return error(404, 'Cannot find route');
    }
  }

  private nextId(): string {
    return `BAE5${(++this.counter).toString(16).toUpperCase().padStart(4, '0')}${randomBytes(6).toString('hex').toUpperCase()}`;
  }
}

const now = () => Math.floor(Date.now() / 1000);

export const newWaNumber = (): string => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
