import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeMetaMessaging,
  attachmentEvent,
  deliveryEvent,
  graphError,
  messageEvent,
  metaPayload,
  newMid,
  newPsid,
  reactionEvent,
  readEvent,
  textEvent,
} from '../../../../tests/fakes/meta-messaging.fake';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import { ChannelSendError, type SessionStatus } from '../channel-adapter';
import { MetaAdapter, metaAttachmentType, type MetaChannelType } from './meta-adapter';
import { parseMetaWebhook } from './meta-webhook';

/** The Meta adapter alone against the fake Graph API (no database): payloads, states, error mapping, webhook parsing. */

let fake: FakeMetaMessaging;
beforeAll(async () => {
  fake = await new FakeMetaMessaging().start();
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

function adapter(type: MetaChannelType, opts: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  const states: { next: SessionStatus; reason?: string | null; number?: string | null }[] = [];
  const a = new MetaAdapter(
    {
      record: {
        id: 42,
        tenantId: 7,
        type,
        name: type,
        status: 'DISCONNECTED',
        number: null,
        providerConfig: { fbPageId: fake.pageId, ...(type === 'instagram' ? { instagramBusinessId: fake.instagramId } : {}) },
        secrets: { fbPageAccessToken: opts.token ?? fake.token, fbAppSecret: 'app-secret', fbVerifyToken: 'verify' },
      },
      logger,
      setStatus: async (next, change) => {
        states.push({ next, ...change });
        return next;
      },
    },
    { baseUrl: opts.baseUrl ?? fake.url, timeoutMs: opts.timeoutMs ?? 2000 },
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

async function appError(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

function tempFile(name: string, bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'meta-adapter-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('MetaAdapter: connect', () => {
  it("messenger: reads the page with the token, subscribes the page's webhooks; CONNECTED with the page name", async () => {
    const { a, states } = adapter('messenger');
    await a.connect();
    expect(a.status()).toBe('CONNECTED');
    expect(states.map((s) => s.next)).toEqual(['OPENING', 'CONNECTED']);
    expect(states.at(-1)).toMatchObject({ number: fake.pageName, reason: null });
    const page = fake.requestsTo(`/v21.0/${fake.pageId}`, 'GET').at(-1)!;
    expect(page.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(page.query.get('access_token')).toBeNull();
    const sub = fake.requestsTo(`/v21.0/${fake.pageId}/subscribed_apps`, 'POST').at(-1)!;
    expect(sub.query.get('subscribed_fields')?.split(',')).toEqual(
      expect.arrayContaining(['messages', 'messaging_postbacks', 'message_deliveries', 'message_reads', 'message_reactions']),
    );
  });

  it('instagram: reads the Instagram account; CONNECTED with its username', async () => {
    const { a, states } = adapter('instagram');
    await a.connect();
    expect(states.at(-1)).toMatchObject({ next: 'CONNECTED', number: fake.instagramUsername });
    expect(fake.requestsTo(`/v21.0/${fake.instagramId}`, 'GET').at(-1)?.query.get('fields')).toContain('username');
  });

  it('a bad token, a 5xx or no answer leave it DISCONNECTED with the reason', async () => {
    const bad = adapter('messenger', { token: 'EAAwrong' });
    await bad.a.connect();
    expect(bad.a.status()).toBe('DISCONNECTED');
    expect(bad.states.at(-1)?.reason).toBe('Graph API: Invalid OAuth access token - Cannot parse access token (#190)');

    fake.failNext({ status: 503 });
    const down = adapter('instagram');
    await down.a.connect();
    expect(down.states.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: expect.stringContaining('unexpected error') });

    fake.failNext({ hang: true });
    const slow = adapter('messenger', { timeoutMs: 200 });
    await slow.a.connect();
    expect(slow.states.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Graph API indisponível: sem resposta em 200 ms' });

    fake.failNext(
      { status: 403, body: graphError('(#200) Requires pages_manage_metadata permission', 200) },
      { match: (r) => r.path.endsWith('/subscribed_apps') },
    );
    const noPerm = adapter('messenger');
    await noPerm.a.connect();
    expect(noPerm.states.at(-1)?.reason).toContain('pages_manage_metadata');
  });

  it('refuses a channel row without its fields', () => {
    expect(
      () =>
        new MetaAdapter(
          {
            record: {
              id: 1,
              tenantId: 1,
              type: 'instagram',
              name: 'x',
              status: 'DISCONNECTED',
              number: null,
              providerConfig: { fbPageId: '123456' },
              secrets: { fbPageAccessToken: 't', fbAppSecret: 's', fbVerifyToken: 'v' },
            },
            logger,
            setStatus: async (n) => n,
          },
          { baseUrl: fake.url, timeoutMs: 1000 },
        ),
    ).toThrow(AppError);
  });
});

describe('MetaAdapter: sends', () => {
  it('text: POST /{page-id}/messages as a RESPONSE; a quoted message becomes reply_to; answers the mid', async () => {
    const { a } = adapter('messenger');
    const to = newPsid();
    const sent = await a.sendText({ to, isGroup: false }, 'Olá! Como posso ajudar?');
    expect(sent.providerMessageId).toMatch(/^m_/);
    const quoted = newMid();
    await a.sendText({ to, isGroup: false }, 'Sobre isso:', { quotedProviderMessageId: quoted });
    expect(fake.sentTo(to)).toEqual([
      { recipient: { id: to }, messaging_type: 'RESPONSE', message: { text: 'Olá! Como posso ajudar?' } },
      { recipient: { id: to }, messaging_type: 'RESPONSE', message: { text: 'Sobre isso:', reply_to: { mid: quoted } } },
    ]);
  });

  it('refuses an empty or too long text before calling (Messenger 2000 characters, Instagram 1000 bytes)', async () => {
    const to = newPsid();
    await appError(adapter('messenger').a.sendText({ to, isGroup: false }, ' '), 'ERR_VALIDATION');
    await appError(adapter('messenger').a.sendText({ to, isGroup: false }, 'a'.repeat(2001)), 'ERR_VALIDATION');
    await expect(adapter('messenger').a.sendText({ to, isGroup: false }, 'a'.repeat(2000))).resolves.toBeTruthy();
    await appError(adapter('instagram').a.sendText({ to, isGroup: false }, 'ç'.repeat(501)), 'ERR_VALIDATION');
    expect(fake.sentTo(to)).toHaveLength(1);
  });

  it('media: uploads the file (message_attachments, filedata) and sends it by attachment_id; the caption follows as text', async () => {
    const { a } = adapter('messenger');
    const to = newPsid();
    const bytes = Buffer.from('%PDF-1.4 meta');
    const sent = await a.sendMedia(
      { to, isGroup: false },
      { path: tempFile('contrato.pdf', bytes), fileName: 'contrato.pdf', mimeType: 'application/pdf', caption: 'Seu contrato' },
    );
    const upload = fake.uploads().at(-1)!;
    const file = upload.form?.filedata as { name: string; type: string; bytes: Buffer };
    expect(file.name).toBe('contrato.pdf');
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(JSON.parse(String(upload.form?.message))).toEqual({ attachment: { type: 'file', payload: { is_reusable: false } } });
    expect(upload.form?.platform).toBeUndefined();
    const [media, caption] = fake.sentTo(to);
    expect(media.message.attachment.type).toBe('file');
    expect(fake.attachment(media.message.attachment.payload.attachment_id)).toMatchObject({ name: 'contrato.pdf', type: 'file' });
    expect(caption.message).toEqual({ text: 'Seu contrato' });
    expect(sent.providerMessageId).toMatch(/^m_/);
  });

  it('instagram media is uploaded with platform=instagram; images, videos and audio keep their type', async () => {
    const { a } = adapter('instagram');
    const to = newPsid();
    await a.sendMedia(
      { to, isGroup: false },
      { path: tempFile('foto.png', Buffer.from('png')), fileName: 'foto.png', mimeType: 'image/png' },
    );
    expect(fake.uploads().at(-1)?.form?.platform).toBe('instagram');
    expect(fake.sentTo(to)).toHaveLength(1);
    expect(fake.sentTo(to)[0].message.attachment.type).toBe('image');
    expect(metaAttachmentType('video/mp4')).toBe('video');
    expect(metaAttachmentType('audio/ogg; codecs=opus')).toBe('audio');
    expect(metaAttachmentType('application/zip')).toBe('file');
  });

  it('buttons become quick replies (payload = button id); more than 13 or long titles are refused', async () => {
    const { a } = adapter('instagram');
    const to = newPsid();
    await a.sendButtons({ to, isGroup: false }, 'Escolha:', [
      { id: 'sim', title: 'Sim' },
      { id: 'nao', title: 'Não' },
    ]);
    expect(fake.sentTo(to)[0].message).toEqual({
      text: 'Escolha:',
      quick_replies: [
        { content_type: 'text', title: 'Sim', payload: 'sim' },
        { content_type: 'text', title: 'Não', payload: 'nao' },
      ],
    });
    const many = Array.from({ length: 14 }, (_, i) => ({ id: `b${i}`, title: `B${i}` }));
    const err = await appError(a.sendButtons({ to, isGroup: false }, 'x', many), 'ERR_VALIDATION');
    expect(err.fields?.[0].path).toBe('buttons');
    await appError(a.sendButtons({ to, isGroup: false }, 'x', [{ id: 'a', title: 'x'.repeat(21) }]), 'ERR_VALIDATION');
  });

  it('reactions: Instagram ❤️ (react / unreact); other emoji, Messenger, edits, deletes and templates are unsupported', async () => {
    const ig = adapter('instagram').a;
    const to = newPsid();
    const mid = newMid();
    await ig.sendReaction({ to, isGroup: false }, mid, '❤️');
    await ig.sendReaction({ to, isGroup: false }, mid, '');
    expect(fake.sentTo(to)).toEqual([
      { recipient: { id: to }, sender_action: 'react', payload: { message_id: mid, reaction: 'love' } },
      { recipient: { id: to }, sender_action: 'unreact', payload: { message_id: mid } },
    ]);
    const unsupported = 'ERR_CHANNEL_OPERATION_UNSUPPORTED';
    expect((await appError(ig.sendReaction({ to, isGroup: false }, mid, '👍'), unsupported)).message).toContain('❤️');
    const ms = adapter('messenger').a;
    await appError(ms.sendReaction({ to, isGroup: false }, mid, '❤️'), unsupported);
    await appError(ms.editMessage(), unsupported);
    await appError(ig.deleteMessage(), unsupported);
    await appError(ig.sendTemplate(), unsupported);
    expect(fake.sentTo(to)).toHaveLength(2);
  });
});

describe('MetaAdapter: failures', () => {
  const target = () => ({ to: newPsid(), isGroup: false });

  it('5xx, 429, transient Graph codes and no answer are retryable; other 4xx are final with Graph’s message', async () => {
    const { a } = adapter('messenger', { timeoutMs: 200 });
    fake.failNext({ status: 500 });
    expect((await sendError(a.sendText(target(), 'x'))).retryable).toBe(true);
    fake.failNext({ status: 429 });
    expect((await sendError(a.sendText(target(), 'x'))).retryable).toBe(true);
    fake.failNext({ status: 400, body: graphError('(#613) Calls to this api have exceeded the rate limit.', 613) });
    expect((await sendError(a.sendText(target(), 'x'))).retryable).toBe(true);
    fake.failNext({ status: 400, body: graphError('Temporary send message failure. Please try again later', 1200) });
    expect((await sendError(a.sendText(target(), 'x'))).retryable).toBe(true);
    fake.failNext({ hang: true });
    const timeout = await sendError(a.sendText(target(), 'x'));
    expect(timeout).toMatchObject({ retryable: true, message: 'Graph API indisponível: sem resposta em 200 ms' });

    fake.failNext({ status: 400, body: graphError("(#551) This person isn't available right now.", 551) });
    const gone = await sendError(a.sendText(target(), 'x'));
    expect(gone).toMatchObject({ retryable: false, providerStatus: 400, providerCode: '551' });
    expect(gone.message).toBe("Graph API: (#551) This person isn't available right now. (#551)");
    fake.failNext({
      status: 400,
      body: graphError('(#10) This message is sent outside of allowed window.', 10, { error_subcode: 2018278 }),
    });
    expect(await sendError(a.sendText(target(), 'x'))).toMatchObject({ retryable: false, providerCode: '10' });
    const badToken = adapter('messenger', { token: 'wrong' }).a;
    expect(await sendError(badToken.sendText(target(), 'x'))).toMatchObject({ retryable: false, providerCode: '190' });
  });

  it('a failed upload sends nothing; a refused caption does not fail the delivered media', async () => {
    const { a } = adapter('messenger');
    const t = target();
    const file = tempFile('a.jpg', Buffer.from('jpg'));
    fake.failNext({ status: 502 }, { match: (r) => r.path.endsWith('/message_attachments') });
    expect((await sendError(a.sendMedia(t, { path: file, fileName: 'a.jpg', mimeType: 'image/jpeg' }))).retryable).toBe(true);
    expect(fake.sentTo(t.to)).toHaveLength(0);
    let n = 0;
    fake.failNext({ status: 400 }, { match: (r) => r.path.endsWith('/messages') && r.json?.recipient?.id === t.to && ++n === 2 });
    const sent = await a.sendMedia(t, { path: file, fileName: 'a.jpg', mimeType: 'image/jpeg', caption: 'legenda' });
    expect(sent.providerMessageId).toMatch(/^m_/);
    expect(fake.sentTo(t.to)).toHaveLength(2);
  });

  it("profile: the sender's name from Graph, cached; unknown people answer nulls", async () => {
    const { a } = adapter('messenger');
    const psid = newPsid();
    fake.profiles.set(psid, { first_name: 'Ana', last_name: 'Souza', profile_pic: 'https://cdn.example/ana.jpg' });
    expect(await a.profile(psid)).toEqual({ name: 'Ana Souza', picture: 'https://cdn.example/ana.jpg' });
    const before = fake.requestsTo(`/v21.0/${psid}`).length;
    await a.profile(psid);
    expect(fake.requestsTo(`/v21.0/${psid}`)).toHaveLength(before);
    expect(await a.profile(newPsid())).toEqual({ name: null, picture: null });
    const ig = adapter('instagram').a;
    const igsid = newPsid();
    fake.profiles.set(igsid, { username: 'maria.ig' });
    expect((await ig.profile(igsid)).name).toBe('maria.ig');
  });

  it('downloads an attachment from its CDN URL without the token', async () => {
    const { a } = adapter('instagram');
    const url = fake.addCdnFile(Buffer.from('jpeg-bytes'), 'image/jpeg', 'foto.jpg');
    const got = await a.downloadAttachment(url);
    expect(got.buffer.toString()).toBe('jpeg-bytes');
    expect(got.mimeType).toBe('image/jpeg');
    expect(fake.requestsTo('/cdn/foto.jpg').at(-1)?.headers.authorization).toBeUndefined();
    const expired = await sendError(a.downloadAttachment(`${fake.url}/cdn/gone.jpg`));
    expect(expired.retryable).toBe(false);
  });
});

describe('parseMetaWebhook', () => {
  const channel = (type: MetaChannelType) => ({ id: 42, tenantId: 7, type });
  const ids = () => ({ pageId: fake.pageId, instagramBusinessId: fake.instagramId });
  const noDownload = async () => ({ buffer: Buffer.alloc(0) });

  it('messenger text, quick reply, reply_to; echoes, our own sends and other pages are skipped', () => {
    const psid = newPsid();
    const text = textEvent(psid, fake.pageId, 'Oi, tudo bem?');
    const quick = messageEvent(psid, fake.pageId, { text: 'Sim', quick_reply: { payload: 'sim' }, reply_to: { mid: 'm_orig' } });
    const echo = messageEvent(fake.pageId, psid, { text: 'eco', is_echo: true });
    const parsed = parseMetaWebhook(
      metaPayload('messenger', fake.pageId, [text, quick, echo]) as never,
      channel('messenger'),
      ids(),
      noDownload,
    );
    expect(parsed.messages).toHaveLength(2);
    expect(parsed.messages[0]).toMatchObject({
      channelId: 42,
      tenantId: 7,
      providerMessageId: (text.message as { mid: string }).mid,
      from: { kind: 'messenger', externalId: psid },
      isGroup: false,
      type: 'chat',
      body: 'Oi, tudo bem?',
    });
    expect(parsed.messages[1]).toMatchObject({ type: 'button', body: 'Sim', quotedProviderMessageId: 'm_orig' });
    expect(parsed.skipped).toBe(1);

    const other = parseMetaWebhook(metaPayload('messenger', '999999', [text]) as never, channel('messenger'), ids(), noDownload);
    expect(other).toMatchObject({ messages: [], skipped: 1 });
    const wrongObject = parseMetaWebhook(
      metaPayload('instagram', fake.pageId, [text]) as never,
      channel('messenger'),
      ids(),
      noDownload,
    );
    expect(wrongObject.messages).toEqual([]);
  });

  it('instagram attachments: one message per attachment, media downloaded from the URL, sticker and share kinds', async () => {
    const igsid = newPsid();
    const urls: string[] = [];
    const mid = newMid();
    const event = attachmentEvent(
      igsid,
      fake.instagramId,
      [
        { type: 'image', url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/foto.jpg?asset_id=1' },
        { type: 'audio', url: 'https://cdn.fbsbx.com/v/audioclip-123.mp4?x=1' },
        { type: 'image', url: 'https://cdn.fbsbx.com/sticker.png', sticker_id: 369239263222822 },
        { type: 'share', url: 'https://www.instagram.com/p/abc/' },
      ],
      mid,
    );
    const parsed = parseMetaWebhook(
      metaPayload('instagram', fake.instagramId, [event]) as never,
      channel('instagram'),
      ids(),
      async (url) => {
        urls.push(url);
        return { buffer: Buffer.from('x') };
      },
    );
    expect(parsed.messages.map((m) => [m.providerMessageId, m.type, m.media?.mimeType])).toEqual([
      [mid, 'image', 'image/jpeg'],
      [`${mid}:1`, 'audio', 'audio/mp4'],
      [`${mid}:2`, 'sticker', 'image/png'],
      [`${mid}:3`, 'unsupported', undefined],
    ]);
    expect(parsed.messages[0].from).toEqual({ kind: 'instagram', externalId: igsid });
    expect(parsed.messages[3].body).toBe('https://www.instagram.com/p/abc/');
    await parsed.messages[0].media!.download();
    expect(urls).toEqual(['https://lookaside.fbsbx.com/ig_messaging_cdn/foto.jpg?asset_id=1']);
  });

  it('receipts: delivery mids and Instagram seen mids become statuses; Messenger read watermarks are resolved later', () => {
    const psid = newPsid();
    const watermark = Date.now();
    const parsed = parseMetaWebhook(
      metaPayload('messenger', fake.pageId, [
        deliveryEvent(psid, fake.pageId, ['m_a', 'm_b']),
        readEvent(psid, fake.pageId, { watermark }),
      ]) as never,
      channel('messenger'),
      ids(),
      noDownload,
    );
    expect(parsed.statuses.map((s) => [s.providerMessageId, s.status])).toEqual([
      ['m_a', 'delivered'],
      ['m_b', 'delivered'],
    ]);
    expect(parsed.watermarks).toEqual([{ senderId: psid, status: 'read', upTo: Math.floor(watermark / 1000) }]);
    const ig = parseMetaWebhook(
      metaPayload('instagram', fake.instagramId, [readEvent(psid, fake.instagramId, { mid: 'm_seen' })]) as never,
      channel('instagram'),
      ids(),
      noDownload,
    );
    expect(ig.statuses).toEqual([
      expect.objectContaining({ providerMessageId: 'm_seen', status: 'read', channelId: 42, tenantId: 7 }),
    ]);
  });

  it('reactions and postbacks', () => {
    const psid = newPsid();
    const parsed = parseMetaWebhook(
      metaPayload('instagram', fake.instagramId, [
        reactionEvent(psid, fake.instagramId, 'm_target'),
        reactionEvent(psid, fake.instagramId, 'm_target', 'unreact'),
        {
          sender: { id: psid },
          recipient: { id: fake.instagramId },
          timestamp: Date.now(),
          postback: { mid: 'm_pb', title: 'Falar com atendente', payload: 'AGENT' },
        },
      ]) as never,
      channel('instagram'),
      ids(),
      noDownload,
    );
    expect(parsed.messages.map((m) => [m.type, m.body, m.reaction])).toEqual([
      ['reaction', '❤️', { targetProviderMessageId: 'm_target', emoji: '❤️' }],
      ['reaction', '', { targetProviderMessageId: 'm_target', emoji: '' }],
      ['button', 'Falar com atendente', undefined],
    ]);
    expect(parsed.messages[2].providerMessageId).toBe('m_pb');
  });
});
