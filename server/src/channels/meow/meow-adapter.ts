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
import { GATEWAY_DOWNLOAD_MAX_BYTES, GatewayAdapter, sentResult, type GatewayAdapterOptions, type GatewaySession } from '../gateway/gateway-adapter';
import { GatewayHttpClient } from '../gateway/gateway-http';
import { digitsOfJid, jidOf } from '../gateway/wa-message';
import { outboundMediaKind } from '../media-types';

/**
 * Meow: a whatsmeow-based self-hosted gateway, one WhatsApp session per token. Its protocol is
 * MODELLED here (docs/api.md, "Meow gateway protocol"), in the shape of the other gateways; it
 * has not been verified against a real Meow server. `Authorization: Bearer <meowToken>`; errors
 * `{error: {code, message}}`.
 *
 *   GET    /v1/session          {state: 'logged_out'|'connecting'|'qr'|'connected', qr, pairingCode, jid}
 *   POST   /v1/session/start    {webhookUrl, pairingNumber?} -> the session, as above
 *   POST   /v1/session/logout   {state: 'logged_out'}
 *   DELETE /v1/session          the session and its device keys are removed
 *   POST   /v1/messages         {to, text} | {to, media: {type, base64, mimeType, fileName, caption?, voice?}}, replyTo? -> {id, timestamp}
 *   POST   /v1/messages/{id}/reactions {to, emoji} -> {id}
 *   GET    /v1/media/{messageId} the bytes of an inbound message's media
 * Webhooks (POST to the URL given at start): {event, data}: session.qr {qr, pairingCode},
 * session.connected {jid}, session.logged_out {reason}, session.disconnected {reason},
 * message {...}, receipt {ids, status} (meow-webhook.ts).
 */

export const MEOW_SECRET_KEY = 'meowWebhookSecret';

export interface MeowSession {
  state?: 'logged_out' | 'connecting' | 'qr' | 'connected';
  qr?: string | null;
  pairingCode?: string | null;
  jid?: string | null;
}

export function meowSettingsOf(record: Pick<ChannelRecord, 'providerConfig' | 'secrets'>): { baseUrl: string; token: string; pairingNumber?: string } {
  const options = (record.providerConfig.options ?? {}) as Record<string, unknown>;
  const pairing = typeof options.pairingNumber === 'string' ? options.pairingNumber.replace(/\D/g, '') : '';
  return {
    baseUrl: typeof record.providerConfig.meowUrl === 'string' ? record.providerConfig.meowUrl : '',
    token: typeof record.secrets.meowToken === 'string' ? record.secrets.meowToken : '',
    ...(pairing ? { pairingNumber: pairing } : {}),
  };
}

export class MeowAdapter extends GatewayAdapter {
  readonly type = 'meow' as const;
  protected readonly label = 'Meow';
  protected readonly secretKey = MEOW_SECRET_KEY;
  readonly http: GatewayHttpClient;
  private readonly pairingNumber?: string;

  constructor(ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>, opts: GatewayAdapterOptions) {
    super(ctx, opts);
    const settings = meowSettingsOf(ctx.record);
    this.pairingNumber = settings.pairingNumber;
    this.http = new GatewayHttpClient({
      baseUrl: settings.baseUrl,
      headers: { authorization: `Bearer ${settings.token}` },
      timeoutMs: opts.timeoutMs,
      label: 'Meow',
    });
  }

  protected async startSession(webhookUrl: string): Promise<GatewaySession> {
    const session = await this.http.request<MeowSession>('POST', '/v1/session/start', {
      webhookUrl,
      ...(this.pairingNumber ? { pairingNumber: this.pairingNumber } : {}),
    });
    return sessionOf(session);
  }

  protected async readSession(): Promise<GatewaySession> {
    return sessionOf(await this.http.request<MeowSession>('GET', '/v1/session'));
  }

  protected async logoutSession(): Promise<void> {
    await this.http.request('POST', '/v1/session/logout');
  }

  protected async removeSession(): Promise<void> {
    await this.http.request('DELETE', '/v1/session').catch((err: unknown) => {
      if (err instanceof ChannelSendError && err.providerStatus === 404) return;
      throw err;
    });
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.send({ to: this.to(target), text, ...this.reply(opts) });
  }

  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    return this.send({
      to: this.to(target),
      media: {
        type: outboundMediaKind(media.mimeType),
        base64: bytes.toString('base64'),
        mimeType: media.mimeType,
        fileName: media.fileName,
        ...(media.caption ? { caption: media.caption } : {}),
        ...(media.sendAsVoice ? { voice: true } : {}),
      },
      ...this.reply(opts),
    });
  }

  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    await this.http.request('POST', `/v1/messages/${encodeURIComponent(providerMessageId)}/reactions`, { to: this.to(target), emoji });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  async downloadMedia(messageId: string): Promise<Buffer> {
    return (await this.http.download(`/v1/media/${encodeURIComponent(messageId)}`, GATEWAY_DOWNLOAD_MAX_BYTES)).buffer;
  }

  private to(target: OutboundTarget): string {
    return target.isGroup || target.to.includes('@') ? jidOf(target.to, target.isGroup) : target.to.replace(/\D/g, '');
  }

  private reply(opts?: SendOptions): Record<string, unknown> {
    return opts?.quotedProviderMessageId ? { replyTo: opts.quotedProviderMessageId } : {};
  }

  private async send(body: Record<string, unknown>): Promise<SendResult> {
    const sent = await this.http.request<{ id?: string; timestamp?: number }>('POST', '/v1/messages', body);
    return sentResult(this.label, sent?.id, sent?.timestamp);
  }
}

function sessionOf(s: MeowSession | undefined): GatewaySession {
  if (s?.state === 'connected') return { connected: true, number: digitsOfJid(s.jid) || null };
  return { connected: false, qr: s?.qr ?? null, pairingCode: s?.pairingCode ?? null };
}
