import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseForm, readBody, sendJson as json } from './fake-http-server';

/**
 * A local stand-in for the Telegram Bot API, written for the tests: real HTTP on 127.0.0.1, the
 * methods the telegram adapter calls, every request recorded, failures on demand, files to
 * download, and updates posted to our webhook with the secret header as Telegram does.
 *
 *   POST /bot<token>/getMe                         -> {ok, result: {id, is_bot, username}}
 *   POST /bot<token>/setWebhook | deleteWebhook    -> {ok, result: true} (recorded: url, secret_token)
 *   POST /bot<token>/sendMessage (JSON)            -> {ok, result: Message}
 *   POST /bot<token>/sendPhoto|sendDocument|sendAudio|sendVoice|sendVideo (multipart) -> {ok, result: Message}
 *   POST /bot<token>/setMessageReaction | editMessageText | deleteMessage
 *   POST /bot<token>/getFile {file_id}             -> {ok, result: {file_id, file_path, file_size}}
 *   GET  /file/bot<token>/<file_path>              -> the bytes
 * A wrong token answers 401 {ok:false, error_code:401, description:'Unauthorized'}.
 */

export interface TgRecordedRequest {
  method: string;
  /** Bot API method name (getMe, sendMessage ...) or 'file' for downloads. */
  apiMethod: string;
  path: string;
  json?: any;
  form?: Record<string, string | { name: string; type: string; size: number; bytes: Buffer }>;
}

export type TgFakeFailure =
  | { status: 500 | 502 | 503 }
  | { status: 429; retryAfter?: number }
  | { status: 400 | 401 | 403; description?: string }
  /** Accepts the request and never answers (client timeout). */
  | { hang: true };

const SEND_METHODS = new Set(['sendMessage', 'sendPhoto', 'sendDocument', 'sendAudio', 'sendVoice', 'sendVideo']);

export class FakeTelegramBotApi {
  readonly requests: TgRecordedRequest[] = [];
  token: string;
  readonly botId: number;
  username: string;
  private readonly files = new Map<string, { path: string; bytes: Buffer; mimeType: string }>();
  private failures: { match: (r: TgRecordedRequest) => boolean; failure: TgFakeFailure; remaining: number }[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  private nextMessageId = 1000;
  url = '';

  constructor(opts: { token?: string; username?: string } = {}) {
    this.botId = 6_000_000_000 + Math.floor(Math.random() * 1e8);
    this.token = opts.token ?? `${this.botId}:AA${randomBytes(16).toString('hex')}`;
    this.username = opts.username ?? `atende_teste_${randomBytes(3).toString('hex')}_bot`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests of `apiMethod` (or any) fail this way. */
  failNext(failure: TgFakeFailure, opts: { times?: number; apiMethod?: string } = {}): void {
    const match = (r: TgRecordedRequest) => !opts.apiMethod || r.apiMethod === opts.apiMethod;
    this.failures.push({ match, failure, remaining: opts.times ?? 1 });
  }

  clearFailures(): void {
    this.failures = [];
  }

  /** A file the fake serves through getFile; returns its file_id. */
  addFile(bytes: Buffer, mimeType: string, fileName = 'file.bin'): string {
    const id = `AgAC${randomBytes(10).toString('hex')}`;
    this.files.set(id, { path: `documents/${id}_${fileName}`, bytes, mimeType });
    return id;
  }

  /** Recorded calls of one Bot API method, in order. */
  calls(apiMethod: string): TgRecordedRequest[] {
    return this.requests.filter((r) => r.apiMethod === apiMethod);
  }

  /** Accepted-or-not send calls (sendMessage, sendPhoto ...), in order. */
  sends(): TgRecordedRequest[] {
    return this.requests.filter((r) => SEND_METHODS.has(r.apiMethod));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    const methodMatch = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const record: TgRecordedRequest = {
      method: req.method ?? 'GET',
      apiMethod: fileMatch ? 'file' : (methodMatch?.[2] ?? ''),
      path: url.pathname.replace(this.token, '<token>'),
    };
    const contentType = String(req.headers['content-type'] ?? '');
    if (contentType.includes('application/json') && body.length) record.json = JSON.parse(body.toString('utf8'));
    if (contentType.includes('multipart/form-data')) record.form = await parseForm(body, contentType);
    this.requests.push(record);

    const failure = this.failures.find((f) => f.remaining > 0 && f.match(record));
    if (failure) {
      failure.remaining--;
      const f = failure.failure;
      if ('hang' in f) {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      if (f.status === 429)
        return json(res, 429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${f.retryAfter ?? 5}`,
          parameters: { retry_after: f.retryAfter ?? 5 },
        });
      if (f.status >= 500) return json(res, f.status, { ok: false, error_code: f.status, description: 'Internal Server Error' });
      const description = ('description' in f && f.description) || 'Bad Request: chat not found';
      return json(res, f.status, { ok: false, error_code: f.status, description });
    }

    const token = fileMatch?.[1] ?? methodMatch?.[1];
    if (token !== this.token) return json(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    if (fileMatch) {
      const item = [...this.files.values()].find((f) => f.path === decodeURIComponent(fileMatch[2]));
      if (!item) return json(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': item.bytes.length });
      res.end(item.bytes);
      return;
    }
    const params: Record<string, any> = record.json ?? record.form ?? {};
    const ok = (result: unknown) => json(res, 200, { ok: true, result });
    const bad = (description: string) =>
      json(res, 400, { ok: false, error_code: 400, description: `Bad Request: ${description}` });
    switch (record.apiMethod) {
      case 'getMe':
        return ok({ id: this.botId, is_bot: true, first_name: 'Atende', username: this.username, can_join_groups: true });
      case 'setWebhook':
        if (!params.url) return bad('bad webhook: An HTTPS URL must be provided for webhook');
        return ok(true);
      case 'deleteWebhook':
        return ok(true);
      case 'getFile': {
        const item = this.files.get(String(params.file_id));
        if (!item) return bad('invalid file_id');
        return ok({ file_id: params.file_id, file_unique_id: 'u', file_size: item.bytes.length, file_path: item.path });
      }
      case 'setMessageReaction':
      case 'deleteMessage':
        if (!params.chat_id || !params.message_id) return bad('message to react not found');
        return ok(true);
      case 'editMessageText':
        if (!params.chat_id || !params.message_id || !params.text) return bad('message text is empty');
        return ok({
          message_id: Number(params.message_id),
          date: now(),
          chat: { id: Number(params.chat_id) },
          text: params.text,
        });
      default:
        if (!SEND_METHODS.has(record.apiMethod)) return json(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
        if (!params.chat_id) return bad('chat_id is empty');
        if (record.apiMethod === 'sendMessage' && !params.text) return bad('message text is empty');
        return ok({
          message_id: ++this.nextMessageId,
          date: now(),
          chat: { id: Number(params.chat_id), type: 'private' },
          from: { id: this.botId, is_bot: true, username: this.username },
          ...(params.text ? { text: params.text } : {}),
        });
    }
  }
}

const now = () => Math.floor(Date.now() / 1000);

// ---------- Updates, as Telegram posts them ----------

let updateCounter = 100_000;
let messageCounter = 500;

export interface UpdateSpec {
  chatId: number;
  firstName?: string;
  lastName?: string;
  chatType?: 'private' | 'group' | 'supergroup';
  title?: string;
  messageId?: number;
  updateId?: number;
  /** Message fields, e.g. {text:'oi'} or {photo:[...], caption:'x'}; text 'Olá!' by default. */
  message?: Record<string, unknown>;
}

export function telegramUpdate(spec: UpdateSpec): { update_id: number; message: Record<string, unknown> } {
  const chatType = spec.chatType ?? 'private';
  const from = {
    id: chatType === 'private' ? spec.chatId : 777_000 + (updateCounter % 1000),
    is_bot: false,
    first_name: spec.firstName ?? 'Maria',
    ...(spec.lastName ? { last_name: spec.lastName } : {}),
  };
  return {
    update_id: spec.updateId ?? ++updateCounter,
    message: {
      message_id: spec.messageId ?? ++messageCounter,
      date: now(),
      from,
      chat:
        chatType === 'private'
          ? {
              id: spec.chatId,
              type: 'private',
              first_name: from.first_name,
              ...(spec.lastName ? { last_name: spec.lastName } : {}),
            }
          : { id: spec.chatId, type: chatType, title: spec.title ?? 'Grupo' },
      ...(spec.message ?? { text: 'Olá!' }),
    },
  };
}

export const newTelegramChatId = (): number => 100_000_000 + Math.floor(Math.random() * 1e9);

/** POSTs an update to our webhook with X-Telegram-Bot-Api-Secret-Token (or the given one, or none). */
export async function deliverTelegramUpdate(
  url: string,
  update: unknown,
  secret: string | null,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret !== null) headers['x-telegram-bot-api-secret-token'] = secret;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(update) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}
