import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import type { AdapterContext } from '../adapter-context';
import {
  ChannelSendError,
  type ChannelAdapter,
  type ChannelRecord,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SendResult,
  type SessionStatus,
} from '../channel-adapter';
import { beforeTheSend } from '../provider-http';
import { HubClient } from './hub-client';

/** Limits checked before calling. */
export const HUB_TEXT_MAX = 4096;
export const HUB_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

export interface HubSettings {
  /** The hub's id of the channel (the number or page the hub connects). */
  channel: string;
  token: string;
  /** Random per-channel secret the hub sends back on each webhook call. */
  webhookSecret: string;
}

/** A fresh webhook secret (generated when a hub channel is created: `initialSecrets`). */
export function newHubWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

export function hubSettingsOf(record: Pick<ChannelRecord, 'providerConfig' | 'secrets'>): HubSettings {
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const settings: HubSettings = {
    channel: str(record.providerConfig.hubChannelId),
    token: str(record.secrets.hubToken),
    webhookSecret: str(record.secrets.hubWebhookSecret),
  };
  const fields = [
    ...(settings.channel ? [] : [{ path: 'hubChannelId', message: 'não configurado' }]),
    ...(settings.token ? [] : [{ path: 'hubToken', message: 'não configurado' }]),
  ];
  if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
  return settings;
}

export interface HubAdapterOptions {
  baseUrl: string;
  publicUrl: string;
  timeoutMs: number;
}

interface HubChannelInfo {
  id?: string;
  name?: string;
  type?: string;
  status?: string;
  number?: string;
}

interface HubSent {
  id?: string;
  timestamp?: string | number;
}

const unsupported = (message: string) => new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', { message });

/** Unix seconds of an ISO date or a number of seconds / milliseconds. */
export function hubSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && value > 0) return value > 1e12 ? Math.floor(value / 1000) : Math.floor(value);
  if (typeof value === 'string' && value) {
    const n = Number(value);
    if (Number.isFinite(n) && n > 0) return hubSeconds(n);
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return undefined;
}

/**
 * The notification hub channel (hub-client.ts documents the protocol). "Connecting" reads the
 * hub channel with the token (ACTIVE: CONNECTED, its number or name as the channel number) and
 * registers our webhook (PUBLIC_URL/webhooks/hub/:channelId with the channel's random secret);
 * inbound messages and delivery statuses arrive there (hub-webhook.ts). Text and files only.
 */
export class HubAdapter implements ChannelAdapter {
  readonly type = 'hub' as const;
  private state: SessionStatus;
  readonly settings: HubSettings;
  readonly api: HubClient;
  private readonly logger: Logger;

  constructor(
    private readonly ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>,
    private readonly opts: HubAdapterOptions,
  ) {
    this.settings = hubSettingsOf(ctx.record);
    this.state = ctx.record.status;
    this.logger = ctx.logger;
    this.api = new HubClient({
      baseUrl: opts.baseUrl,
      token: this.settings.token,
      channel: this.settings.channel,
      timeoutMs: opts.timeoutMs,
    });
  }

  status(): SessionStatus {
    return this.state;
  }

  webhookUrl(): string {
    return `${this.opts.publicUrl.replace(/\/+$/, '')}/webhooks/hub/${this.ctx.record.id}`;
  }

  /** The hub answers for this channel with this token. */
  async checkProvider(): Promise<void> {
    await this.api.call<HubChannelInfo>('GET', '');
  }

  async connect(): Promise<void> {
    this.state = await this.ctx.setStatus('OPENING', { reason: null });
    try {
      const info = await this.api.call<HubChannelInfo>('GET', '');
      if (info?.status && info.status.toUpperCase() !== 'ACTIVE') {
        throw new ChannelSendError(`Hub: o canal ${this.settings.channel} está ${info.status.toLowerCase()} no hub`, false);
      }
      if (!this.settings.webhookSecret) throw new ChannelSendError('segredo do webhook não configurado', false);
      await this.api.call('PUT', '/webhook', { json: { url: this.webhookUrl(), secret: this.settings.webhookSecret } });
      const number = (info?.number ?? '').replace(/\D/g, '') || info?.name || this.settings.channel;
      this.state = await this.ctx.setStatus('CONNECTED', { reason: null, number });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ channelId: this.ctx.record.id, reason }, 'hub channel check failed');
      this.state = await this.ctx.setStatus('DISCONNECTED', { reason });
    }
  }

  /** Ends the session: the hub stops posting to us (best effort). */
  async disconnect(): Promise<void> {
    await this.removeWebhook();
    this.state = await this.ctx.setStatus('DISCONNECTED', { reason: null });
  }

  async destroy(): Promise<void> {
    await this.removeWebhook();
  }

  async removeWebhook(): Promise<void> {
    await this.api.call('DELETE', '/webhook').catch((err: unknown) => {
      this.logger.warn({ channelId: this.ctx.record.id, reason: (err as Error).message }, 'hub webhook removal failed');
    });
  }

  async sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!text.trim() || text.length > HUB_TEXT_MAX) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: `de 1 a ${HUB_TEXT_MAX} caracteres` }] });
    }
    return this.send(target, [{ type: 'text', text }], opts);
  }

  /** Uploads the file to the hub (POST /files), then sends it by the URL the hub gives. */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    if (bytes.length > HUB_MEDIA_MAX_BYTES) throw new ChannelSendError('Hub: arquivo maior que 100 MB', false);
    const form = new FormData();
    form.set('file', new Blob([bytes], { type: media.mimeType }), media.fileName);
    const uploaded = await beforeTheSend(this.api.call<{ fileId?: string; fileUrl?: string }>('POST', '/files', { form }));
    if (!uploaded?.fileUrl) throw new ChannelSendError('Hub: upload de arquivo sem fileUrl', true);
    return this.send(
      target,
      [
        {
          type: 'file',
          fileUrl: uploaded.fileUrl,
          fileMimeType: media.mimeType,
          fileName: media.fileName,
          ...(media.caption ? { fileCaption: media.caption } : {}),
        },
      ],
      opts,
    );
  }

  async sendButtons(): Promise<SendResult> {
    throw unsupported('O hub de notificações não envia botões nesta integração; envie um texto.');
  }

  async sendTemplate(): Promise<SendResult> {
    throw unsupported('O hub de notificações não envia modelos de mensagem (templates) nesta integração.');
  }

  async sendReaction(): Promise<SendResult> {
    throw unsupported('O hub de notificações não permite reagir a mensagens.');
  }

  async editMessage(): Promise<SendResult> {
    throw unsupported('O hub de notificações não permite editar mensagens enviadas.');
  }

  async deleteMessage(): Promise<void> {
    throw unsupported('O hub de notificações não permite apagar mensagens enviadas.');
  }

  /** Inbound file bytes by the URL in the webhook. */
  async downloadFile(fileUrl: string): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const { buffer, contentType } = await this.api.download(fileUrl, HUB_MEDIA_MAX_BYTES);
    return { buffer, mimeType: contentType };
  }

  private async send(target: OutboundTarget, contents: Record<string, unknown>[], opts?: SendOptions): Promise<SendResult> {
    const sent = await this.api.call<HubSent>('POST', '/messages', {
      json: {
        to: target.to,
        contents,
        ...(opts?.quotedProviderMessageId ? { replyTo: opts.quotedProviderMessageId } : {}),
      },
    });
    // Accepted without an id should not happen; retrying could duplicate it, so it is final.
    if (!sent?.id) throw new ChannelSendError('Hub: envio aceito sem id de mensagem', false);
    return { providerMessageId: String(sent.id), timestamp: hubSeconds(sent.timestamp) ?? Math.floor(Date.now() / 1000) };
  }
}
