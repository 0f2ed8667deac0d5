import { createHmac, randomBytes } from 'node:crypto';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { percentile as nearestRank } from './bench-support';

/**
 * The inbound load driver the benchmarks share (inbound-throughput.ts, campaign-send.ts): signed
 * Cloud API webhooks with text messages, posted as fast as the server takes them with a bounded
 * number in flight, each message counted when the socket receives its appMessage:create.
 */

/** The shared nearest-rank percentile, NaN when nothing was measured (e.g. every webhook failed). */
export function percentileOrNaN(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : nearestRank(sorted, p);
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A Cloud API webhook body with these text messages, as Meta sends them. */
export function inboundWebhookBody(phoneNumberId: string, messages: { from: string; wamid: string; body: string }[]): string {
  return JSON.stringify({
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
              contacts: [...new Set(messages.map((m) => m.from))].map((from) => ({
                profile: { name: `Cliente ${from.slice(-4)}` },
                wa_id: from,
              })),
              messages: messages.map((m) => ({
                from: m.from,
                id: m.wamid,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: 'text',
                text: { body: m.body },
              })),
            },
          },
        ],
      },
    ],
  });
}

/** POSTs a webhook body signed with the channel's app secret. */
export function postSignedWebhook(url: string, body: string, appSecret: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`,
    },
    body,
  });
}

/** A logged-in user's socket (websocket transport), connected. */
export async function connectBenchSocket(serverUrl: string, token: string): Promise<Socket> {
  const socket = connectSocket(serverUrl, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** `count` distinct contact numbers starting with `prefix` (5 digits, e.g. '55119'). */
export function benchNumbers(count: number, prefix = '55119', base = 10_000_000): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(base + i * 37).padStart(8, '0')}`);
}

export interface InboundLoadOptions {
  /** The admin's socket (receives every appMessage:create of the tenant). */
  socket: Socket;
  tenantId: number;
  /** The channel's webhook URL (`/webhooks/waba/<channelId>`). */
  url: string;
  appSecret: string;
  phoneNumberId: string;
  messages: number;
  /** Senders, cycled through. */
  contacts: string[];
  concurrency: number;
  perWebhook: number;
  /** Part of the provider message ids, so two runs on one server never collide. */
  label?: string;
  /** How long to wait for the last socket events after the last post. */
  settleMs?: number;
}

export interface InboundLoadResult {
  /** First post to the last socket event (or to the last post when none came). */
  seconds: number;
  messages_per_s: number;
  socket_received: number;
  webhook_errors: number;
  first_error?: string;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  webhook_ms: { p50: number; p99: number };
  /** performance.now() at the first post and at the end of the measured window. */
  startedAt: number;
  endedAt: number;
}

/** Posts `messages` inbound messages and measures webhook-to-socket latency and throughput. */
export async function runInboundLoad(o: InboundLoadOptions): Promise<InboundLoadResult> {
  const label = o.label ?? 'BENCH';
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const webhookMs: number[] = [];
  let received = 0;
  let lastReceivedAt = 0;
  let resolveAll!: () => void;
  const allReceived = new Promise<void>((resolve) => (resolveAll = resolve));
  const event = `${o.tenantId}:appMessage:create`;
  const onMessage = (payload: { message: { messageId: string } }) => {
    const started = sentAt.get(payload.message.messageId);
    if (started === undefined) return;
    sentAt.delete(payload.message.messageId);
    const now = performance.now();
    latencies.push(now - started);
    lastReceivedAt = now;
    if (++received === o.messages) resolveAll();
  };
  o.socket.on(event, onMessage);

  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const startedAt = performance.now();
  const worker = async () => {
    for (;;) {
      const start = next;
      if (start >= o.messages) return;
      const count = Math.min(o.perWebhook, o.messages - start);
      next += count;
      const batch = Array.from({ length: count }, (_, k) => {
        const i = start + k;
        return {
          from: o.contacts[i % o.contacts.length],
          wamid: `wamid.${label}${i}.${randomBytes(4).toString('hex')}`,
          body: `mensagem ${i}`,
        };
      });
      const body = inboundWebhookBody(o.phoneNumberId, batch);
      const t0 = performance.now();
      for (const m of batch) sentAt.set(m.wamid, t0);
      const res = await postSignedWebhook(o.url, body, o.appSecret);
      const text = await res.text();
      webhookMs.push(performance.now() - t0);
      if (res.status !== 200) {
        errors++;
        firstError ??= `${res.status} ${text.slice(0, 300)}`;
        for (const m of batch) {
          sentAt.delete(m.wamid);
          if (++received === o.messages) resolveAll();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const postedAt = performance.now();
  await Promise.race([allReceived, new Promise((r) => setTimeout(r, o.settleMs ?? 30_000))]);
  o.socket.off(event, onMessage);

  const endedAt = lastReceivedAt || postedAt;
  const seconds = (endedAt - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  webhookMs.sort((a, b) => a - b);
  return {
    seconds: round(seconds),
    messages_per_s: Math.round(latencies.length / seconds),
    socket_received: latencies.length,
    webhook_errors: errors,
    ...(firstError ? { first_error: firstError } : {}),
    latency_ms: {
      p50: round(percentileOrNaN(latencies, 50)),
      p90: round(percentileOrNaN(latencies, 90)),
      p99: round(percentileOrNaN(latencies, 99)),
      max: round(latencies.at(-1) ?? NaN),
    },
    webhook_ms: { p50: round(percentileOrNaN(webhookMs, 50)), p99: round(percentileOrNaN(webhookMs, 99)) },
    startedAt,
    endedAt,
  };
}
