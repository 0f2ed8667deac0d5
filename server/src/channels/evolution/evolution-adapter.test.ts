import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeEvolutionApi, newWaNumber } from '../../../../tests/fakes/evolution-api.fake';
import { AppError } from '../../core/app-error';
import type { SessionStatus } from '../channel-adapter';
import { LOGGED_OUT_REASON, QR_TIMEOUT_REASON } from '../gateway/gateway-adapter';
import { CLOSED_URL, sendError, sessionRecorder, tempFile, until } from '../gateway/gateway.test-support';
import { EvolutionAdapter } from './evolution-adapter';
import { compareVersions, evolutionVersionProblem, parseVersion } from './evolution-client';
import { parseEvolutionWebhook } from './evolution-webhook';

/** The Evolution adapter alone against the fake Evolution API (no database). */

let fake: FakeEvolutionApi;
beforeAll(async () => {
  fake = await new FakeEvolutionApi().start();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => {
  fake.version = '2.20.3';
  fake.clearFailures();
});

let counter = 0;
function adapter(opts: { baseUrl?: string; apiKey?: string; status?: SessionStatus; options?: Record<string, unknown>; qrTimeoutMs?: number; timeoutMs?: number } = {}) {
  const name = `loja${++counter}${Date.now() % 100000}`;
  const rec = sessionRecorder('evo', {
    name,
    status: opts.status,
    providerConfig: { evolutionUrl: opts.baseUrl ?? fake.url, ...(opts.options ? { options: opts.options } : {}) },
    secrets: { evolutionApiKey: opts.apiKey ?? fake.apiKey, evolutionWebhookSecret: 'segredo-evo' },
  });
  const a = new EvolutionAdapter(rec.ctx, {
    publicUrl: 'https://atende.example.com/',
    timeoutMs: opts.timeoutMs ?? 300,
    pollIntervalMs: 20,
    qrTimeoutMs: opts.qrTimeoutMs ?? 5_000,
  });
  return { a, rec, name };
}

const target = (to: string) => ({ to, isGroup: false });

describe('Evolution version rule (2.20.0 or later, compared numerically)', () => {
  it('parses and compares versions part by part', () => {
    expect(parseVersion('v2.20.1-beta')).toEqual([2, 20, 1]);
    expect(compareVersions([2, 3, 0], [2, 20, 0])).toBe(-1);
    expect(compareVersions([2, 20], [2, 20, 0])).toBe(0);
    expect(compareVersions([3, 0, 0], [2, 20, 0])).toBe(1);
    expect(evolutionVersionProblem('2.20.0')).toBeNull();
    expect(evolutionVersionProblem('2.21.4')).toBeNull();
    expect(evolutionVersionProblem('10.0.0')).toBeNull();
    expect(evolutionVersionProblem('2.1.0')).toBe('A versão da Evolution API deve ser 2.20.0 ou superior (encontrada: 2.1.0).');
    expect(evolutionVersionProblem('2.3.7')).toBe('A versão da Evolution API deve ser 2.20.0 ou superior (encontrada: 2.3.7).');
    expect(evolutionVersionProblem(undefined)).toMatch(/Não foi possível ler a versão/);
  });

  it('an older server leaves the session DISCONNECTED with the Portuguese reason, and no instance is created', async () => {
    fake.version = '2.1.0';
    const { a, rec, name } = adapter();
    await a.connect();
    expect(a.status()).toBe('DISCONNECTED');
    expect(rec.changes.at(-1)).toMatchObject({
      next: 'DISCONNECTED',
      reason: 'A versão da Evolution API deve ser 2.20.0 ou superior (encontrada: 2.1.0).',
    });
    expect(fake.instances.has(name)).toBe(false);
    expect(a.isPolling()).toBe(false);
  });
});

describe('EvolutionAdapter session', () => {
  it('connect: creates the instance, registers the webhook with the secret, publishes the QR, then CONNECTED (polling) with the number', async () => {
    const { a, rec, name } = adapter();
    await a.connect();
    expect(a.status()).toBe('qrcode');
    const instance = fake.instances.get(name)!;
    expect(fake.requestsTo('/instance/create', 'POST').at(-1)?.json).toMatchObject({ instanceName: name, integration: 'WHATSAPP-BAILEYS', qrcode: true });
    expect(instance.webhook).toMatchObject({
      enabled: true,
      url: `https://atende.example.com/webhooks/evo/42?secret=segredo-evo`,
      byEvents: false,
      base64: false,
      events: expect.arrayContaining(['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'CONNECTION_UPDATE', 'QRCODE_UPDATED']),
    });
    expect(rec.changes.map((c) => c.next)).toEqual(['OPENING', 'qrcode']);
    expect(rec.changes[1]).toMatchObject({ qrcode: instance.code, pairingCode: null, reason: null });
    expect(a.isPolling()).toBe(true);
    const number = newWaNumber();
    await fake.scan(name, number, { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED by polling');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'CONNECTED', number, reason: null });
    expect(a.isPolling()).toBe(false);
    expect(fake.requests.every((r) => r.headers.apikey === fake.apiKey)).toBe(true);
  });

  it('a pairing number (options.pairingNumber) publishes the pairing code with the QR', async () => {
    const { a, rec } = adapter({ options: { pairingNumber: '+55 11 98888-7777' } });
    // An instance that exists already: the code comes from /instance/connect?number=.
    const instanceName = (a as unknown as { settings: { instance: string } }).settings.instance;
    fake.instances.set(instanceName, { name: instanceName, state: 'connecting', ownerJid: null, webhook: null, qrCount: 1, code: '2@abc', pairingCode: null });
    await a.connect();
    const connect = fake.requestsTo(`/instance/connect/${instanceName}`).at(-1);
    expect(connect?.query.get('number')).toBe('5511988887777');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'qrcode', pairingCode: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/) });
    await a.shutdown();
  });

  it('an instance already paired (restart) is CONNECTED at once, without a QR', async () => {
    const first = adapter();
    await first.a.connect();
    await fake.scan(first.name, '5511977776666', { webhook: false });
    await first.a.shutdown();
    const again = new EvolutionAdapter(
      { ...first.rec.ctx, record: { ...first.rec.ctx.record, status: first.rec.current() } },
      { publicUrl: 'https://atende.example.com', timeoutMs: 300, pollIntervalMs: 20 },
    );
    await again.connect();
    expect(again.status()).toBe('CONNECTED');
    expect(first.rec.changes.at(-1)).toMatchObject({ next: 'CONNECTED', number: '5511977776666' });
    expect(fake.requestsTo('/instance/create').filter((r) => r.json?.instanceName === first.name)).toHaveLength(1);
  });

  it('a QR code not scanned in time is TIMEOUT, and the gateway stops pairing', async () => {
    const { a, rec, name } = adapter({ qrTimeoutMs: 120 });
    await a.connect();
    await until(() => a.status() === 'TIMEOUT', 'TIMEOUT');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'TIMEOUT', reason: QR_TIMEOUT_REASON });
    expect(fake.requestsTo(`/instance/logout/${name}`, 'DELETE').length).toBe(1);
    expect(a.isPolling()).toBe(false);
  });

  it('a wrong API key or an unreachable server is DISCONNECTED with the reason', async () => {
    const bad = adapter({ apiKey: 'wrong' });
    await bad.a.connect();
    expect(bad.rec.changes.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Evolution API: Unauthorized' });
    const down = adapter({ baseUrl: CLOSED_URL });
    await down.a.connect();
    expect(down.rec.changes.at(-1)?.reason).toMatch(/^Evolution API indisponível \(GET \/\): /);
  });

  it('webhook session news: a new QR, connected with the number, logged out from the phone; stale news is ignored', async () => {
    const { a, rec } = adapter();
    await a.connect();
    await a.onConnection({ kind: 'qr', qr: '2@new-code' }, 'qrcode');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'qrcode', qrcode: '2@new-code' });
    await a.onConnection({ kind: 'connected', number: '5511955554444' }, 'qrcode');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'CONNECTED', number: '5511955554444' });
    await a.onConnection({ kind: 'qr', qr: '2@late' }, 'CONNECTED');
    await a.onConnection({ kind: 'lost', reason: 'Evolution API: conexão perdida (428)' }, 'CONNECTED');
    expect(rec.current()).toBe('CONNECTION_LOST');
    await a.onConnection({ kind: 'connected' }, 'CONNECTION_LOST');
    expect(rec.current()).toBe('CONNECTED');
    await a.onConnection({ kind: 'loggedOut' }, 'CONNECTED');
    expect(rec.changes.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: LOGGED_OUT_REASON });
    const before = rec.changes.length;
    await a.onConnection({ kind: 'qr', qr: '2@after-logout' }, 'DISCONNECTED');
    await a.onConnection({ kind: 'loggedOut' }, 'DISCONNECTED');
    expect(rec.changes.length).toBe(before);
  });

  it('disconnect logs out (DISCONNECTED); destroy deletes the instance (an instance already gone is fine)', async () => {
    const { a, rec, name } = adapter();
    await a.connect();
    await fake.scan(name, newWaNumber(), { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    await a.disconnect();
    expect(rec.current()).toBe('DISCONNECTED');
    expect(fake.instances.get(name)?.state).toBe('close');
    await a.destroy();
    expect(fake.instances.has(name)).toBe(false);
    await expect(a.destroy()).resolves.toBeUndefined();
  });
});

describe('EvolutionAdapter sends', () => {
  async function connected() {
    const x = adapter();
    await x.a.connect();
    await fake.scan(x.name, newWaNumber(), { webhook: false });
    await until(() => x.a.status() === 'CONNECTED', 'CONNECTED');
    return x;
  }

  it('text (quoted reply), media as base64, voice notes, reactions, edits and deletes', async () => {
    const { a, name } = await connected();
    const sent = await a.sendText(target('5511911112222'), 'Olá!', { quotedProviderMessageId: 'ABC123' });
    expect(sent.providerMessageId).toMatch(/^BAE5/);
    expect(fake.requestsTo(`/message/sendText/${name}`).at(-1)?.json).toEqual({ number: '5511911112222', text: 'Olá!', quoted: { key: { id: 'ABC123' } } });

    const pdf = Buffer.from('%PDF-1.4 evo');
    await a.sendMedia(target('5511911112222'), { path: tempFile('a.pdf', pdf), fileName: 'contrato.pdf', mimeType: 'application/pdf', caption: 'Segue' });
    expect(fake.requestsTo(`/message/sendMedia/${name}`).at(-1)?.json).toEqual({
      number: '5511911112222',
      mediatype: 'document',
      mimetype: 'application/pdf',
      media: pdf.toString('base64'),
      fileName: 'contrato.pdf',
      caption: 'Segue',
    });
    await a.sendMedia(target('5511911112222'), { path: tempFile('f.jpg', Buffer.from('jpg')), fileName: 'f.jpg', mimeType: 'image/jpeg' });
    expect(fake.requestsTo(`/message/sendMedia/${name}`).at(-1)?.json).toMatchObject({ mediatype: 'image' });
    await a.sendMedia(target('5511911112222'), { path: tempFile('v.ogg', Buffer.from('ogg')), fileName: 'v.ogg', mimeType: 'audio/ogg', sendAsVoice: true });
    expect(fake.requestsTo(`/message/sendWhatsAppAudio/${name}`).at(-1)?.json).toEqual({ number: '5511911112222', audio: Buffer.from('ogg').toString('base64') });

    await a.sendReaction(target('5511911112222'), 'MSG1', '👍');
    expect(fake.requestsTo(`/message/sendReaction/${name}`).at(-1)?.json).toEqual({
      key: { remoteJid: '5511911112222@s.whatsapp.net', fromMe: false, id: 'MSG1' },
      reaction: '👍',
    });
    await a.editMessage(target('5511911112222'), 'MSG2', 'corrigido');
    expect(fake.requestsTo(`/chat/updateMessage/${name}`).at(-1)?.json).toMatchObject({ key: { id: 'MSG2', fromMe: true }, text: 'corrigido' });
    await a.deleteMessage(target('5511911112222'), 'MSG3');
    expect(fake.requestsTo(`/chat/deleteMessageForEveryone/${name}`, 'DELETE').at(-1)?.json).toMatchObject({ id: 'MSG3', fromMe: true });

    await a.sendText({ to: '120363040000000000@g.us', isGroup: true }, 'Oi grupo');
    expect(fake.requestsTo(`/message/sendText/${name}`).at(-1)?.json).toMatchObject({ number: '120363040000000000@g.us' });
    await a.sendButtons(target('5511911112222'), 'Escolha', [{ id: 'a', title: 'Sim' }, { id: 'b', title: 'Não' }]);
    expect(fake.requestsTo(`/message/sendText/${name}`).at(-1)?.json).toMatchObject({ text: 'Escolha\n\n1. Sim\n2. Não' });
    await expect(a.sendTemplate()).rejects.toBeInstanceOf(AppError);
  });

  it('5xx, 429 and timeouts are retryable; 4xx are final with the gateway message', async () => {
    const { a } = await connected();
    fake.failNext({ status: 500 });
    expect((await sendError(a.sendText(target('5511911112222'), 'x'))).retryable).toBe(true);
    fake.failNext({ status: 429 });
    expect((await sendError(a.sendText(target('5511911112222'), 'x'))).retryable).toBe(true);
    fake.failNext({ hang: true });
    const timeout = await sendError(a.sendText(target('5511911112222'), 'x'));
    expect(timeout.retryable).toBe(true);
    expect(timeout.message).toContain('sem resposta em 300 ms');
    const invalid = await sendError(a.sendText(target('123'), 'x'));
    expect(invalid.retryable).toBe(false);
    expect(invalid.providerStatus).toBe(400);
    expect(invalid.message).toMatch(/^Evolution API: .*"exists":false/);
    const down = new EvolutionAdapter(sessionRecorder('evo', { providerConfig: { evolutionUrl: CLOSED_URL }, secrets: { evolutionApiKey: 'k' } }).ctx, {
      publicUrl: 'https://x',
      timeoutMs: 300,
    });
    expect((await sendError(down.sendText(target('5511911112222'), 'x'))).retryable).toBe(true);
  });
});

describe('parseEvolutionWebhook', () => {
  const record = { id: 42, tenantId: 7, name: 'loja' };
  const api = { downloadMedia: async () => ({ buffer: Buffer.from('by-reference'), mimeType: 'image/jpeg' }), api: { http: { download: async () => ({ buffer: Buffer.from('by-url'), contentType: null }) } } } as never;
  const upsert = (data: unknown, instance = 'loja') => parseEvolutionWebhook({ event: 'messages.upsert', instance, data }, record, api);

  it('text, quoted reply, media (base64, URL or by reference), reaction, group, LID; our own and status broadcasts skipped', async () => {
    const text = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', fromMe: false, id: 'M1' }, pushName: 'Ana', message: { conversation: 'Oi' }, messageTimestamp: 1700000000 });
    expect(text.messages[0]).toMatchObject({ providerMessageId: 'M1', type: 'chat', body: 'Oi', timestamp: 1700000000, isGroup: false, from: { kind: 'wa', externalId: '5511911112222', phone: '5511911112222', name: 'Ana' } });
    const quoted = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'M2' }, message: { extendedTextMessage: { text: 'isso', contextInfo: { stanzaId: 'M0' } } } });
    expect(quoted.messages[0]).toMatchObject({ body: 'isso', quotedProviderMessageId: 'M0' });
    const b64 = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'M3' }, message: { imageMessage: { mimetype: 'image/png', caption: 'foto' }, base64: Buffer.from('inline').toString('base64') } });
    expect(b64.messages[0]).toMatchObject({ type: 'image', body: 'foto', media: { mimeType: 'image/png' } });
    expect((await b64.messages[0].media!.download()).toString()).toBe('inline');
    const url = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'M4' }, message: { documentMessage: { fileName: 'a.pdf', mimetype: 'application/pdf' }, mediaUrl: 'https://s3.example.com/a.pdf' } });
    expect((await url.messages[0].media!.download()).toString()).toBe('by-url');
    expect(url.messages[0].media).toMatchObject({ fileName: 'a.pdf' });
    const ref = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'M5' }, message: { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } } });
    expect((await ref.messages[0].media!.download()).toString()).toBe('by-reference');
    const reaction = upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'M6' }, message: { reactionMessage: { key: { id: 'OUT1', fromMe: true }, text: '❤️' } } });
    expect(reaction.messages[0]).toMatchObject({ type: 'reaction', reaction: { targetProviderMessageId: 'OUT1', emoji: '❤️' } });
    const group = upsert({ key: { remoteJid: '120363040000000000@g.us', id: 'M7', participant: '5511933334444@s.whatsapp.net' }, pushName: 'Pedro', message: { conversation: 'bom dia' } });
    expect(group.messages[0]).toMatchObject({ isGroup: true, body: 'Pedro: bom dia', from: { kind: 'wa', externalId: '120363040000000000@g.us' } });
    const lid = upsert({ key: { remoteJid: '123456789012345@lid', remoteJidAlt: '5511922223333@s.whatsapp.net', id: 'M8' }, message: { conversation: 'lid' } });
    expect(lid.messages[0].from).toMatchObject({ kind: 'wa', externalId: '5511922223333' });
    const lidOnly = upsert({ key: { remoteJid: '123456789012345@lid', id: 'M9' }, message: { conversation: 'lid' } });
    expect(lidOnly.messages[0].from).toMatchObject({ kind: 'lid', externalId: '123456789012345' });
    expect(upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', fromMe: true, id: 'X' }, message: { conversation: 'eco' } }).messages).toHaveLength(0);
    expect(upsert({ key: { remoteJid: 'status@broadcast', id: 'Y' }, message: { conversation: 's' } }).messages).toHaveLength(0);
    expect(upsert({ key: { remoteJid: '5511911112222@s.whatsapp.net', id: 'Z' }, message: { conversation: 'x' } }, 'outra').messages).toHaveLength(0);
  });

  it('statuses, connection and QR events', () => {
    const acks = parseEvolutionWebhook(
      {
        event: 'MESSAGES_UPDATE',
        instance: 'loja',
        data: [
          { keyId: 'A', fromMe: true, status: 'DELIVERY_ACK' },
          { keyId: 'B', fromMe: true, status: 'READ' },
          { key: { id: 'C', fromMe: true }, update: { status: 2 } },
          { keyId: 'D', fromMe: true, status: 'ERROR' },
          { keyId: 'E', fromMe: false, status: 'READ' },
        ],
      },
      record,
      api,
    );
    expect(acks.statuses.map((s) => [s.providerMessageId, s.status])).toEqual([
      ['A', 'delivered'],
      ['B', 'read'],
      ['C', 'sent'],
      ['D', 'failed'],
    ]);
    const parse = (event: string, data: unknown) => parseEvolutionWebhook({ event, instance: 'loja', data }, record, api).connection;
    expect(parse('connection.update', { state: 'open', wuid: '5511900001111:3@s.whatsapp.net' })).toEqual({ kind: 'connected', number: '5511900001111' });
    expect(parse('connection.update', { state: 'close', statusReason: 401 })).toEqual({ kind: 'loggedOut' });
    expect(parse('connection.update', { state: 'close', statusReason: 428 })).toMatchObject({ kind: 'lost' });
    expect(parse('connection.update', { state: 'connecting' })).toBeUndefined();
    expect(parse('qrcode.updated', { qrcode: { code: '2@q', base64: 'data:image/png;base64,AA', pairingCode: 'ABCD-EFGH' } })).toEqual({ kind: 'qr', qr: '2@q', pairingCode: 'ABCD-EFGH' });
    expect(parse('logout.instance', {})).toEqual({ kind: 'loggedOut' });
  });
});
