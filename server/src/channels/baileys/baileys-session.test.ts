import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  boom,
  fakeBaileys,
  mediaMessage,
  textMessage,
  waMessage,
  type FakeBaileysSocket,
} from '../../../../tests/fakes/baileys-socket.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { AppError } from '../../core/app-error';
import { waitFor } from '../../modules/messages/messages.test-support';
import { ChannelSendError, type ChannelRecord, type SessionStatus } from '../channel-adapter';
import { ChannelRegistry } from '../../modules/messaging/channel-registry';
import { toChannelRecord } from '../channel-row';
import { BaileysAdapter, BaileysSessions, type BaileysTimings } from './baileys-adapter';
import { CREDS_KEY } from './pg-auth-state';

/**
 * The Baileys session through its socket boundary: a registry (real state machine, persistence
 * and inbound pipeline on the test database) whose baileys adapters get the injected fake socket.
 */

const FAKE = path.resolve('tests/fakes/baileys-socket.fake.ts');
const FAST: Partial<BaileysTimings> = { backoffBaseMs: 40, backoffMaxMs: 160, maxReconnects: 3, maxQrCodes: 3, connectWaitMs: 10_000 }; // connect() answers as soon as a QR or the session shows; 3 s was passed once under CI load (it answered OPENING)
let server: TestServer;
let tenantId: number;

beforeAll(async () => {
  fakeBaileys.reset({ mode: 'manual' });
  server = await startTestServer({ BAILEYS_SOCKET_MODULE: FAKE });
  tenantId = (await server.createTenant({ maxConnections: 50 })).id;
});
afterAll(async () => {
  await server?.close();
  fakeBaileys.reset();
});
beforeEach(() => fakeBaileys.reset({ mode: 'manual' }));

function registry(timings: Partial<BaileysTimings> = FAST) {
  const { dataSource, events, logger, config } = server.deps;
  const sessions = new BaileysSessions();
  const reg = new ChannelRegistry(
    { dataSource, events, logger, config },
    { baileys: (ctx) => new BaileysAdapter(ctx, { dataSource, logger, socketModule: FAKE, sessions, timings }) },
  );
  return { reg, sessions };
}

async function channel(providerConfig: Record<string, unknown> = {}): Promise<ChannelRecord> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type, "providerConfig") VALUES ($1, $2, 'baileys', $3::jsonb) RETURNING *`,
    [tenantId, `QR ${Math.random().toString(36).slice(2, 8)}`, JSON.stringify(providerConfig)],
  );
  return toChannelRecord(row);
}

async function row(id: number): Promise<{ status: SessionStatus; qrcode: string | null; pairingCode: string | null; number: string | null; statusReason: string | null }> {
  const [r] = await server.deps.dataSource.query(`SELECT * FROM channels WHERE id = $1`, [id]);
  return r;
}

const waitStatus = (id: number, status: SessionStatus, what = status) =>
  waitFor(async () => (await row(id)).status === status, `channel ${id} ${what}`, 5_000);

const authRows = async (id: number): Promise<{ key: string; value: string }[]> =>
  server.deps.dataSource.query(`SELECT key, value FROM channel_auth_state WHERE "channelId" = $1 ORDER BY key`, [id]);

/** Starts connect() and answers its socket; connect resolves once the test shows a QR or opens. */
async function connecting(reg: ChannelRegistry, record: ChannelRecord): Promise<{ sock: FakeBaileysSocket; done: Promise<unknown> }> {
  const count = fakeBaileys.sockets.length;
  const done = reg.connect(record);
  const sock = await fakeBaileys.next(count);
  return { sock, done };
}

/** A channel whose session is CONNECTED as `number`. */
async function connected(reg: ChannelRegistry, number = '5511999990000', config: Record<string, unknown> = {}) {
  const record = await channel(config);
  const { sock, done } = await connecting(reg, record);
  sock.open(number);
  await done;
  await waitStatus(record.id, 'CONNECTED');
  return { record, sock, adapter: reg.adapterFor(record) as BaileysAdapter };
}

describe('session states', () => {
  it('OPENING, then qrcode with each new QR payload, then CONNECTED with the own number; the login is saved in PostgreSQL', async () => {
    const { reg } = registry();
    const record = await channel();
    const { sock, done } = await connecting(reg, record);
    expect((await row(record.id)).status).toBe('OPENING');
    sock.qr('2@QR-ONE');
    expect(await done).toBe('qrcode');
    expect(await row(record.id)).toMatchObject({ status: 'qrcode', qrcode: '2@QR-ONE', pairingCode: null });
    sock.qr('2@QR-TWO');
    await waitFor(async () => (await row(record.id)).qrcode === '2@QR-TWO', 'second QR');
    sock.open('5511912345678');
    await waitStatus(record.id, 'CONNECTED');
    expect(await row(record.id)).toMatchObject({ number: '5511912345678', qrcode: null, statusReason: null });
    const creds = (await authRows(record.id)).find((r) => r.key === CREDS_KEY);
    expect(JSON.parse(creds!.value)).toMatchObject({ registered: true, me: { id: '5511912345678:7@s.whatsapp.net' } });
    // Baileys' own credentials with their buffers in BufferJSON form.
    expect(JSON.parse(creds!.value).noiseKey.public).toMatchObject({ type: 'Buffer' });
    expect(sock.config).toMatchObject({ markOnlineOnConnect: false, syncFullHistory: false });
    await reg.close();
  });

  it('a pairing number asks for a pairing code (once per socket) instead of showing the QR', async () => {
    const { reg } = registry();
    const record = await channel({ pairingNumber: '5511977776666' });
    const { sock, done } = await connecting(reg, record);
    sock.qr();
    await done;
    expect(sock.pairingRequests).toEqual(['5511977776666']);
    expect(await row(record.id)).toMatchObject({ status: 'qrcode', pairingCode: 'FAKE1234', qrcode: null });
    sock.qr();
    await waitFor(() => sock.qrCount === 2);
    await (reg.adapterFor(record) as BaileysAdapter).session().idle();
    expect(sock.pairingRequests).toHaveLength(1);
    sock.open();
    await waitStatus(record.id, 'CONNECTED');
    await reg.close();
  });

  it('TIMEOUT after maxQrCodes unscanned codes: the socket ends and the unused login is discarded', async () => {
    const { reg } = registry({ ...FAST, maxQrCodes: 2 });
    const record = await channel();
    const { sock, done } = await connecting(reg, record);
    sock.qr();
    await done;
    sock.qr();
    sock.qr();
    await waitStatus(record.id, 'TIMEOUT');
    expect((await row(record.id)).statusReason).toBe('O QR code não foi lido a tempo.');
    expect(sock.ended).toBe(true);
    expect(await authRows(record.id)).toEqual([]);
    // Connecting again from TIMEOUT starts over with a new QR.
    const again = await connecting(reg, record);
    again.sock.qr('2@AGAIN');
    await again.done;
    expect(await row(record.id)).toMatchObject({ status: 'qrcode', qrcode: '2@AGAIN' });
    await reg.close();
  });

  it("TIMEOUT when Baileys itself ends the QR refs (close 408 before the session ever opened)", async () => {
    const { reg } = registry();
    const record = await channel();
    const { sock, done } = await connecting(reg, record);
    sock.qr();
    await done;
    sock.close(408, 'QR refs attempts ended');
    await waitStatus(record.id, 'TIMEOUT');
    await new Promise((r) => setTimeout(r, 100));
    expect(fakeBaileys.sockets).toHaveLength(1); // no reconnect
    await reg.close();
  });

  it('close 515 (restart required, right after the scan): a new socket at once on the saved login, then CONNECTED', async () => {
    const { reg } = registry();
    const record = await channel();
    const { sock, done } = await connecting(reg, record);
    sock.qr();
    await done;
    sock.close(515, 'restart required');
    const next = await fakeBaileys.next(1);
    expect((await row(record.id)).status).toBe('qrcode');
    next.open();
    await waitStatus(record.id, 'CONNECTED');
    await reg.close();
  });

  it('close 401 (logged out on the phone): DISCONNECTED with the reason, login cleared, no reconnect', async () => {
    const { reg } = registry();
    const { record, sock } = await connected(reg);
    expect((await authRows(record.id)).length).toBeGreaterThan(0);
    sock.close(401, 'Connection Failure');
    await waitStatus(record.id, 'DISCONNECTED');
    expect((await row(record.id)).statusReason).toMatch(/encerrada no celular/);
    expect(await authRows(record.id)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(fakeBaileys.sockets).toHaveLength(1);
    await reg.close();
  });

  it.each([403, 411, 500])('close %i (session refused): DISCONNECTED, login cleared', async (code) => {
    const { reg } = registry();
    const { record, sock } = await connected(reg);
    sock.close(code);
    await waitStatus(record.id, 'DISCONNECTED');
    expect((await row(record.id)).statusReason).toMatch(/recusou a sessão/);
    expect(await authRows(record.id)).toEqual([]);
    await reg.close();
  });

  it('a dropped connection: CONNECTION_LOST, reconnects after 40, 80, 160 ms (backoff), CONNECTED again; sends wait meanwhile', async () => {
    const { reg } = registry();
    const { record, sock, adapter } = await connected(reg);
    const closedAt = Date.now();
    sock.close(428, 'Connection Closed');
    await waitStatus(record.id, 'CONNECTION_LOST');
    expect((await row(record.id)).statusReason).toMatch(/Conexão perdida: Connection Closed \(428\)\. Nova tentativa 1/);
    const err = await adapter.sendText({ to: '5511988887777', isGroup: false }, 'oi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ERR_WAPP_INITIALIZED');
    const second = await fakeBaileys.next(1);
    const firstDelay = Date.now() - closedAt;
    expect(firstDelay).toBeGreaterThanOrEqual(35);
    const t2 = Date.now();
    second.close(408, 'timed out'); // never opened, no QR shown: a lost connection, not a QR timeout
    const third = await fakeBaileys.next(2);
    expect(Date.now() - t2).toBeGreaterThanOrEqual(75);
    expect((await row(record.id)).status).toBe('CONNECTION_LOST');
    third.open();
    await waitStatus(record.id, 'CONNECTED');
    // The counter starts over once connected: the next drop waits the base delay again.
    const t3 = Date.now();
    third.close(503);
    const fourth = await fakeBaileys.next(3);
    expect(Date.now() - t3).toBeLessThan(75 + 200);
    fourth.open();
    await waitStatus(record.id, 'CONNECTED');
    await reg.close();
  });

  it('gives up after maxReconnects failures: DISCONNECTED, the login kept (Conectar resumes it)', async () => {
    const { reg } = registry();
    const { record, sock } = await connected(reg);
    sock.close(428);
    for (let i = 1; i <= 3; i++) (await fakeBaileys.next(i)).close(428);
    await waitStatus(record.id, 'DISCONNECTED');
    expect((await row(record.id)).statusReason).toMatch(/Não foi possível reconectar/);
    expect((await authRows(record.id)).some((r) => r.key === CREDS_KEY)).toBe(true);
    await reg.close();
  });

  it('a lost connection while the QR is on screen goes back to OPENING (qrcode cannot become CONNECTION_LOST)', async () => {
    const { reg } = registry();
    const record = await channel();
    const { sock, done } = await connecting(reg, record);
    sock.qr();
    await done;
    sock.close(428);
    await waitStatus(record.id, 'OPENING');
    (await fakeBaileys.next(1)).qr('2@AFTER');
    await waitFor(async () => (await row(record.id)).qrcode === '2@AFTER', 'new QR');
    await reg.close();
  });

  it('close 440 (the login was opened by another server process): this socket stops, the state is left to the other', async () => {
    const { reg } = registry();
    const { record, sock } = await connected(reg);
    sock.close(440, 'replaced');
    await new Promise((r) => setTimeout(r, 150));
    expect((await row(record.id)).status).toBe('CONNECTED');
    expect(fakeBaileys.sockets).toHaveLength(1);
    await reg.close();
  });

  it('disconnect logs out (the phone drops the device), clears the login, DISCONNECTED; destroy logs out without a state', async () => {
    const { reg } = registry();
    const { record, sock, adapter } = await connected(reg);
    await adapter.disconnect();
    expect(sock.loggedOut).toBe(true);
    expect(await row(record.id)).toMatchObject({ status: 'DISCONNECTED' });
    expect(await authRows(record.id)).toEqual([]);
    const other = await connected(reg, '5511955554444');
    await server.deps.dataSource.query(`DELETE FROM channels WHERE id = $1`, [other.record.id]);
    await reg.destroy(other.record);
    expect(other.sock.loggedOut).toBe(true);
    expect(await authRows(other.record.id)).toEqual([]);
    await reg.close();
  });

  it('restart: a new registry (another process, or after a stop) resumes from the login in PostgreSQL without a QR', async () => {
    const first = registry();
    const { record, sock } = await connected(first.reg, '5511933332222');
    await sock.config.auth.keys.set({ 'pre-key': { '7': { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5]) } } });
    await first.reg.close(); // shutdown: the socket ends, the login stays, the state stays
    expect(sock.ended).toBe(true);
    expect(sock.loggedOut).toBe(false);
    expect((await row(record.id)).status).toBe('CONNECTED');

    const second = registry();
    const count = fakeBaileys.sockets.length;
    const resumedCount = await second.reg.resumeSessions();
    expect(resumedCount).toBeGreaterThanOrEqual(1);
    // Every resumable channel of this file's database gets a socket; ours carries its stored login.
    await waitFor(() => fakeBaileys.sockets.length - count === resumedCount, 'resumed sockets');
    const resumed = fakeBaileys.sockets
      .slice(count)
      .find((s) => (s.config.auth.creds.me?.id ?? '').startsWith('5511933332222'));
    expect(resumed).toBeDefined();
    expect(resumed!.hasLogin).toBe(true);
    expect(await resumed!.config.auth.keys.get('pre-key', ['7', '8'])).toEqual({
      '7': { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5]) },
    });
    resumed!.open('5511933332222');
    await waitStatus(record.id, 'CONNECTED');
    expect(resumed!.qrCount).toBe(0);
    for (const s of fakeBaileys.live()) if (s !== resumed && !s.isOpen) s.open();
    await second.reg.close();
    // Those sessions stay resumable but must not be resumed again by later tests' registries.
    await server.deps.dataSource.query(`UPDATE channels SET status = 'DISCONNECTED' WHERE type = 'baileys'`);
  });
});

describe('sends through the socket', () => {
  let reg: ChannelRegistry;
  let adapter: BaileysAdapter;
  let sock: FakeBaileysSocket;
  let record: ChannelRecord;
  const to = { to: '5511988887777', isGroup: false };
  const jid = '5511988887777@s.whatsapp.net';
  const dir = mkdtempSync(path.join(tmpdir(), 'baileys-media-'));
  const file = (name: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, 'x');
    return p;
  };

  beforeEach(async () => {
    ({ reg } = registry());
    ({ adapter, sock, record } = await connected(reg));
  });
  afterEach(async () => reg?.close());

  it('text, checked once with onWhatsApp (cached), answering the provider id and timestamp', async () => {
    const r = await adapter.sendText(to, 'Olá!');
    expect(r.providerMessageId).toBe(sock.sent[0].id);
    expect(r.timestamp).toBeGreaterThan(1_600_000_000);
    expect(sock.sent[0]).toMatchObject({ jid, content: { text: 'Olá!' } });
    await adapter.sendText(to, 'de novo');
    expect(sock.checked).toEqual([[jid]]);
  });

  it("the JID WhatsApp answers is used (a Brazilian number registered without the ninth digit)", async () => {
    fakeBaileys.settings.jidOf.set('5511988887777', '551188887777@s.whatsapp.net');
    await adapter.sendText(to, 'oi');
    expect(sock.sent[0].jid).toBe('551188887777@s.whatsapp.net');
  });

  it('a number not on WhatsApp: ERR_WAPP_INVALID_CONTACT (final); the check failing: ERR_WAPP_CHECK_CONTACT (retried)', async () => {
    fakeBaileys.settings.notOnWhatsApp.add('5511900001111');
    const invalid = (await adapter.sendText({ to: '5511900001111', isGroup: false }, 'x').catch((e) => e)) as ChannelSendError;
    expect(invalid).toBeInstanceOf(ChannelSendError);
    expect(invalid).toMatchObject({ retryable: false, providerCode: 'ERR_WAPP_INVALID_CONTACT' });
    fakeBaileys.configure({ checkFails: true });
    const check = (await adapter.sendText({ to: '5511900002222', isGroup: false }, 'x').catch((e) => e)) as ChannelSendError;
    expect(check).toMatchObject({ retryable: true, providerCode: 'ERR_WAPP_CHECK_CONTACT' });
    expect(sock.sent).toHaveLength(0);
  });

  it('groups and JIDs go as they are, without a number check', async () => {
    await adapter.sendText({ to: '120363000000000001@g.us', isGroup: true }, 'grupo');
    await adapter.sendText({ to: '120363000000000002', isGroup: true }, 'grupo 2');
    expect(sock.sent.map((s) => s.jid)).toEqual(['120363000000000001@g.us', '120363000000000002@g.us']);
    expect(sock.checked).toEqual([]);
  });

  it('media: image and video with caption, audio as file or voice note, anything else as a document', async () => {
    await adapter.sendMedia(to, { path: file('a.jpg'), fileName: 'a.jpg', mimeType: 'image/jpeg', caption: 'foto' });
    await adapter.sendMedia(to, { path: file('v.mp4'), fileName: 'v.mp4', mimeType: 'video/mp4', caption: 'vídeo' });
    await adapter.sendMedia(to, { path: file('s.mp3'), fileName: 's.mp3', mimeType: 'audio/mpeg' });
    await adapter.sendMedia(to, { path: file('n.ogg'), fileName: 'n.ogg', mimeType: 'audio/ogg', sendAsVoice: true });
    await adapter.sendMedia(to, { path: file('r.pdf'), fileName: 'relatório.pdf', mimeType: 'application/pdf', caption: 'segue' });
    expect(sock.sent.map((s) => s.content)).toEqual([
      { image: { url: path.join(dir, 'a.jpg') }, mimetype: 'image/jpeg', caption: 'foto' },
      { video: { url: path.join(dir, 'v.mp4') }, mimetype: 'video/mp4', caption: 'vídeo' },
      { audio: { url: path.join(dir, 's.mp3') }, mimetype: 'audio/mpeg', ptt: false },
      { audio: { url: path.join(dir, 'n.ogg') }, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      { document: { url: path.join(dir, 'r.pdf') }, mimetype: 'application/pdf', fileName: 'relatório.pdf', caption: 'segue' },
    ]);
  });

  it('a quoted reply carries the quoted key (the customer message as received)', async () => {
    sock.receive([textMessage('5511988887777', 'pergunta', { id: 'CUST-Q1' })]);
    await adapter.session().idle();
    await adapter.sendText(to, 'resposta', { quotedProviderMessageId: 'CUST-Q1' });
    expect(sock.sent[0].options?.quoted).toMatchObject({ key: { id: 'CUST-Q1', fromMe: false, remoteJid: jid } });
  });

  it('buttons become a numbered list; templates are refused', async () => {
    await adapter.sendButtons(to, 'Escolha:', [
      { id: 'btn-1', title: 'Sim' },
      { id: 'btn-2', title: 'Não' },
    ]);
    expect(sock.sent[0].content).toEqual({ text: 'Escolha:\n\n1. Sim\n2. Não' });
    const err = await adapter.sendTemplate().catch((e) => e);
    expect(err).toMatchObject({ code: 'ERR_CHANNEL_OPERATION_UNSUPPORTED' });
  });

  it('reaction (to the customer message), edit and delete for everyone (our message)', async () => {
    sock.receive([textMessage('5511988887777', 'oi', { id: 'CUST-R1' })]);
    await adapter.session().idle();
    await adapter.sendReaction(to, 'CUST-R1', '❤️');
    const ours = await adapter.sendText(to, 'original');
    await adapter.editMessage(to, ours.providerMessageId, 'editado');
    await adapter.deleteMessage(to, ours.providerMessageId);
    await adapter.sendReaction(to, 'CUST-R1', '');
    expect(sock.sent.map((s) => s.content)).toEqual([
      { react: { text: '❤️', key: expect.objectContaining({ id: 'CUST-R1', fromMe: false, remoteJid: jid }) } },
      { text: 'original' },
      { text: 'editado', edit: expect.objectContaining({ id: ours.providerMessageId, fromMe: true, remoteJid: jid }) },
      { delete: expect.objectContaining({ id: ours.providerMessageId, fromMe: true, remoteJid: jid }) },
      { react: { text: '', key: expect.objectContaining({ id: 'CUST-R1' }) } },
    ]);
  });

  it('read receipts for the customer messages', async () => {
    await adapter.markRead(to, ['CUST-1', 'CUST-2']);
    expect(sock.reads).toEqual([
      [
        { remoteJid: jid, id: 'CUST-1', fromMe: false },
        { remoteJid: jid, id: 'CUST-2', fromMe: false },
      ],
    ]);
  });

  it('socket failures: connection-level ones are retried, refusals are final', async () => {
    sock.failNextSend = boom(428, 'Connection Closed');
    expect(await adapter.sendText(to, 'x').catch((e) => e)).toMatchObject({ retryable: true, providerStatus: 428 });
    sock.failNextSend = new Error('socket hang up');
    expect(await adapter.sendText(to, 'x').catch((e) => e)).toMatchObject({ retryable: true });
    sock.failNextSend = boom(400, 'bad-request');
    expect(await adapter.sendText(to, 'x').catch((e) => e)).toMatchObject({ retryable: false, providerStatus: 400 });
  });

  it('not connected: ERR_WAPP_NOT_INITIALIZED', async () => {
    await adapter.disconnect();
    const err = await adapter.sendText(to, 'x').catch((e) => e);
    expect(err).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(record.id).toBeGreaterThan(0);
  });
});

describe('inbound through the pipeline', () => {
  let reg: ChannelRegistry;
  beforeEach(() => {
    ({ reg } = registry());
  });
  afterEach(async () => reg?.close());

  const messagesOf = (channelId: number) =>
    server.deps.dataSource.query(
      `SELECT m.*, c.name AS "contactName", c.number AS "contactNumber", t."isGroup" AS "ticketIsGroup"
         FROM messages m JOIN contacts c ON c.id = m."contactId" JOIN tickets t ON t.id = m."ticketId"
        WHERE m."whatsappId" = $1 ORDER BY m.id`,
      [channelId],
    );

  it('notify upserts become messages of a pending ticket; append (our own echoes) and fromMe are not stored', async () => {
    const { record, sock, adapter } = await connected(reg);
    sock.receive([textMessage('5511977770001', 'Quero ajuda', { id: 'IN-1', pushName: 'Carla' })]);
    const own = textMessage('5511977770001', 'do celular', { id: 'IN-OWN' });
    own.key.fromMe = true;
    sock.receive([own]);
    sock.receive([textMessage('5511977770001', 'append', { id: 'IN-APPEND' })], 'append');
    sock.receive([textMessage('5511977770001', 'Quero ajuda', { id: 'IN-1' })]); // redelivered
    await adapter.session().idle();
    await reg.idle();
    const rows = await messagesOf(record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: 'Quero ajuda', messageId: 'IN-1', fromMe: false, contactName: 'Carla', contactNumber: '5511977770001' });
  });

  it('media is downloaded with downloadMediaMessage; a failed download keeps the message with ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const { record, sock, adapter } = await connected(reg);
    sock.receive([mediaMessage('5511977770002', 'image', { mimetype: 'image/jpeg', caption: 'nota', bytes: Buffer.from('JPEGDATA') }, { id: 'IMG-1' })]);
    sock.receive([mediaMessage('5511977770002', 'document', { mimetype: 'application/pdf', fileName: 'x.pdf' }, { id: 'DOC-GONE' })]);
    await adapter.session().idle();
    await reg.idle();
    const rows = await messagesOf(record.id);
    expect(rows.map((r: any) => [r.messageId, r.mediaType, r.body])).toEqual([
      ['IMG-1', 'image', 'nota'],
      ['DOC-GONE', 'document', ''],
    ]);
    expect(rows[0].mediaPath).toBeTruthy();
    expect(rows[0].lastError).toBeNull();
    expect(rows[1]).toMatchObject({ lastError: 'ERR_WAPP_DOWNLOAD_MEDIA', mediaPath: null, mediaName: 'x.pdf' });
  });

  it('groups: one group contact and ticket, the sender in the body; a reaction updates its target', async () => {
    const { record, sock, adapter } = await connected(reg);
    const group = '120363000000000009@g.us';
    sock.receive([textMessage('5511977770003', 'bom dia', { id: 'G-1', group, pushName: 'Ana' })]);
    await adapter.session().idle();
    await reg.idle();
    sock.receive([waMessage('5511977770003', { reactionMessage: { key: { id: 'G-1', remoteJid: group }, text: '🔥' } }, { id: 'R-1', group })]);
    await adapter.session().idle();
    await reg.idle();
    const rows = await messagesOf(record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: 'Ana: bom dia', ticketIsGroup: true, contactName: 'Grupo 0009' });
    expect(rows[0].reactions).toEqual([expect.objectContaining({ emoji: '🔥', fromMe: false, contactId: rows[0].contactId })]);
  });

  it('history sync: nothing is stored unless asked; asked with a limit, the newest `limit` messages of the chunk', async () => {
    const { record, sock, adapter } = await connected(reg);
    const old = (id: string, ts: number) => textMessage('5511977770004', `antiga ${id}`, { id, timestamp: ts });
    sock.history([old('H-0', 1_600_000_000)]);
    await adapter.session().idle();
    expect(await messagesOf(record.id)).toHaveLength(0);
    await expect(adapter.requestHistory(0, [])).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    const asked = await adapter.requestHistory(2, [{ target: { to: '5511977770004', isGroup: false }, providerMessageId: 'H-9', timestamp: 1_700_000_000 }]);
    expect(asked).toBe(1);
    expect(sock.historyRequests[0]).toMatchObject({ count: 2, key: { id: 'H-9', remoteJid: '5511977770004@s.whatsapp.net' }, timestamp: 1_700_000_000 });
    sock.history([old('H-3', 1_600_000_300), old('H-1', 1_600_000_100), old('H-2', 1_600_000_200)]);
    sock.history([old('H-4', 1_600_000_400)]); // the limit is reached: not stored
    await adapter.session().idle();
    await reg.idle();
    expect((await messagesOf(record.id)).map((r: any) => r.messageId)).toEqual(['H-2', 'H-3']);
  });
});
