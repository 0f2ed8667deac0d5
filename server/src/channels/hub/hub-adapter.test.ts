import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeHubApi, hubMessageEvent, hubStatusEvent, newHubContact } from '../../../../tests/fakes/hub-api.fake';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import { ChannelSendError, type SessionStatus } from '../channel-adapter';
import { HubAdapter, hubSeconds } from './hub-adapter';
import { isValidHubSecret, parseHubWebhook } from './hub-webhook';

/** The hub adapter alone against the fake hub (no database): calls, states, error mapping, event parsing. */

let fake: FakeHubApi;
beforeAll(async () => {
  fake = await new FakeHubApi().start();
});
afterAll(async () => {
  await fake?.stop();
});

const logger = {
  warn: () => undefined,
  info: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

const SECRET = 'a'.repeat(64);

function adapter(opts: { token?: string; channel?: string; timeoutMs?: number } = {}) {
  const states: { next: SessionStatus; reason?: string | null; number?: string | null }[] = [];
  const a = new HubAdapter(
    {
      record: {
        id: 42,
        tenantId: 7,
        type: 'hub',
        name: 'Hub',
        status: 'DISCONNECTED',
        number: null,
        providerConfig: { hubChannelId: opts.channel ?? fake.channelId },
        secrets: { hubToken: opts.token ?? fake.token, hubWebhookSecret: SECRET },
      },
      logger,
      setStatus: async (next, change) => {
        states.push({ next, ...change });
        return next;
      },
    },
    { baseUrl: fake.url, publicUrl: 'https://atende.example.com/', timeoutMs: opts.timeoutMs ?? 2000 },
  );
  return { a, states };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

async function sendError(p: Promise<unknown>): Promise<ChannelSendError> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(ChannelSendError);
  return err as ChannelSendError;
}

describe('HubAdapter', () => {
  it('connect: reads the hub channel with the token and registers our webhook with the secret; CONNECTED with its number', async () => {
    const { a, states } = adapter();
    await a.connect();
    expect(a.status()).toBe('CONNECTED');
    expect(states.map((s) => s.next)).toEqual(['OPENING', 'CONNECTED']);
    expect(states.at(-1)).toMatchObject({ number: fake.channelNumber, reason: null });
    expect(fake.webhook).toEqual({ url: 'https://atende.example.com/webhooks/hub/42', secret: SECRET });
    expect(fake.requestsTo(`/v1/channels/${fake.channelId}`, 'GET').at(-1)?.headers['x-api-token']).toBe(fake.token);
  });

  it('a bad token, an unknown or inactive channel, a 5xx or no answer leave it DISCONNECTED with the reason', async () => {
    const bad = adapter({ token: 'wrong' });
    await bad.a.connect();
    expect(bad.states.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Hub: Invalid API token (UNAUTHORIZED)' });
    const unknown = adapter({ channel: 'nope' });
    await unknown.a.connect();
    expect(unknown.states.at(-1)?.reason).toBe('Hub: Channel nope not found (CHANNEL_NOT_FOUND)');
    fake.channelStatus = 'INACTIVE';
    const inactive = adapter();
    await inactive.a.connect();
    fake.channelStatus = 'ACTIVE';
    expect(inactive.states.at(-1)?.reason).toContain('inactive');
    fake.failNext({ status: 502 });
    const down = adapter();
    await down.a.connect();
    expect(down.states.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Hub: Internal Server Error (INTERNAL_ERROR)' });
    fake.failNext({ hang: true });
    const slow = adapter({ timeoutMs: 200 });
    await slow.a.connect();
    expect(slow.states.at(-1)?.reason).toBe('Hub indisponível: sem resposta em 200 ms');
  });

  it('disconnect removes the webhook (best effort)', async () => {
    const { a, states } = adapter();
    await a.connect();
    await a.disconnect();
    expect(fake.webhook).toBeNull();
    expect(states.at(-1)?.next).toBe('DISCONNECTED');
  });

  it('text: POST /messages with contents and replyTo; answers the hub id and its time', async () => {
    const { a } = adapter();
    const to = newHubContact();
    const sent = await a.sendText({ to, isGroup: false }, 'Olá!');
    expect(sent.providerMessageId).toMatch(/^hubmsg-/);
    expect(Math.abs(sent.timestamp! - Date.now() / 1000)).toBeLessThan(5);
    await a.sendText({ to, isGroup: false }, 'Sobre isso', { quotedProviderMessageId: 'hubin-1' });
    expect(fake.sentTo(to)).toEqual([
      { to, contents: [{ type: 'text', text: 'Olá!' }] },
      { to, contents: [{ type: 'text', text: 'Sobre isso' }], replyTo: 'hubin-1' },
    ]);
    await expect(a.sendText({ to, isGroup: false }, ' ')).rejects.toBeInstanceOf(AppError);
  });

  it('media: uploads the file, then sends it by the fileUrl with type, name and caption', async () => {
    const { a } = adapter();
    const to = newHubContact();
    const dir = mkdtempSync(path.join(tmpdir(), 'hub-adapter-'));
    const file = path.join(dir, 'foto.jpg');
    writeFileSync(file, Buffer.from('jpeg'));
    await a.sendMedia({ to, isGroup: false }, { path: file, fileName: 'foto.jpg', mimeType: 'image/jpeg', caption: 'Veja' });
    const upload = fake.uploads().at(-1)!;
    expect((upload.form?.file as { name: string; bytes: Buffer }).bytes.toString()).toBe('jpeg');
    const [call] = fake.sentTo(to);
    expect(call.contents).toEqual([
      {
        type: 'file',
        fileUrl: expect.stringMatching(/\/files\/[0-9a-f]+$/),
        fileMimeType: 'image/jpeg',
        fileName: 'foto.jpg',
        fileCaption: 'Veja',
      },
    ]);
    const { buffer } = await a.downloadFile(call.contents[0].fileUrl);
    expect(buffer.toString()).toBe('jpeg');
  });

  it('buttons, templates, reactions, edits and deletes are unsupported (ERR_CHANNEL_OPERATION_UNSUPPORTED)', async () => {
    const { a } = adapter();
    for (const p of [a.sendButtons(), a.sendTemplate(), a.sendReaction(), a.editMessage(), a.deleteMessage()]) {
      const err = await rejection(p);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    }
  });

  it('5xx, 429 and no answer are retryable; other 4xx are final with the hub’s message', async () => {
    const { a } = adapter({ timeoutMs: 200 });
    const t = { to: newHubContact(), isGroup: false };
    fake.failNext({ status: 503 });
    expect((await sendError(a.sendText(t, 'x'))).retryable).toBe(true);
    fake.failNext({ status: 429 });
    expect((await sendError(a.sendText(t, 'x'))).retryable).toBe(true);
    fake.failNext({ hang: true });
    expect(await sendError(a.sendText(t, 'x'))).toMatchObject({
      retryable: true,
      message: 'Hub indisponível: sem resposta em 200 ms',
    });
    fake.failNext({ status: 422, body: { error: { code: 'INVALID_RECIPIENT', message: 'Recipient is not a valid contact' } } });
    expect(await sendError(a.sendText(t, 'x'))).toMatchObject({
      retryable: false,
      providerStatus: 422,
      providerCode: 'INVALID_RECIPIENT',
      message: 'Hub: Recipient is not a valid contact (INVALID_RECIPIENT)',
    });
    expect(await sendError(adapter({ token: 'bad' }).a.sendText(t, 'x'))).toMatchObject({
      retryable: false,
      providerStatus: 401,
    });
  });

  it('the token goes only to the hub itself when downloading', async () => {
    const { a } = adapter();
    const url = fake.addFile(Buffer.from('pdf'), 'application/pdf');
    expect((await a.downloadFile(url)).mimeType).toBe('application/pdf');
    // The same file through another origin (localhost vs 127.0.0.1) gets no token: the fake refuses it.
    const elsewhere = url.replace('127.0.0.1', 'localhost');
    await sendError(a.downloadFile(elsewhere));
    const viaLocalhost = fake.requests.filter((r) => String(r.headers.host).startsWith('localhost'));
    for (const r of viaLocalhost) expect(r.headers['x-api-token']).toBeUndefined();
  });
});

describe('hub webhook parsing', () => {
  const channel = { id: 42, tenantId: 7 };
  const noDownload = async () => ({ buffer: Buffer.alloc(0) });

  it('secrets compare in constant time and need both sides', () => {
    expect(isValidHubSecret(SECRET, SECRET)).toBe(true);
    expect(isValidHubSecret(`${SECRET}x`, SECRET)).toBe(false);
    expect(isValidHubSecret(undefined, SECRET)).toBe(false);
    expect(isValidHubSecret('', '')).toBe(false);
  });

  it('messages: text, file, location, several contents; outgoing echoes and other hub channels skipped', async () => {
    const from = newHubContact();
    const urls: string[] = [];
    const parsed = parseHubWebhook(
      [
        hubMessageEvent(fake.channelId, from, [{ type: 'text', text: 'Oi' }], { id: 'in-1', name: 'Rita', replyTo: 'out-9' }),
        hubMessageEvent(
          fake.channelId,
          from,
          [
            {
              type: 'file',
              fileUrl: 'https://hub.example/f/1',
              fileMimeType: 'application/pdf',
              fileName: 'nota.pdf',
              fileCaption: 'Nota',
            },
            { type: 'location', latitude: -23.5, longitude: -46.6, name: 'Loja' },
            { type: 'sticker' },
          ],
          { id: 'in-2' },
        ),
        hubMessageEvent(fake.channelId, from, [{ type: 'text', text: 'eco' }], { direction: 'OUT' }),
        hubMessageEvent('other-channel', from, [{ type: 'text', text: 'x' }]),
      ] as never,
      channel,
      fake.channelId,
      async (url) => {
        urls.push(url);
        return { buffer: Buffer.from('x') };
      },
    );
    expect(parsed.skipped).toBe(2);
    expect(parsed.messages.map((m) => [m.providerMessageId, m.type, m.body])).toEqual([
      ['in-1', 'chat', 'Oi'],
      ['in-2', 'document', 'Nota'],
      ['in-2:1', 'location', 'Loja'],
      ['in-2:2', 'unsupported', ''],
    ]);
    expect(parsed.messages[0]).toMatchObject({
      from: { kind: 'hub', externalId: from, phone: from, name: 'Rita' },
      quotedProviderMessageId: 'out-9',
      isGroup: false,
    });
    expect(parsed.messages[1].media).toMatchObject({ mimeType: 'application/pdf', fileName: 'nota.pdf' });
    await parsed.messages[1].media!.download();
    expect(urls).toEqual(['https://hub.example/f/1']);
    // Not a phone number: no phone, the hub id alone.
    const ig = parseHubWebhook(
      hubMessageEvent(fake.channelId, 'ig:17841', [{ type: 'text', text: 'a' }]) as never,
      channel,
      fake.channelId,
      noDownload,
    );
    expect(ig.messages[0].from).toEqual({ kind: 'hub', externalId: 'ig:17841', name: 'Cliente Hub' });
  });

  it('statuses: SENT/DELIVERED/READ, REJECTED as failed with its description; unknown codes skipped', () => {
    const parsed = parseHubWebhook(
      [
        hubStatusEvent(fake.channelId, 'm1', 'DELIVERED'),
        hubStatusEvent(fake.channelId, 'm1', 'READ'),
        hubStatusEvent(fake.channelId, 'm2', 'REJECTED', 'Número sem WhatsApp'),
        { type: 'MESSAGE_STATUS', channel: fake.channelId, messageId: 'm3', status: { code: 'WHATEVER' } },
      ] as never,
      channel,
      fake.channelId,
      noDownload,
    );
    expect(parsed.statuses.map((s) => [s.providerMessageId, s.status, s.error])).toEqual([
      ['m1', 'delivered', undefined],
      ['m1', 'read', undefined],
      ['m2', 'failed', 'Hub: Número sem WhatsApp'],
    ]);
    expect(parsed.skipped).toBe(1);
    expect(hubSeconds('2024-05-01T12:00:00.000Z')).toBe(1714564800);
    expect(hubSeconds(1714564800000)).toBe(1714564800);
    expect(hubSeconds('junk')).toBeUndefined();
  });
});
