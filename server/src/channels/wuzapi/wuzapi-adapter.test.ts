import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeWuzapi } from '../../../../tests/fakes/wuzapi.fake';
import { QR_TIMEOUT_REASON } from '../gateway/gateway-adapter';
import { CLOSED_URL, sendError, sessionRecorder, tempFile, until } from '../gateway/gateway.test-support';
import { WuzapiAdapter } from './wuzapi-adapter';
import { parseWuzapiWebhook } from './wuzapi-webhook';

/** The Wuzapi adapter alone against the fake Wuzapi (no database). */

let fake: FakeWuzapi;
beforeAll(async () => {
  fake = await new FakeWuzapi().start();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => fake.clearFailures());

function adapter(opts: { token?: string; baseUrl?: string; qrTimeoutMs?: number } = {}) {
  const token = opts.token ?? fake.addUser();
  const rec = sessionRecorder('wuzapi', {
    providerConfig: { wuzapiUrl: opts.baseUrl ?? fake.url },
    secrets: { wuzapiToken: token, wuzapiWebhookSecret: 'segredo-wz' },
  });
  const a = new WuzapiAdapter(rec.ctx, { publicUrl: 'https://atende.example.com', timeoutMs: 300, pollIntervalMs: 20, qrTimeoutMs: opts.qrTimeoutMs ?? 5_000 });
  return { a, rec, token };
}
const to = (n: string) => ({ to: n, isGroup: false });

describe('WuzapiAdapter session', () => {
  it('connect: webhook registered with the secret, connection started, QR (PNG data URL) published, CONNECTED by polling with the number', async () => {
    const { a, rec, token } = adapter();
    await a.connect();
    const user = fake.user(token);
    expect(user.webhook).toBe('https://atende.example.com/webhooks/wuzapi/42?secret=segredo-wz');
    expect(fake.requestsTo('/session/connect').at(-1)?.json).toEqual({ Subscribe: ['All'], Immediate: true });
    expect(rec.changes.map((c) => c.next)).toEqual(['OPENING', 'qrcode']);
    expect(rec.changes[1].qrcode).toBe(user.qr);
    expect(rec.changes[1].qrcode).toMatch(/^data:image\/png;base64,/);
    await fake.scan(token, '5511944443333', { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'CONNECTED', number: '5511944443333' });
    // Started again (server restart): already connected and logged in.
    await a.connect();
    expect(rec.changes.slice(-2).map((c) => c.next)).toEqual(['OPENING', 'CONNECTED']);
  });

  it('QR not scanned in time: TIMEOUT and the connection is closed; a bad token is DISCONNECTED', async () => {
    const { a, rec, token } = adapter({ qrTimeoutMs: 100 });
    await a.connect();
    await until(() => a.status() === 'TIMEOUT', 'TIMEOUT');
    expect(rec.changes.at(-1)).toMatchObject({ reason: QR_TIMEOUT_REASON });
    expect(fake.user(token).connected).toBe(false);
    const bad = adapter({ token: 'nope' });
    await bad.a.connect();
    expect(bad.rec.changes.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Wuzapi: unauthorized' });
  });

  it('disconnect logs out; destroy logs out and removes our webhook', async () => {
    const { a, rec, token } = adapter();
    await a.connect();
    await fake.scan(token, '5511944443333', { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    await a.disconnect();
    expect(rec.current()).toBe('DISCONNECTED');
    expect(fake.user(token).loggedIn).toBe(false);
    await a.destroy();
    expect(fake.user(token).webhook).toBeNull();
  });
});

describe('WuzapiAdapter sends', () => {
  it('text with a quoted reply, image, document, voice note and reaction payloads; errors mapped', async () => {
    const { a, token } = adapter();
    await a.connect();
    await fake.scan(token, '5511944443333', { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    const sent = await a.sendText(to('5511911112222'), 'Olá', { quotedProviderMessageId: 'Q1' });
    expect(sent.providerMessageId).toMatch(/^3EB0/);
    expect(fake.sends('text').at(-1)?.json).toEqual({ Phone: '5511911112222', Body: 'Olá', ContextInfo: { StanzaId: 'Q1', Participant: '' } });
    await a.sendMedia(to('5511911112222'), { path: tempFile('f.jpg', Buffer.from('jpg')), fileName: 'f.jpg', mimeType: 'image/jpeg', caption: 'foto' });
    expect(fake.sends('image').at(-1)?.json).toEqual({ Phone: '5511911112222', Image: `data:image/jpeg;base64,${Buffer.from('jpg').toString('base64')}`, Caption: 'foto' });
    await a.sendMedia(to('5511911112222'), { path: tempFile('a.pdf', Buffer.from('pdf')), fileName: 'a.pdf', mimeType: 'application/pdf' });
    expect(fake.sends('document').at(-1)?.json).toMatchObject({ FileName: 'a.pdf', Document: expect.stringMatching(/^data:application\/octet-stream;base64,/) });
    await a.sendMedia(to('5511911112222'), { path: tempFile('v.ogg', Buffer.from('ogg')), fileName: 'v.ogg', mimeType: 'audio/ogg' });
    expect(fake.sends('audio').at(-1)?.json).toMatchObject({ Audio: expect.stringMatching(/^data:audio\/ogg;base64,/) });
    await a.sendReaction(to('5511911112222'), 'M1', '🙏');
    expect(fake.requestsTo('/chat/react').at(-1)?.json).toEqual({ Phone: '5511911112222', Body: '🙏', Id: 'M1' });

    fake.failNext({ status: 502 });
    expect((await sendError(a.sendText(to('5511911112222'), 'x'))).retryable).toBe(true);
    fake.failNext({ hang: true });
    expect((await sendError(a.sendText(to('5511911112222'), 'x'))).message).toContain('sem resposta em 300 ms');
    const invalid = await sendError(a.sendText(to('12'), 'x'));
    expect(invalid).toMatchObject({ retryable: false, message: 'Wuzapi: invalid phone' });
    const down = adapter({ baseUrl: CLOSED_URL, token: 't' });
    expect((await sendError(down.a.sendText(to('5511911112222'), 'x'))).retryable).toBe(true);
  });
});

describe('parseWuzapiWebhook', () => {
  const record = { id: 42, tenantId: 7 };
  const dl = { downloadMedia: async () => ({ buffer: Buffer.from('downloaded'), mimeType: 'image/jpeg' }) } as never;
  const message = (Message: unknown, extra: Record<string, unknown> = {}, info: Record<string, unknown> = {}) => ({
    type: 'Message',
    event: { Info: { Chat: '5511911112222@s.whatsapp.net', Sender: '5511911112222@s.whatsapp.net', ID: 'W1', PushName: 'Ana', Timestamp: '2024-05-01T12:00:00Z', ...info }, Message },
    ...extra,
  });

  it('messages (JSON or form jsonData), media inline or downloaded, quoted (stanzaID), reactions (remoteJID/ID), own messages skipped', async () => {
    const text = parseWuzapiWebhook(message({ conversation: 'Oi' }), record, dl).messages[0];
    expect(text).toMatchObject({ providerMessageId: 'W1', body: 'Oi', timestamp: 1714564800, from: { kind: 'wa', externalId: '5511911112222', name: 'Ana' } });
    const form = parseWuzapiWebhook({ jsonData: JSON.stringify(message({ conversation: 'via form' })) }, record, dl).messages[0];
    expect(form.body).toBe('via form');
    const quoted = parseWuzapiWebhook(message({ extendedTextMessage: { text: 'isso', contextInfo: { stanzaID: 'W0' } } }), record, dl).messages[0];
    expect(quoted.quotedProviderMessageId).toBe('W0');
    const inline = parseWuzapiWebhook(message({ imageMessage: { URL: 'https://mmg/x', mimetype: 'image/jpeg' } }, { base64: Buffer.from('inline').toString('base64'), mimeType: 'image/jpeg' }), record, dl).messages[0];
    expect((await inline.media!.download()).toString()).toBe('inline');
    const fetched = parseWuzapiWebhook(message({ documentMessage: { URL: 'https://mmg/y', fileName: 'b.pdf', mimetype: 'application/pdf' } }), record, dl).messages[0];
    expect(fetched).toMatchObject({ type: 'document', media: { fileName: 'b.pdf', mimeType: 'application/pdf' } });
    expect((await fetched.media!.download()).toString()).toBe('downloaded');
    const reaction = parseWuzapiWebhook(message({ reactionMessage: { key: { remoteJID: 'x', fromMe: true, ID: 'OUT9' }, text: '😂' } }), record, dl).messages[0];
    expect(reaction.reaction).toEqual({ targetProviderMessageId: 'OUT9', emoji: '😂' });
    expect(parseWuzapiWebhook(message({ conversation: 'eco' }, {}, { IsFromMe: true }), record, dl).messages).toHaveLength(0);
  });

  it('receipts, QR, pairing, logout and drops', () => {
    const receipt = parseWuzapiWebhook({ type: 'ReadReceipt', state: 'Read', event: { MessageIDs: ['A', 'B'], Type: 'read' } }, record, dl);
    expect(receipt.statuses.map((s) => [s.providerMessageId, s.status])).toEqual([['A', 'read'], ['B', 'read']]);
    expect(parseWuzapiWebhook({ type: 'ReadReceipt', state: 'Delivered', event: { MessageIDs: ['C'] } }, record, dl).statuses[0].status).toBe('delivered');
    expect(parseWuzapiWebhook({ type: 'ReadReceipt', event: { MessageIDs: ['D'], Type: 'read-self' } }, record, dl).statuses).toHaveLength(0);
    expect(parseWuzapiWebhook({ type: 'QR', qrCodeBase64: 'data:image/png;base64,AA' }, record, dl).connection).toEqual({ kind: 'qr', qr: 'data:image/png;base64,AA' });
    expect(parseWuzapiWebhook({ type: 'PairSuccess', event: { ID: '5511900001111:9@s.whatsapp.net' } }, record, dl).connection).toEqual({ kind: 'connected', number: '5511900001111' });
    expect(parseWuzapiWebhook({ type: 'LoggedOut' }, record, dl).connection).toEqual({ kind: 'loggedOut' });
    expect(parseWuzapiWebhook({ type: 'Disconnected' }, record, dl).connection).toMatchObject({ kind: 'lost' });
    expect(parseWuzapiWebhook({ type: 'Presence' }, record, dl)).toMatchObject({ ignored: 1, messages: [], statuses: [] });
  });
});
