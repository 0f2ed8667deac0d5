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
import { bytesOfBase64 } from '../gateway/gateway-http';
import { digitsOfJid, jidOf, num } from '../gateway/wa-message';
import { outboundMediaKind } from '../media-types';
import { EvolutionClient, evolutionVersionProblem, type EvolutionQr, type EvolutionSent } from './evolution-client';

export const EVOLUTION_SECRET_KEY = 'evolutionWebhookSecret';

export interface EvolutionSettings {
  baseUrl: string;
  apiKey: string;
  instance: string;
  /** providerConfig.options.pairingNumber: log in with a pairing code instead of the QR code. */
  pairingNumber?: string;
  /** providerConfig.options.instance: extra /instance/create settings (rejectCall, groupsIgnore ...). */
  instanceOptions: Record<string, unknown>;
}

export function evolutionSettingsOf(record: Pick<ChannelRecord, 'name' | 'providerConfig' | 'secrets'>): EvolutionSettings {
  const options = (record.providerConfig.options ?? {}) as Record<string, unknown>;
  const pairing = typeof options.pairingNumber === 'string' ? options.pairingNumber.replace(/\D/g, '') : '';
  const instanceOptions = options.instance && typeof options.instance === 'object' ? (options.instance as Record<string, unknown>) : {};
  return {
    baseUrl: typeof record.providerConfig.evolutionUrl === 'string' ? record.providerConfig.evolutionUrl : '',
    apiKey: typeof record.secrets.evolutionApiKey === 'string' ? record.secrets.evolutionApiKey : '',
    instance: record.name,
    ...(pairing ? { pairingNumber: pairing } : {}),
    instanceOptions,
  };
}

/** The QR payload we publish: the text to encode when given, else Evolution's PNG data URL. */
function qrOf(qr: EvolutionQr | undefined): { qr: string | null; pairingCode: string | null } {
  return { qr: qr?.code || qr?.base64 || null, pairingCode: qr?.pairingCode || null };
}

/**
 * The Evolution API channel ('evo'). The instance is created on first connect (its name is the
 * channel's name, locked after creation), the server's version is checked first (2.20.0 or
 * later, spec section 5), and our webhook is registered with the channel's secret in its URL.
 * Session flow, polling and timeouts: GatewayAdapter. Inbound: evolution-webhook.ts.
 */
export class EvolutionAdapter extends GatewayAdapter {
  readonly type = 'evo' as const;
  protected readonly label = 'Evolution API';
  protected readonly secretKey = EVOLUTION_SECRET_KEY;
  readonly settings: EvolutionSettings;
  readonly api: EvolutionClient;

  constructor(ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>, opts: GatewayAdapterOptions) {
    super(ctx, opts);
    this.settings = evolutionSettingsOf(ctx.record);
    this.api = new EvolutionClient({ baseUrl: this.settings.baseUrl, apiKey: this.settings.apiKey, timeoutMs: opts.timeoutMs });
  }

  protected async startSession(webhookUrl: string): Promise<GatewaySession> {
    const { instance } = this.settings;
    const problem = evolutionVersionProblem(await this.api.version());
    if (problem) throw new ChannelSendError(problem, false);
    let state = await this.api.connectionState(instance);
    let created: EvolutionQr | undefined;
    if (state === null) {
      created = (await this.api.create(instance, this.settings.instanceOptions))?.qrcode;
      state = 'connecting';
    }
    await this.api.setWebhook(instance, webhookUrl);
    if (state === 'open') return { connected: true, number: await this.number() };
    const fromCreate = qrOf(created);
    if (fromCreate.qr) return { connected: false, ...fromCreate };
    return this.qrNow();
  }

  protected async readSession(): Promise<GatewaySession> {
    const state = await this.api.connectionState(this.settings.instance);
    if (state === 'open') return { connected: true, number: await this.number() };
    if (state === null) throw new ChannelSendError(`Evolution API: a instância "${this.settings.instance}" não existe mais`, false);
    return this.qrNow();
  }

  /** The current QR code (GET /instance/connect answers the same code while it is valid). */
  private async qrNow(): Promise<GatewaySession> {
    const answer = await this.api.connect(this.settings.instance, this.settings.pairingNumber);
    if (answer?.instance?.state === 'open') return { connected: true, number: await this.number() };
    return { connected: false, ...qrOf(answer) };
  }

  private async number(): Promise<string | null> {
    const jid = await this.api.ownerJid(this.settings.instance).catch(() => null);
    return digitsOfJid(jid) || null;
  }

  protected async logoutSession(): Promise<void> {
    await this.api.logout(this.settings.instance);
  }

  /** DELETE /instance/delete (Evolution logs a connected instance out first); an instance already gone is fine. */
  protected async removeSession(): Promise<void> {
    await this.api.delete(this.settings.instance).catch((err: unknown) => {
      if (err instanceof ChannelSendError && err.providerStatus === 404) return;
      throw err;
    });
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.send('sendText', { number: this.number_(target), text, ...this.quoted(opts) });
  }

  /** sendMedia with the file as base64 (image, video, document, audio); a voice note goes by sendWhatsAppAudio. */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const base64 = (await readFile(media.path)).toString('base64');
    const kind = outboundMediaKind(media.mimeType);
    if (kind === 'audio' && media.sendAsVoice) {
      return this.send('sendWhatsAppAudio', { number: this.number_(target), audio: base64, ...this.quoted(opts) });
    }
    return this.send('sendMedia', {
      number: this.number_(target),
      mediatype: kind,
      mimetype: media.mimeType,
      media: base64,
      fileName: media.fileName,
      ...(media.caption ? { caption: media.caption } : {}),
      ...this.quoted(opts),
    });
  }

  /**
   * Reactions address the target by its key; the console reacts to the customer's messages, so
   * `fromMe` is false (a reaction to one of our own messages needs `fromMe: true`: not known here).
   */
  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    const sent = await this.api.send(this.settings.instance, 'sendReaction', {
      key: { remoteJid: jidOf(target.to, target.isGroup), fromMe: false, id: providerMessageId },
      reaction: emoji,
    });
    return { providerMessageId: sent?.key?.id ?? providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  /** Our own sent message, edited (WhatsApp allows it for 15 minutes). */
  override async editMessage(target: OutboundTarget, providerMessageId: string, text: string): Promise<SendResult> {
    await this.api.updateMessage(this.settings.instance, {
      number: this.number_(target),
      key: { remoteJid: jidOf(target.to, target.isGroup), fromMe: true, id: providerMessageId },
      text,
    });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  override async deleteMessage(target: OutboundTarget, providerMessageId: string): Promise<void> {
    await this.api.deleteForEveryone(this.settings.instance, {
      id: providerMessageId,
      remoteJid: jidOf(target.to, target.isGroup),
      fromMe: true,
    });
  }

  /** Inbound media by reference: the bytes Evolution decrypts for a stored message id. */
  async downloadMedia(messageId: string): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const answer = await this.api.mediaOf(this.settings.instance, messageId);
    if (!answer?.base64) throw new ChannelSendError('Evolution API: mídia sem conteúdo (base64)', false);
    const { buffer, mimeType } = bytesOfBase64(answer.base64);
    return { buffer, mimeType: answer.mimetype ?? mimeType };
  }

  /** Evolution takes digits for a person and the JID for a group. */
  private number_(target: OutboundTarget): string {
    return target.isGroup || target.to.includes('@') ? jidOf(target.to, target.isGroup) : target.to.replace(/\D/g, '');
  }

  private quoted(opts?: SendOptions): Record<string, unknown> {
    const id = opts?.quotedProviderMessageId;
    return id ? { quoted: { key: { id } } } : {};
  }

  private async send(what: 'sendText' | 'sendMedia' | 'sendWhatsAppAudio', body: Record<string, unknown>): Promise<SendResult> {
    const sent: EvolutionSent = await this.api.send(this.settings.instance, what, body);
    return sentResult(this.label, sent?.key?.id, num(sent?.messageTimestamp));
  }
}
