import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import type { AdapterContext } from '../adapter-context';
import {
  ChannelSendError,
  type ChannelAdapter,
  type ChannelRecord,
  type InteractiveButton,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SendResult,
  type SessionStatus,
} from '../channel-adapter';
import { outboundMediaKind } from '../media-types';
import { BotApiClient } from './bot-api-client';

/** Bot API limits checked before calling. */
export const TELEGRAM_TEXT_MAX = 4096;
export const TELEGRAM_CALLBACK_DATA_MAX = 64;
/** Bot API downloads are limited to 20 MB (getFile). */
export const TELEGRAM_DOWNLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** Updates the webhook asks for: edited_message and callback_query (inline button presses) are not handled by the inbound pipeline yet, so Telegram is not asked to send them. */
export const TELEGRAM_ALLOWED_UPDATES = ['message'];

export interface TelegramSettings {
  token: string;
  /** Random per-channel secret Telegram echoes in X-Telegram-Bot-Api-Secret-Token. */
  webhookSecret: string;
}

/** A fresh webhook secret: 1-256 characters of A-Z a-z 0-9 _ - (Bot API rule). */
export function newTelegramWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

export function telegramSettingsOf(record: Pick<ChannelRecord, 'secrets'>): TelegramSettings {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const settings = { token: str(record.secrets.tokenTelegram), webhookSecret: str(record.secrets.telegramWebhookSecret) };
  if (!settings.token) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: 'tokenTelegram', message: 'É necessário informar o token para o Telegram.' }],
    });
  }
  return settings;
}

/**
 * Provider message ids are `<chat id>:<message id>`: Telegram's message_id is only unique within
 * a chat, while the pipeline deduplicates per channel.
 */
export function telegramProviderId(chatId: number | string, messageId: number | string): string {
  return `${chatId}:${messageId}`;
}

/** The numeric message_id of a provider id (also accepts a bare number). */
export function telegramMessageIdOf(providerMessageId: string): number {
  const id = Number(providerMessageId.slice(providerMessageId.lastIndexOf(':') + 1));
  if (!Number.isInteger(id) || id <= 0) {
    throw new ChannelSendError(`Telegram: id de mensagem inválido (${providerMessageId})`, false);
  }
  return id;
}

interface TgSentMessage {
  message_id: number;
  date?: number;
  chat?: { id: number };
}

export interface TelegramAdapterOptions {
  baseUrl: string;
  publicUrl: string;
  timeoutMs?: number;
}

const MEDIA_METHODS = {
  image: { method: 'sendPhoto', field: 'photo' },
  video: { method: 'sendVideo', field: 'video' },
  audio: { method: 'sendAudio', field: 'audio' },
  voice: { method: 'sendVoice', field: 'voice' },
  document: { method: 'sendDocument', field: 'document' },
} as const;

/**
 * The Telegram Bot API channel. "Connecting" means getMe (the token works; the bot's username
 * becomes the channel number) and setWebhook to PUBLIC_URL/webhooks/telegram/:channelId with the
 * channel's secret; inbound arrives on that webhook (telegram-webhook.ts). Long polling is not
 * implemented. Telegram has no delivery or read receipts: an accepted send is 'sent' and stays so.
 */
export class TelegramAdapter implements ChannelAdapter {
  readonly type = 'telegram' as const;
  private state: SessionStatus;
  private readonly settings: TelegramSettings;
  readonly api: BotApiClient;
  private readonly logger: Logger;

  constructor(
    private readonly ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>,
    private readonly opts: TelegramAdapterOptions,
  ) {
    this.settings = telegramSettingsOf(ctx.record);
    this.state = ctx.record.status;
    this.logger = ctx.logger;
    this.api = new BotApiClient({ baseUrl: opts.baseUrl, token: this.settings.token, timeoutMs: opts.timeoutMs });
  }

  status(): SessionStatus {
    return this.state;
  }

  webhookUrl(): string {
    return `${this.opts.publicUrl.replace(/\/+$/, '')}/webhooks/telegram/${this.ctx.record.id}`;
  }

  /** getMe answers with this token (the Bot API is reachable and the token works). */
  async checkProvider(): Promise<void> {
    await this.api.call('getMe');
  }

  async connect(): Promise<void> {
    this.state = await this.ctx.setStatus('OPENING', { reason: null });
    try {
      const me = await this.api.call<{ id: number; username?: string; is_bot?: boolean }>('getMe');
      if (!this.settings.webhookSecret) throw new ChannelSendError('segredo do webhook não configurado', false);
      await this.api.call<boolean>('setWebhook', {
        url: this.webhookUrl(),
        secret_token: this.settings.webhookSecret,
        allowed_updates: TELEGRAM_ALLOWED_UPDATES,
      });
      this.state = await this.ctx.setStatus('CONNECTED', { reason: null, number: me.username ?? String(me.id) });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ channelId: this.ctx.record.id, reason }, 'telegram bot check failed');
      this.state = await this.ctx.setStatus('DISCONNECTED', { reason });
    }
  }

  /** Ends the session: the webhook is removed (best effort) so Telegram stops posting. */
  async disconnect(): Promise<void> {
    await this.removeWebhook();
    this.state = await this.ctx.setStatus('DISCONNECTED', { reason: null });
  }

  /** The channel was deleted: Telegram stops posting to it (best effort). */
  async destroy(): Promise<void> {
    await this.removeWebhook();
  }

  /** deleteWebhook, best effort (also when the channel is deleted); never throws. */
  async removeWebhook(): Promise<void> {
    await this.api.call('deleteWebhook', {}).catch((err) => {
      this.logger.warn({ channelId: this.ctx.record.id, reason: (err as Error).message }, 'telegram deleteWebhook failed');
    });
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!text.trim() || text.length > TELEGRAM_TEXT_MAX) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: `de 1 a ${TELEGRAM_TEXT_MAX} caracteres` }] });
    }
    return this.send(target, 'sendMessage', { text, ...this.reply(opts) });
  }

  /** Multipart upload of the stored file with sendPhoto / sendVideo / sendAudio / sendVoice / sendDocument. */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    const kind = outboundMediaKind(media.mimeType);
    const { method, field } = MEDIA_METHODS[kind === 'audio' && media.sendAsVoice ? 'voice' : kind];
    const form = new FormData();
    form.set('chat_id', target.to);
    if (media.caption) form.set('caption', media.caption);
    const quoted = opts?.quotedProviderMessageId;
    if (quoted) {
      form.set('reply_to_message_id', String(telegramMessageIdOf(quoted)));
      form.set('allow_sending_without_reply', 'true');
    }
    form.set(field, new Blob([bytes], { type: media.mimeType }), media.fileName);
    return this.result(target, await this.api.call<TgSentMessage>(method, form));
  }

  /** sendMessage with an inline keyboard, one button per row; callback_data is the button id. */
  async sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult> {
    const fields: { path: string; message: string }[] = [];
    if (!body.trim() || body.length > TELEGRAM_TEXT_MAX)
      fields.push({ path: 'body', message: `de 1 a ${TELEGRAM_TEXT_MAX} caracteres` });
    if (buttons.length < 1) fields.push({ path: 'buttons', message: 'ao menos 1 botão' });
    buttons.forEach((b, i) => {
      if (!b.title.trim()) fields.push({ path: `buttons.${i}.title`, message: 'é obrigatório' });
      if (!b.id || Buffer.byteLength(b.id) > TELEGRAM_CALLBACK_DATA_MAX)
        fields.push({ path: `buttons.${i}.id`, message: `de 1 a ${TELEGRAM_CALLBACK_DATA_MAX} bytes` });
    });
    if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
    return this.send(target, 'sendMessage', {
      text: body,
      reply_markup: { inline_keyboard: buttons.map((b) => [{ text: b.title, callback_data: b.id }]) },
      ...this.reply(opts),
    });
  }

  async sendTemplate(): Promise<SendResult> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: 'O Telegram não tem modelos de mensagem (templates); envie um texto.',
    });
  }

  /** setMessageReaction; an empty emoji removes the bot's reaction. */
  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    await this.api.call<boolean>('setMessageReaction', {
      chat_id: target.to,
      message_id: telegramMessageIdOf(providerMessageId),
      reaction: emoji ? [{ type: 'emoji', emoji }] : [],
    });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  async editMessage(target: OutboundTarget, providerMessageId: string, text: string): Promise<SendResult> {
    await this.api.call<TgSentMessage | boolean>('editMessageText', {
      chat_id: target.to,
      message_id: telegramMessageIdOf(providerMessageId),
      text,
    });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  async deleteMessage(target: OutboundTarget, providerMessageId: string): Promise<void> {
    await this.api.call<boolean>('deleteMessage', { chat_id: target.to, message_id: telegramMessageIdOf(providerMessageId) });
  }

  /** Inbound media: getFile for the file_path, then the bytes from the file endpoint. */
  async downloadFile(fileId: string): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const file = await this.api.call<{ file_path?: string }>('getFile', { file_id: fileId });
    if (!file.file_path) throw new ChannelSendError('Telegram: arquivo sem file_path (maior que 20 MB?)', false);
    const { buffer, contentType } = await this.api.downloadFile(file.file_path, TELEGRAM_DOWNLOAD_MAX_BYTES);
    return { buffer, mimeType: contentType };
  }

  private reply(opts?: SendOptions): Record<string, unknown> {
    const quoted = opts?.quotedProviderMessageId;
    return quoted ? { reply_to_message_id: telegramMessageIdOf(quoted), allow_sending_without_reply: true } : {};
  }

  private async send(target: OutboundTarget, method: string, body: Record<string, unknown>): Promise<SendResult> {
    return this.result(target, await this.api.call<TgSentMessage>(method, { chat_id: target.to, ...body }));
  }

  private result(target: OutboundTarget, sent: TgSentMessage): SendResult {
    // Accepted without a message_id should not happen; retrying could duplicate it, so it is final.
    if (!sent || typeof sent.message_id !== 'number') throw new ChannelSendError('Telegram: envio aceito sem message_id', false);
    return {
      providerMessageId: telegramProviderId(sent.chat?.id ?? target.to, sent.message_id),
      timestamp: sent.date ?? Math.floor(Date.now() / 1000),
    };
  }
}
