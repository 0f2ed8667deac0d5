import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every provider fake shares (written for the tests, no provider code copied): real HTTP on
 * 127.0.0.1 at a random port, every request recorded with its parsed body (JSON, form or
 * multipart), failures injected on demand (a status with a body, or a request that never gets
 * an answer, for client timeouts), and clean shutdown. A provider fake extends it and answers
 * its protocol in `route`.
 */

export interface RecordedFile {
  name: string;
  type: string;
  size: number;
  bytes: Buffer;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  json?: any;
  form?: Record<string, string | RecordedFile>;
}

export type FakeFailure =
  /** Answer this status; `body` defaults to a provider-neutral error object. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Accept the request and never answer (the client's deadline must fire). */
  | { hang: true };

interface PendingFailure {
  match: (r: RecordedRequest) => boolean;
  failure: FakeFailure;
  remaining: number;
}

export abstract class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  url = '';
  private server?: Server;
  private failures: PendingFailure[] = [];
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: `fake failed: ${(err as Error).message}` });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Listens on a fixed port (end-to-end tests point a separately started server at it). */
  async listen(port: number): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests matching (all when no matcher) fail this way. */
  failNext(failure: FakeFailure, opts: { times?: number; match?: (r: RecordedRequest) => boolean } = {}): void {
    this.failures.push({ match: opts.match ?? (() => true), failure, remaining: opts.times ?? 1 });
  }

  clearFailures(): void {
    this.failures = [];
  }

  /** Recorded requests whose path matches. */
  requestsTo(path: string | RegExp, method?: string): RecordedRequest[] {
    return this.requests.filter(
      (r) => (typeof path === 'string' ? r.path === path : path.test(r.path)) && (!method || r.method === method),
    );
  }

  /** The provider's protocol: answer `req` (already recorded, failures already applied). */
  protected abstract route(req: RecordedRequest, res: ServerResponse): Promise<void> | void;

  /** The body of an injected failure without one (each fake may shape it as its provider does). */
  protected failureBody(status: number): unknown {
    return { error: { code: status, message: status >= 500 ? 'Internal Server Error' : 'Bad Request' } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url || 'http://127.0.0.1');
    const raw = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw,
    };
    const contentType = String(req.headers['content-type'] ?? '');
    if (raw.length && contentType.includes('application/json')) record.json = JSON.parse(raw.toString('utf8'));
    else if (raw.length && (contentType.includes('multipart/form-data') || contentType.includes('x-www-form-urlencoded'))) {
      record.form = await parseForm(raw, contentType);
    }
    this.requests.push(record);

    const pending = this.failures.find((f) => f.remaining > 0 && f.match(record));
    if (pending) {
      pending.remaining--;
      const f = pending.failure;
      if ('hang' in f) {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      return sendJson(res, f.status, f.body ?? this.failureBody(f.status), f.headers);
    }
    await this.route(record, res);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendBytes(res: ServerResponse, bytes: Buffer, mimeType: string): void {
  res.writeHead(200, { 'content-type': mimeType, 'content-length': bytes.length });
  res.end(bytes);
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** multipart/form-data or application/x-www-form-urlencoded, parsed by the platform's own Response. */
export async function parseForm(body: Buffer, contentType: string): Promise<Record<string, string | RecordedFile>> {
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const out: Record<string, string | RecordedFile> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') out[key] = value;
    else {
      const bytes = Buffer.from(await value.arrayBuffer());
      out[key] = { name: (value as File).name, type: value.type, size: bytes.length, bytes };
    }
  }
  return out;
}

/** POSTs JSON to one of our webhooks as a provider would; answers status and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}
