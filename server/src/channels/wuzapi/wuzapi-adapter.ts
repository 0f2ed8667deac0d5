import { readFile } from 'node:fs/promises';
import type { AdapterContext } from '../adapter-context';
import {
  ChannelSendError,
  type ChannelRecord,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SendResult,
} from '../channel-adapter';
import { GatewayAdapter, sentResult, type GatewayAdapterOptions, type GatewaySession } from '../gateway/gateway-adapter';
import { bytesOfBase64, dataUrl } from '../gateway/gateway-http';
import { digitsOfJid, field, jidOf, num, str, type WaMediaKind } from '../gateway/wa-message';
import { outboundMediaKind } from '../media-types';
import { WuzapiClient } from './wuzapi-client';

export const WUZAPI_SECRET_KEY = 'wuzapiWebhookSecret';

export function wuzapiSettingsOf(record: Pick<ChannelRecord, 'providerConfig' | 'secrets'>): { baseUrl: string; token: string } {
  return {
    baseUrl: typeof record.providerConfig.wuzapiUrl === 'string' ? record.providerConfig.wuzapiUrl : '',
    token: typeof record.secrets.wuzapiToken === 'string' ? record.secrets.wuzapiToken : '',
  };
}

/** Wuzapi timestamps are Unix seconds, or RFC 3339 text in whatsmeow's event structs. */
export function wuzapiSeconds(value: unknown): number | undefined {
  const n = num(value);
  if (n !== undefined) return n > 1e12 ? Math.floor(n / 1000) : n;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms) && ms > 0) return Math.floor(ms / 1000);
  }
  return undefined;
}

/**
 * The Wuzapi channel. The channel's token is one Wuzapi user (one WhatsApp session), created by
 * the Wuzapi administrator: connect registers our webhook, starts the connection and publishes
 * the QR code (a PNG data URL: Wuzapi gives no QR text). Wuzapi users can only be deleted with
 * the gateway's admin token, which we do not hold: deleting the channel logs the phone out and
 * removes our webhook. Session flow: GatewayAdapter. Inbound: wuzapi-webhook.ts.
 */
export class WuzapiAdapter extends GatewayAdapter {
  readonly type = 'wuzapi' as const;
  protected readonly label = 'Wuzapi';
  protected readonly secretKey = WUZAPI_SECRET_KEY;
  readonly api: WuzapiClient;

  constructor(ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>, opts: GatewayAdapterOptions) {
    super(ctx, opts);
    const settings = wuzapiSettingsOf(ctx.record);
    this.api = new WuzapiClient({ ...settings, timeoutMs: opts.timeoutMs });
  }

  protected async startSession(webhookUrl: string): Promise<GatewaySession> {
    await this.api.setWebhook(webhookUrl);
    await this.api.connect();
    return this.readSession();
  }

  protected async readSession(): Promise<GatewaySession> {
    const status = await this.api.status();
    if (status.loggedIn) return { connected: true, number: digitsOfJid(status.jid) || null };
    // Right after connecting the QR code may not exist yet: the next poll (or the QR webhook) brings it.
    const qr = await this.api.qr().catch((err: unknown) => {
      if (err instanceof ChannelSendError && err.retryable) throw err;
      return null;
    });
    return { connected: false, qr };
  }

  protected async logoutSession(): Promise<void> {
    await this.api.logout().catch(async (err: unknown) => {
      // Not logged in (still pairing): closing the connection is what is left to do.
      if (err instanceof ChannelSendError && err.retryable) throw err;
      await this.api.disconnect();
    });
  }

  protected override async stopPairing(): Promise<void> {
    await this.api.disconnect();
  }

  protected async removeSession(): Promise<void> {
    await this.logoutSession().catch((err: unknown) => this.warn('logout', err));
    await this.api.removeWebhook();
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.send('/chat/send/text', { Phone: this.phone(target), Body: text, ...this.context(opts) });
  }

  /**
   * The file as a data URL: image (JPEG/PNG), video (MP4), voice note (Ogg/Opus, or any audio
   * asked to go as recorded audio), anything else as a document.
   */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    const kind = outboundMediaKind(media.mimeType);
    const data = dataUrl(media.mimeType, bytes);
    const caption = media.caption ? { Caption: media.caption } : {};
    const base = { Phone: this.phone(target), ...this.context(opts) };
    const ogg = /^audio\/(ogg|opus)/i.test(media.mimeType);
    if (kind === 'image') return this.send('/chat/send/image', { ...base, Image: data, ...caption });
    if (kind === 'video') return this.send('/chat/send/video', { ...base, Video: data, ...caption });
    if (kind === 'audio' && (ogg || media.sendAsVoice)) return this.send('/chat/send/audio', { ...base, Audio: data });
    return this.send('/chat/send/document', { ...base, Document: dataUrl('application/octet-stream', bytes), FileName: media.fileName, ...caption });
  }

  /** /chat/react; the id of a customer's message as is (Wuzapi's `me:` prefix marks our own). */
  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    await this.api.send('/chat/react', { Phone: this.phone(target), Body: emoji, Id: providerMessageId });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  /** Inbound media: Wuzapi decrypts it from the message's media fields. */
  async downloadMedia(kind: WaMediaKind, node: unknown): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const answer = await this.api.download(kind === 'sticker' ? 'image' : kind, {
      Url: str(field(node, 'url')),
      DirectPath: str(field(node, 'directPath')),
      MediaKey: field(node, 'mediaKey'),
      Mimetype: str(field(node, 'mimetype')),
      FileEncSHA256: field(node, 'fileEncSHA256'),
      FileSHA256: field(node, 'fileSHA256'),
      FileLength: num(field(node, 'fileLength')),
    });
    if (!answer.Data) throw new ChannelSendError('Wuzapi: mídia sem conteúdo', false);
    const { buffer, mimeType } = bytesOfBase64(answer.Data);
    return { buffer, mimeType: answer.Mimetype ?? mimeType };
  }

  /** Digits for a person, the JID for a group. */
  private phone(target: OutboundTarget): string {
    return target.isGroup || target.to.includes('@') ? jidOf(target.to, target.isGroup) : target.to.replace(/\D/g, '');
  }

  private context(opts?: SendOptions): Record<string, unknown> {
    const id = opts?.quotedProviderMessageId;
    return id ? { ContextInfo: { StanzaId: id, Participant: '' } } : {};
  }

  private async send(path: string, body: Record<string, unknown>): Promise<SendResult> {
    const sent = await this.api.send(path, body);
    return sentResult(this.label, str(sent.Id), wuzapiSeconds(sent.Timestamp));
  }
}
