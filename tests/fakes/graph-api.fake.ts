import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseForm, readBody, sendJson as json } from './fake-http-server';

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API), written for the tests: real HTTP on
 * 127.0.0.1, the endpoints the waba adapter calls, every request recorded, failures on demand,
 * media to download, and signed webhooks posted to our server as Meta would.
 *
 *   GET  /{v}/{phone-number-id}                  -> {id, display_phone_number, verified_name}
 *   POST /{v}/{phone-number-id}/messages         -> {messaging_product, contacts, messages: [{id}]}
 *   POST /{v}/{phone-number-id}/media (multipart) -> {id}
 *   GET  /{v}/{media-id}                         -> {url, mime_type, sha256, file_size, id}
 *   GET  /media-bytes/{media-id}                  -> the bytes (bearer token required)
 *   GET  /{v}/{waba-id}/message_templates        -> {data, paging} (two pages when many)
 * Every call needs `Authorization: Bearer <token>` with the configured token, else 401 with
 * Graph's OAuthException (code 190).
 *
 * Outages on demand: goDown() stops listening (connections refused) until comeBack() listens on
 * the same port again; failNext() answers 5xx/429/4xx, hangs, or resets the connection after
 * taking a send. acceptedMessages() lists the sends the fake took (what the customer received).
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, when JSON. */
  json?: any;
  /** Multipart fields (files as {name, type, size, bytes}). */
  form?: Record<string, string | { name: string; type: string; size: number; bytes: Buffer }>;
}

export type FakeFailure =
  | { status: 500 | 502 | 503 }
  | { status: 429; retryAfterSeconds?: number }
  | { status: 400 | 401 | 403 | 404; error?: { message: string; code: number; type?: string; error_subcode?: number } }
  /** Accepts the request and never answers (client timeout). */
  | { hang: true }
  /**
   * Takes the message (it counts as accepted: the customer gets it), then the connection
   * breaks: before any byte of the answer, or after the headers and part of the body.
   */
  | { reset: 'before-answer' | 'mid-answer' };

export interface FakeGraphOptions {
  token?: string;
  phoneNumberId?: string;
  businessAccountId?: string;
  displayPhoneNumber?: string;
}

export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string; format?: string; buttons?: { type: string; text: string; url?: string }[] }[];
}

export class FakeGraphApi {
  readonly requests: RecordedRequest[] = [];
  token: string;
  readonly phoneNumberId: string;
  readonly businessAccountId: string;
  displayPhoneNumber: string;
  templates: FakeTemplate[] = [
    {
      id: '1001',
      name: 'boas_vindas',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} chegou.' }],
    },
    {
      id: '1002',
      name: 'hello_world',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello World' }],
    },
    {
      id: '1003',
      name: 'pedido_enviado',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
        { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.' },
        { type: 'FOOTER', text: 'Loja Teste' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Rastrear', url: 'https://loja.example.com/rastreio/{{1}}' },
            { type: 'QUICK_REPLY', text: 'Falar com atendente' },
          ],
        },
      ],
    },
    {
      id: '1004',
      name: 'promo_pausada',
      language: 'pt_BR',
      status: 'PAUSED',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Promoção da semana' }],
    },
    {
      id: '1005',
      name: 'aviso_rejeitado',
      language: 'pt_BR',
      status: 'REJECTED',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Aviso' }],
    },
    {
      id: '1006',
      name: 'oferta_imagem',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Oi {{1}}, confira a oferta da semana.' },
      ],
    },
    {
      id: '1007',
      name: 'boleto_documento',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Segue o seu boleto.' },
      ],
    },
  ];
  /**
   * Recipients whose 24-hour window is closed: a free-form (non-template) send to them is
   * refused with 131047 as the Cloud API does. Empty by default (every window open).
   */
  readonly closedWindows = new Set<string>();
  /** Runs before a send is answered, with the id it will answer (e.g. to post its status first). */
  beforeSendAnswer?: (wamid: string, to: string) => Promise<void>;
  private readonly media = new Map<string, { bytes: Buffer; mimeType: string }>();
  private failures: { match: (r: RecordedRequest) => boolean; failure: FakeFailure; remaining: number }[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  private port = 0;
  private sent = 0;
  private readonly accepted: { to: string; json: any; wamid: string }[] = [];
  url = '';

  constructor(opts: FakeGraphOptions = {}) {
    this.token = opts.token ?? `EAAG${randomBytes(12).toString('hex')}`;
    this.phoneNumberId = opts.phoneNumberId ?? String(100000000000000 + Math.floor(Math.random() * 1e12));
    this.businessAccountId = opts.businessAccountId ?? String(200000000000000 + Math.floor(Math.random() * 1e12));
    this.displayPhoneNumber = opts.displayPhoneNumber ?? '+55 11 4000-0000';
  }

  /** Listens on `port` (a fixed port the server under test was pointed at), or one the system picks. */
  async start(port = this.port): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  /** The provider is down: the port stops listening and open connections are cut (clients see ECONNREFUSED). */
  async goDown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const res of this.hanging) res.destroy();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** The provider is back, on the same URL. */
  async comeBack(): Promise<void> {
    if (!this.server) await this.start();
  }

  /** Sends the fake took (answered, or taken before a reset), in order: what the customers received. */
  acceptedMessages(): { to: string; json: any; wamid: string }[] {
    return [...this.accepted];
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests matching `path` (substring or predicate) fail this way. */
  failNext(failure: FakeFailure, opts: { times?: number; path?: string | ((r: RecordedRequest) => boolean) } = {}): void {
    const p = opts.path;
    const match = typeof p === 'function' ? p : (r: RecordedRequest) => (p ? r.path.includes(p) : true);
    this.failures.push({ match, failure, remaining: opts.times ?? 1 });
  }

  clearFailures(): void {
    this.failures = [];
  }

  /** Ends the requests left hanging (the client sees its connection reset). */
  releaseHanging(): void {
    for (const res of this.hanging) res.destroy();
  }

  /** Media the fake serves for GET /{v}/{media-id}. Returns the media id. */
  addMedia(bytes: Buffer, mimeType: string, id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`): string {
    this.media.set(id, { bytes, mimeType });
    return id;
  }

  /** Sends recorded (POST .../messages), in order. */
  sentMessages(): any[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => r.json);
  }

  /**
   * The Cloud API's refusal of a send, in its error shape, or null: a template that is paused
   * (132015), not approved or unknown in that language (132001), whose parameters do not
   * match its placeholders (132000), or whose IMAGE, VIDEO or DOCUMENT header lacks its one
   * media parameter (`{type: 'image', image: {link}}` ...) (132012); a free-form message to a
   * closed window (131047).
   */
  private sendRefusal(
    body: any,
  ): { message: string; code: number; error_data: { messaging_product: 'whatsapp'; details: string } } | null {
    const refuse = (code: number, title: string, details: string) => ({
      message: `(#${code}) ${title}`,
      code,
      error_data: { messaging_product: 'whatsapp' as const, details },
    });
    if (body.type !== 'template') {
      if (this.closedWindows.has(body.to))
        return refuse(
          131047,
          'Re-engagement message',
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        );
      return null;
    }
    const name = body.template?.name;
    const language = body.template?.language?.code;
    const template = this.templates.find((t) => t.name === name && t.language === language);
    if (template?.status === 'PAUSED') return refuse(132015, 'Template is paused', `Template ${name} is paused.`);
    if (!template || template.status !== 'APPROVED')
      return refuse(132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${language}`);
    const count = (text?: string) => Math.max(0, ...[...(text ?? '').matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])));
    const given = (type: string, index?: number) =>
      ((body.template.components ?? []) as any[]).find((c) => c.type === type && (index === undefined || Number(c.index) === index))
        ?.parameters?.length ?? 0;
    const header = template.components.find((c) => c.type === 'HEADER');
    const bodyText = template.components.find((c) => c.type === 'BODY');
    const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    const mediaFormat =
      header && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(header.format ?? '') ? header.format!.toLowerCase() : null;
    if (mediaFormat) {
      const parameters = ((body.template.components ?? []) as any[]).find((c) => c.type === 'header')?.parameters ?? [];
      const [media] = parameters;
      const link = media?.[mediaFormat]?.link;
      if (parameters.length !== 1 || media?.type !== mediaFormat || typeof link !== 'string' || !link.startsWith('https://'))
        return refuse(
          132012,
          'Parameter format does not match format in the created template',
          `header: format mismatch, expected ${header!.format}`,
        );
    }
    const mismatch =
      (!mediaFormat && given('header') !== count(header?.text)) ||
      given('body') !== count(bodyText?.text) ||
      buttons.some((b, i) => given('button', i) !== count(b.url));
    if (mismatch)
      return refuse(132000, 'Number of parameters does not match the expected number of params', 'body: number of localizable_params does not match');
    return null;
  }

  private take(record: RecordedRequest): string {
    this.sent++;
    const wamid = `wamid.FAKE${this.sent}${randomBytes(6).toString('hex').toUpperCase()}`;
    this.accepted.push({ to: record.json?.to, json: record.json, wamid });
    return wamid;
  }

  /** A send is taken (when it is one), then the connection breaks before the answer is complete. */
  private takeThenReset(record: RecordedRequest, res: ServerResponse, when: 'before-answer' | 'mid-answer'): void {
    const isSend = record.method === 'POST' && record.path.endsWith('/messages') && record.json?.to;
    const wamid = isSend ? this.take(record) : 'none';
    if (when === 'before-answer') {
      res.socket?.destroy();
      return;
    }
    const body = JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: wamid }] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.write(body.slice(0, 20));
    // Flushed first, so the client has the headers and part of the body when the socket goes.
    setTimeout(() => res.socket?.destroy(), 20);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    };
    const contentType = String(req.headers['content-type'] ?? '');
    if (contentType.includes('application/json') && body.length) record.json = JSON.parse(body.toString('utf8'));
    if (contentType.includes('multipart/form-data')) record.form = await parseForm(body, contentType);
    this.requests.push(record);

    const failure = this.failures.find((f) => f.remaining > 0 && f.match(record));
    if (failure) {
      failure.remaining--;
      const f = failure.failure;
      if ('reset' in f) return this.takeThenReset(record, res, f.reset);
      if ('hang' in f) {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      if (f.status === 429) {
        if ('retryAfterSeconds' in f && f.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(f.retryAfterSeconds));
        return json(res, 429, { error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429 } });
      }
      if (f.status >= 500)
        return json(res, f.status, {
          error: {
            message: 'An unexpected error has occurred. Please retry your request later.',
            type: 'OAuthException',
            code: 2,
          },
        });
      const error = 'error' in f && f.error ? f.error : { message: '(#100) Invalid parameter', code: 100 };
      return json(res, f.status, { error: { type: 'OAuthException', fbtrace_id: 'Afake', ...error } });
    }

    if (url.pathname.startsWith('/media-bytes/')) {
      if (req.headers.authorization !== `Bearer ${this.token}`) return json(res, 401, oauthError());
      const item = this.media.get(decodeURIComponent(url.pathname.slice('/media-bytes/'.length)));
      if (!item) return json(res, 404, { error: { message: 'not found', code: 100 } });
      res.writeHead(200, { 'content-type': item.mimeType, 'content-length': item.bytes.length });
      res.end(item.bytes);
      return;
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return json(res, 401, oauthError());

    const parts = url.pathname.split('/').filter(Boolean); // [version, id, edge?]
    const [, id, edge] = parts;
    if (parts.length < 2) return json(res, 404, { error: { message: 'Unknown path', code: 803 } });
    if (record.method === 'GET' && parts.length === 2 && id === this.phoneNumberId) {
      return json(res, 200, {
        id,
        display_phone_number: this.displayPhoneNumber,
        verified_name: 'Atende Teste',
        quality_rating: 'GREEN',
      });
    }
    if (record.method === 'GET' && parts.length === 2 && this.media.has(id)) {
      const item = this.media.get(id)!;
      return json(res, 200, {
        messaging_product: 'whatsapp',
        url: `${this.url}/media-bytes/${encodeURIComponent(id)}`,
        mime_type: item.mimeType,
        sha256: createHmac('sha256', '').update(item.bytes).digest('hex'),
        file_size: item.bytes.length,
        id,
      });
    }
    if (record.method === 'POST' && id === this.phoneNumberId && edge === 'messages') {
      const to = record.json?.to;
      if (!to || !record.json?.type)
        return json(res, 400, { error: { message: '(#100) The parameter to is required.', code: 100 } });
      const refusal = this.sendRefusal(record.json);
      if (refusal) return json(res, 400, { error: { type: 'OAuthException', fbtrace_id: 'Afake', ...refusal } });
      const wamid = this.take(record);
      // Meta may post a status webhook before our send call has its answer.
      if (this.beforeSendAnswer) await this.beforeSendAnswer(wamid, to);
      return json(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: wamid }],
      });
    }
    if (record.method === 'POST' && id === this.phoneNumberId && edge === 'media') {
      const file = record.form?.file;
      if (!file || typeof file === 'string' || record.form?.messaging_product !== 'whatsapp') {
        return json(res, 400, {
          error: { message: '(#100) Param file must be a file with one of the following types', code: 100 },
        });
      }
      return json(res, 200, { id: this.addMedia(file.bytes, file.type) });
    }
    if (record.method === 'GET' && id === this.businessAccountId && edge === 'message_templates') {
      const limit = Number(record.query.limit ?? 25);
      const after = Number(record.query.after ?? 0);
      const page = this.templates.slice(after, after + limit);
      const next =
        after + limit < this.templates.length ? `${this.url}${url.pathname}?limit=${limit}&after=${after + limit}` : undefined;
      return json(res, 200, {
        data: page,
        paging: { cursors: { before: String(after), after: String(after + limit) }, ...(next ? { next } : {}) },
      });
    }
    return json(res, 400, {
      error: {
        message: `Unsupported ${record.method} request. Object with ID '${id}' does not exist`,
        code: 100,
        error_subcode: 33,
      },
    });
  }
}

function oauthError() {
  return {
    error: { message: 'Error validating access token: The session has been invalidated.', type: 'OAuthException', code: 190 },
  };
}

// ---------- Webhooks, as Meta sends them ----------

/** `sha256=<hex>` of the body with the app secret: the X-Hub-Signature-256 value. */
export function signWebhook(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** POSTs a webhook signed with the app secret (or with the given signature, or none). */
export async function deliverWebhook(
  url: string,
  payload: unknown,
  appSecret: string,
  opts: { signature?: string | null } = {},
): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = opts.signature === undefined ? signWebhook(body, appSecret) : opts.signature;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

let wamidCounter = 0;
export const newWamid = (): string =>
  `wamid.HBgN${Date.now().toString(36)}${(++wamidCounter).toString(36)}${randomBytes(4).toString('hex').toUpperCase()}`;

/** One `messages` change of a phone number, wrapped as Meta does. */
export function webhookEnvelope(phoneNumberId: string, value: Record<string, unknown>): unknown {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export interface InboundSpec {
  from: string;
  name?: string;
  id?: string;
  timestamp?: number;
  /** The message object without id/from/timestamp, e.g. {type:'text', text:{body:'oi'}}. */
  message?: Record<string, unknown>;
  context?: { id: string };
}

/** A webhook with inbound messages (text by default). */
export function inboundPayload(phoneNumberId: string, messages: InboundSpec[]): unknown {
  const contacts = [
    ...new Map(messages.map((m) => [m.from, { profile: { name: m.name ?? 'Cliente' }, wa_id: m.from }])).values(),
  ];
  return webhookEnvelope(phoneNumberId, {
    contacts,
    messages: messages.map((m) => ({
      from: m.from,
      id: m.id ?? newWamid(),
      timestamp: String(m.timestamp ?? Math.floor(Date.now() / 1000)),
      ...(m.context ? { context: { from: phoneNumberId, id: m.context.id } } : {}),
      ...(m.message ?? { type: 'text', text: { body: 'Olá!' } }),
    })),
  });
}

/** A webhook with delivery statuses of sent messages. */
export function statusPayload(
  phoneNumberId: string,
  statuses: {
    id: string;
    status: 'sent' | 'delivered' | 'read' | 'failed';
    recipient: string;
    error?: { code: number; title: string };
  }[],
): unknown {
  return webhookEnvelope(phoneNumberId, {
    statuses: statuses.map((s) => ({
      id: s.id,
      status: s.status,
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: s.recipient,
      ...(s.error
        ? {
            errors: [
              { code: s.error.code, title: s.error.title, message: s.error.title, error_data: { details: s.error.title } },
            ],
          }
        : {}),
    })),
  });
}
