import { describe, expect, it } from 'vitest';
import { mediaMessage, textMessage, waMessage } from '../../../../tests/fakes/baileys-socket.fake';
import type { InboundMessage } from '../channel-adapter';
import { backoffDelay } from './baileys-adapter';
import { buttonsAsText, identityOf, normaliseInbound, statusOf, targetJid, userOf, type NormaliseContext } from './baileys-messages';

/** Baileys' message shapes -> the pipeline's InboundMessage, statuses, JIDs (no socket, no database). */

const ctx: NormaliseContext = { channelId: 5, tenantId: 9, download: async () => Buffer.from('bytes') };
const norm = (m: Parameters<typeof normaliseInbound>[0], extra: Partial<NormaliseContext> = {}) =>
  normaliseInbound(m, { ...ctx, ...extra }) as InboundMessage;
const CUSTOMER = '5511988887777';

describe('normaliseInbound', () => {
  it('text (conversation) and extended text with a quote', () => {
    const m = norm(textMessage(CUSTOMER, 'Olá', { id: 'A1', pushName: 'Maria', timestamp: 1_700_000_000 }));
    expect(m).toMatchObject({
      channelId: 5,
      tenantId: 9,
      providerMessageId: 'A1',
      from: { kind: 'wa', externalId: CUSTOMER, phone: CUSTOMER, name: 'Maria' },
      isGroup: false,
      timestamp: 1_700_000_000,
      type: 'chat',
      body: 'Olá',
    });
    expect(m.quotedProviderMessageId).toBeUndefined();
    const reply = norm(textMessage(CUSTOMER, 'respondendo', { quotedId: 'OUR-1' }));
    expect(reply).toMatchObject({ type: 'chat', body: 'respondendo', quotedProviderMessageId: 'OUR-1' });
  });

  it('messageTimestamp as a protobuf Long', () => {
    const msg = textMessage(CUSTOMER, 'x');
    (msg as { messageTimestamp: unknown }).messageTimestamp = { toNumber: () => 1_700_000_123 };
    expect(norm(msg).timestamp).toBe(1_700_000_123);
  });

  it.each([
    ['image', { mimetype: 'image/jpeg', caption: 'foto' }, 'foto'],
    ['video', { mimetype: 'video/mp4', caption: 'vídeo' }, 'vídeo'],
    ['audio', { mimetype: 'audio/ogg; codecs=opus', ptt: true }, ''],
    ['document', { mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'segue' }, 'segue'],
    ['sticker', { mimetype: 'image/webp' }, ''],
  ] as const)('%s: media with mime type, file name, caption and a download', async (kind, fields, body) => {
    let downloaded: unknown;
    const msg = mediaMessage(CUSTOMER, kind, fields);
    const m = norm(msg, {
      download: async (x) => {
        downloaded = x;
        return Buffer.from('data');
      },
    });
    expect(m.type).toBe(kind);
    expect(m.body).toBe(body);
    expect(m.media?.mimeType).toBe(fields.mimetype.split(';')[0]);
    expect(m.media?.fileName).toBe('fileName' in fields ? fields.fileName : undefined);
    expect(await m.media!.download()).toEqual(Buffer.from('data'));
    expect(downloaded).toBe(msg);
  });

  it('media inside containers: ephemeral, view once, document with caption', () => {
    const inner = { imageMessage: { mimetype: 'image/png', caption: 'efêmera' } };
    expect(norm(waMessage(CUSTOMER, { ephemeralMessage: { message: inner } })).type).toBe('image');
    expect(norm(waMessage(CUSTOMER, { viewOnceMessageV2: { message: inner } })).body).toBe('efêmera');
    const doc = norm(
      waMessage(CUSTOMER, {
        documentWithCaptionMessage: { message: { documentMessage: { mimetype: 'application/pdf', fileName: 'a.pdf', caption: 'c' } } },
      }),
    );
    expect(doc).toMatchObject({ type: 'document', body: 'c', media: { fileName: 'a.pdf' } });
  });

  it('location (and live location), contact card, contacts array', () => {
    const loc = norm(waMessage(CUSTOMER, { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Loja', address: 'Rua A' } }));
    expect(loc).toMatchObject({ type: 'location', body: 'Loja - Rua A', location: { latitude: -23.5, longitude: -46.6, name: 'Loja' } });
    const live = norm(waMessage(CUSTOMER, { liveLocationMessage: { degreesLatitude: 1, degreesLongitude: 2 } }));
    expect(live).toMatchObject({ type: 'location', body: '1,2', location: { latitude: 1, longitude: 2 } });
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD';
    expect(norm(waMessage(CUSTOMER, { contactMessage: { displayName: 'João', vcard } }))).toMatchObject({ type: 'contactCard', body: vcard });
    const many = norm(waMessage(CUSTOMER, { contactsArrayMessage: { contacts: [{ vcard: 'A' }, { vcard: 'B' }] } }));
    expect(many).toMatchObject({ type: 'contactCard', body: 'A\nB' });
  });

  it('reactions point at their target; an empty text removes', () => {
    const r = norm(waMessage(CUSTOMER, { reactionMessage: { key: { id: 'OUR-9', fromMe: true }, text: '👍' } }));
    expect(r).toMatchObject({ type: 'reaction', reaction: { targetProviderMessageId: 'OUR-9', emoji: '👍' } });
    const removed = norm(waMessage(CUSTOMER, { reactionMessage: { key: { id: 'OUR-9' }, text: '' } }));
    expect(removed.reaction).toEqual({ targetProviderMessageId: 'OUR-9', emoji: '' });
  });

  it('button and list replies are their chosen text', () => {
    expect(norm(waMessage(CUSTOMER, { buttonsResponseMessage: { selectedDisplayText: 'Sim' } }))).toMatchObject({ type: 'button', body: 'Sim' });
    expect(norm(waMessage(CUSTOMER, { listResponseMessage: { title: 'Opção 2' } }))).toMatchObject({ type: 'button', body: 'Opção 2' });
  });

  it('groups: the group is the contact (isGroup), the body says who wrote', () => {
    const g = norm(textMessage(CUSTOMER, 'oi pessoal', { group: '120363000000000001@g.us', pushName: 'Ana' }), { groupName: 'Equipe' });
    expect(g).toMatchObject({
      isGroup: true,
      from: { kind: 'wa', externalId: '120363000000000001@g.us', name: 'Equipe' },
      body: 'Ana: oi pessoal',
      raw: { participant: `${CUSTOMER}@s.whatsapp.net` },
    });
  });

  it('LID chats: the phone-number twin when Baileys gives it, else a lid identity', () => {
    const withPn = norm(textMessage(CUSTOMER, 'x', { lid: '123456789012345' }));
    expect(withPn.from).toMatchObject({ kind: 'wa', externalId: CUSTOMER, phone: CUSTOMER });
    expect(identityOf('123456789012345@lid')).toEqual({ kind: 'lid', externalId: '123456789012345@lid' });
  });

  it('skips own messages (fromMe), status broadcasts, newsletters, protocol messages and empty ones', () => {
    const own = textMessage(CUSTOMER, 'eu');
    own.key.fromMe = true;
    expect(normaliseInbound(own, ctx)).toBe('from-me');
    const status = textMessage(CUSTOMER, 's');
    status.key.remoteJid = 'status@broadcast';
    expect(normaliseInbound(status, ctx)).toBe('status-broadcast');
    const news = textMessage(CUSTOMER, 'n');
    news.key.remoteJid = '1203@newsletter';
    expect(normaliseInbound(news, ctx)).toBe('newsletter');
    expect(normaliseInbound(waMessage(CUSTOMER, { protocolMessage: { type: 0, key: { id: 'X' } } }), ctx)).toBe('protocol');
    expect(normaliseInbound(waMessage(CUSTOMER, { senderKeyDistributionMessage: {}, messageContextInfo: {} }), ctx)).toBe('protocol');
    expect(normaliseInbound({ ...textMessage(CUSTOMER, ''), message: null }, ctx)).toBe('no-content');
  });

  it('an unknown message kind is stored as unsupported (the agent sees something arrived)', () => {
    expect(norm(waMessage(CUSTOMER, { pollCreationMessage: { name: 'Enquete' } }))).toMatchObject({ type: 'unsupported' });
  });
});

describe('statuses, JIDs, buttons, backoff', () => {
  it('Baileys message statuses become acks', () => {
    expect([0, 1, 2, 3, 4, 5, undefined].map(statusOf)).toEqual(['failed', null, 'sent', 'delivered', 'read', 'read', null]);
  });

  it('targets: digits to a phone JID, groups to @g.us, JIDs as they are', () => {
    expect(targetJid({ to: '+55 11 98888-7777', isGroup: false })).toBe('5511988887777@s.whatsapp.net');
    expect(targetJid({ to: '120363000000000001', isGroup: true })).toBe('120363000000000001@g.us');
    expect(targetJid({ to: '120363000000000001@g.us', isGroup: true })).toBe('120363000000000001@g.us');
    expect(targetJid({ to: '123@lid', isGroup: false })).toBe('123@lid');
    expect(userOf('5511999990000:7@s.whatsapp.net')).toBe('5511999990000');
  });

  it('buttons fall back to a numbered list', () => {
    expect(buttonsAsText('Escolha:', [{ id: 'a', title: 'Sim' }, { id: 'b', title: 'Não' }])).toBe('Escolha:\n\n1. Sim\n2. Não');
  });

  it('backoff doubles up to its ceiling', () => {
    const t = { backoffBaseMs: 2000, backoffMaxMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, t))).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });
});

describe('the injected socket in auto mode (how a real server process under Playwright is driven)', () => {
  it('a QR at once, open after connectAfterMs; a stored login opens without a QR; the control endpoint pairs, delivers and lists sends', async () => {
    const { fakeBaileys, makeWASocket } = await import('../../../../tests/fakes/baileys-socket.fake');
    process.env.FAKE_BAILEYS_CONTROL_PORT = 'any';
    try {
      fakeBaileys.reset({ mode: 'auto', connectAfterMs: 60 });
      const seen: string[] = [];
      const sock = makeWASocket({ auth: { creds: {}, keys: {} }, logger: undefined } as never);
      sock.ev.process((e) => {
        if (e['connection.update']?.qr) seen.push('qr');
        if (e['connection.update']?.connection) seen.push(e['connection.update'].connection);
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual(['qr', 'open']);
      const resumed = makeWASocket({ auth: { creds: { me: { id: '5511999990000:7@s.whatsapp.net' }, registered: true }, keys: {} }, logger: undefined } as never);
      await new Promise((r) => setTimeout(r, 100));
      expect(resumed.isOpen).toBe(true);
      expect(resumed.qrCount).toBe(0);

      fakeBaileys.configure({ connectAfterMs: 0 });
      const waiting = makeWASocket({ auth: { creds: {}, keys: {} }, logger: undefined } as never);
      await new Promise((r) => setTimeout(r, 100));
      expect(waiting.qrCount).toBe(1);
      expect(waiting.isOpen).toBe(false);
      const base = `http://127.0.0.1:${await fakeBaileys.controlPort()}`;
      expect(await (await fetch(`${base}/pair`, { method: 'POST', body: '{}' })).json()).toEqual({ opened: 1 });
      expect(waiting.isOpen).toBe(true);
      const received: unknown[] = [];
      waiting.ev.process((e) => {
        if (e['messages.upsert']) received.push(e['messages.upsert']);
      });
      const inbound = await (await fetch(`${base}/inbound`, { method: 'POST', body: JSON.stringify({ from: '5511988887777', text: 'Oi' }) })).json();
      expect(inbound.delivered).toBe(3);
      expect(received).toEqual([{ type: 'notify', messages: [expect.objectContaining({ message: { conversation: 'Oi' } })] }]);
      await waiting.sendMessage('5511988887777@s.whatsapp.net', { text: 'Olá' });
      expect(await (await fetch(`${base}/sent`)).json()).toEqual([expect.objectContaining({ jid: '5511988887777@s.whatsapp.net', content: { text: 'Olá' } })]);
    } finally {
      delete process.env.FAKE_BAILEYS_CONTROL_PORT;
      fakeBaileys.reset();
    }
  });
});
