import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi, telegramUpdate } from '../../../../tests/fakes/telegram-bot-api.fake';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import { ChannelSendError, type SessionStatus } from '../channel-adapter';
import { TelegramAdapter } from './telegram-adapter';
import { isValidTelegramSecret, parseTelegramUpdate } from './telegram-webhook';

/** The adapter alone against the fake Bot API (no database): methods, payloads, error mapping. */

let fake: FakeTelegramBotApi;
beforeAll(async () => {
  fake = await new FakeTelegramBotApi().start();
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

function adapter(opts: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  const states: { next: SessionStatus; reason?: string | null; number?: string | null }[] = [];
  const a = new TelegramAdapter(
    {
      record: {
        id: 42,
        tenantId: 7,
        type: 'telegram',
        name: 'Bot',
        status: 'DISCONNECTED',
        number: null,
        providerConfig: {},
        secrets: { tokenTelegram: opts.token ?? fake.token, telegramWebhookSecret: 'segredo-123' },
      },
      logger,
      setStatus: async (next, change) => {
        states.push({ next, ...change });
        return next;
      },
    },
    { baseUrl: opts.baseUrl ?? fake.url, publicUrl: 'https://atende.example.com/', timeoutMs: opts.timeoutMs },
  );
  return { a, states };
}

const target = { to: '123456789', isGroup: false };

async function sendError(p: Promise<unknown>): Promise<ChannelSendError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelSendError);
  return err as ChannelSendError;
}

describe('TelegramAdapter', () => {
  it('connect: getMe then setWebhook with the secret; CONNECTED with the username; a bad token is DISCONNECTED', async () => {
    const { a, states } = adapter();
    await a.connect();
    expect(a.status()).toBe('CONNECTED');
    expect(states.at(-1)).toMatchObject({ next: 'CONNECTED', number: fake.username, reason: null });
    expect(fake.calls('setWebhook').at(-1)?.json).toMatchObject({
      url: 'https://atende.example.com/webhooks/telegram/42',
      secret_token: 'segredo-123',
      allowed_updates: ['message'],
    });
    const bad = adapter({ token: '1:bad' });
    await bad.a.connect();
    expect(bad.states.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Telegram: Unauthorized' });
  });

  it('sends text with a quoted reply, buttons as an inline keyboard, reactions, edits and deletes', async () => {
    const { a } = adapter();
    const sent = await a.sendText(target, 'Olá', { quotedProviderMessageId: '123456789:55' });
    expect(sent.providerMessageId).toMatch(/^123456789:\d+$/);
    expect(fake.calls('sendMessage').at(-1)?.json).toMatchObject({ chat_id: '123456789', text: 'Olá', reply_to_message_id: 55 });

    await a.sendButtons(target, 'Escolha', [
      { id: 'sim', title: 'Sim' },
      { id: 'nao', title: 'Não' },
    ]);
    expect(fake.calls('sendMessage').at(-1)?.json.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Sim', callback_data: 'sim' }], [{ text: 'Não', callback_data: 'nao' }]],
    });
    await expect(a.sendButtons(target, 'x', [{ id: 'a'.repeat(65), title: 'A' }])).rejects.toBeInstanceOf(AppError);

    await a.sendReaction(target, '123456789:55', '👍');
    expect(fake.calls('setMessageReaction').at(-1)?.json).toEqual({
      chat_id: '123456789',
      message_id: 55,
      reaction: [{ type: 'emoji', emoji: '👍' }],
    });
    await a.editMessage(target, '123456789:56', 'corrigido');
    expect(fake.calls('editMessageText').at(-1)?.json).toEqual({ chat_id: '123456789', message_id: 56, text: 'corrigido' });
    await a.deleteMessage(target, '123456789:57');
    expect(fake.calls('deleteMessage').at(-1)?.json).toEqual({ chat_id: '123456789', message_id: 57 });

    const template = await a.sendTemplate().catch((e: unknown) => e);
    expect(template).toBeInstanceOf(AppError);
    expect((template as AppError).code).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
  });

  it('uploads media with the method of its kind (photo, voice, video, document)', async () => {
    const { a } = adapter();
    const dir = mkdtempSync(path.join(tmpdir(), 'tg-media-'));
    const file = (name: string, bytes: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, bytes);
      return p;
    };
    await a.sendMedia(target, { path: file('a.jpg', 'jpg'), fileName: 'a.jpg', mimeType: 'image/jpeg', caption: 'foto' });
    expect(fake.calls('sendPhoto').at(-1)?.form).toMatchObject({
      chat_id: '123456789',
      caption: 'foto',
      photo: { name: 'a.jpg' },
    });
    await a.sendMedia(target, { path: file('b.ogg', 'ogg'), fileName: 'b.ogg', mimeType: 'audio/ogg', sendAsVoice: true });
    expect(fake.calls('sendVoice').at(-1)?.form).toMatchObject({ voice: { name: 'b.ogg' } });
    await a.sendMedia(target, { path: file('c.mp3', 'mp3'), fileName: 'c.mp3', mimeType: 'audio/mpeg' });
    expect(fake.calls('sendAudio').at(-1)?.form).toMatchObject({ audio: { name: 'c.mp3' } });
    await a.sendMedia(target, { path: file('d.mp4', 'mp4'), fileName: 'd.mp4', mimeType: 'video/mp4' });
    expect(fake.calls('sendVideo').at(-1)?.form).toMatchObject({ video: { name: 'd.mp4' } });
    await a.sendMedia(
      target,
      { path: file('e.pdf', 'pdf'), fileName: 'e.pdf', mimeType: 'application/pdf' },
      { quotedProviderMessageId: '123456789:9' },
    );
    expect(fake.calls('sendDocument').at(-1)?.form).toMatchObject({ document: { name: 'e.pdf' }, reply_to_message_id: '9' });
  });

  it('maps failures: 5xx, 429 (retry_after), timeout and refused are retryable; other 4xx final with the description', async () => {
    const { a } = adapter({ timeoutMs: 200 });
    fake.failNext({ status: 502 }, { apiMethod: 'sendMessage' });
    expect((await sendError(a.sendText(target, 'oi'))).retryable).toBe(true);
    fake.failNext({ status: 429, retryAfter: 7 }, { apiMethod: 'sendMessage' });
    const limited = await sendError(a.sendText(target, 'oi'));
    expect(limited.retryable).toBe(true);
    expect(limited.message).toContain('7 s');
    fake.failNext({ status: 403, description: 'Forbidden: bot was blocked by the user' }, { apiMethod: 'sendMessage' });
    const blocked = await sendError(a.sendText(target, 'oi'));
    expect(blocked).toMatchObject({
      retryable: false,
      message: 'Telegram: Forbidden: bot was blocked by the user',
      providerStatus: 403,
    });
    fake.failNext({ hang: true }, { apiMethod: 'sendMessage' });
    const timeout = await sendError(a.sendText(target, 'oi'));
    expect(timeout.retryable).toBe(true);
    expect(timeout.message).toContain('200 ms');
    expect(timeout.message).not.toContain(fake.token);
    const closed = adapter({ baseUrl: 'http://127.0.0.1:1' });
    expect((await sendError(closed.a.sendText(target, 'oi'))).retryable).toBe(true);
  });

  it('downloads a file through getFile and the file URL', async () => {
    const { a } = adapter();
    const id = fake.addFile(Buffer.from('bytes!'), 'image/png', 'x.png');
    expect((await a.downloadFile(id)).buffer.toString()).toBe('bytes!');
    const missing = await sendError(a.downloadFile('nope'));
    expect(missing.retryable).toBe(false);
  });
});

describe('parseTelegramUpdate', () => {
  const channel = { id: 1, tenantId: 2 };
  const download = async () => ({ buffer: Buffer.from('') });

  it('normalises text, quoted replies, voice, sticker, location and contact; skips edited messages and bots', () => {
    const text = parseTelegramUpdate(
      telegramUpdate({
        chatId: 10,
        firstName: 'Ana',
        lastName: 'Lima',
        messageId: 5,
        message: { text: 'oi', reply_to_message: { message_id: 3 } },
      }),
      channel,
      download,
    );
    expect(text).toMatchObject({
      providerMessageId: '10:5',
      from: { kind: 'telegram', externalId: '10', name: 'Ana Lima' },
      isGroup: false,
      type: 'chat',
      body: 'oi',
      quotedProviderMessageId: '10:3',
    });
    const voice = parseTelegramUpdate(
      telegramUpdate({ chatId: 10, message: { voice: { file_id: 'v1', mime_type: 'audio/ogg' } } }),
      channel,
      download,
    );
    expect(voice).toMatchObject({ type: 'audio', media: { providerMediaId: 'v1', mimeType: 'audio/ogg' } });
    expect(
      parseTelegramUpdate(telegramUpdate({ chatId: 10, message: { sticker: { file_id: 's', emoji: '😀' } } }), channel, download),
    ).toMatchObject({
      type: 'sticker',
      media: { mimeType: 'image/webp' },
    });
    expect(
      parseTelegramUpdate(
        telegramUpdate({ chatId: 10, message: { location: { latitude: -23.5, longitude: -46.6 } } }),
        channel,
        download,
      ),
    ).toMatchObject({ type: 'location', location: { latitude: -23.5, longitude: -46.6 } });
    expect(
      parseTelegramUpdate(
        telegramUpdate({ chatId: 10, message: { contact: { phone_number: '+5511999990000', first_name: 'Bia' } } }),
        channel,
        download,
      ),
    ).toMatchObject({ type: 'contactCard', body: 'Bia: +5511999990000' });
    const edited = telegramUpdate({ chatId: 10 });
    expect(parseTelegramUpdate({ update_id: 1, edited_message: edited.message }, channel, download)).toBeNull();
    const fromBot = telegramUpdate({ chatId: 10 });
    (fromBot.message.from as { is_bot: boolean }).is_bot = true;
    expect(parseTelegramUpdate(fromBot, channel, download)).toBeNull();
  });

  it('checks the secret header in constant time', () => {
    expect(isValidTelegramSecret('abc', 'abc')).toBe(true);
    expect(isValidTelegramSecret('abd', 'abc')).toBe(false);
    expect(isValidTelegramSecret(undefined, 'abc')).toBe(false);
    expect(isValidTelegramSecret('abc', '')).toBe(false);
  });
});
