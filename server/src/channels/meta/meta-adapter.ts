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
import { beforeTheSend } from '../provider-http';
import { downloadUrl, META_GRAPH_API_VERSION, MetaGraphClient } from './meta-graph-client';

export type MetaChannelType = 'instagram' | 'messenger';

/** Send API limits checked before calling. */
export const MESSENGER_TEXT_MAX = 2000;
/** Instagram counts UTF-8 bytes. */
export const INSTAGRAM_TEXT_MAX_BYTES = 1000;
export const META_QUICK_REPLIES_MAX = 13;
export const META_QUICK_REPLY_TITLE_MAX = 20;
export const META_QUICK_REPLY_PAYLOAD_MAX = 1000;
/** Largest attachment the Messenger Platform carries (25 MB), both ways. */
export const META_MEDIA_MAX_BYTES = 25 * 1024 * 1024;
/**
 * Page webhook fields subscribed on connect. The same set for both types: an Instagram and a
 * Messenger channel often share one page and app, and each POST replaces the page's set.
 */
export const META_SUBSCRIBED_FIELDS = 'messages,messaging_postbacks,message_deliveries,message_reads,message_reactions';
const PROFILE_CACHE_MAX = 5000;
const PROFILE_TTL_MS = 6 * 3600_000;
/** A profile lookup runs while Meta waits for the webhook's answer: it gets a short deadline. */
const PROFILE_TIMEOUT_MS = 3000;

export interface MetaSettings {
  /** Facebook page the channel sends as (both types: Instagram messaging goes through its page). */
  pageId: string;
  /** Instagram professional account linked to the page (instagram only). */
  instagramBusinessId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  apiVersion: string;
}

/** The meta fields of a channel row (providerConfig + secrets), or ERR_VALIDATION naming the missing ones. */
export function metaSettingsOf(record: Pick<ChannelRecord, 'type' | 'providerConfig' | 'secrets'>): MetaSettings {
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const options = record.providerConfig.options as Record<string, unknown> | undefined;
  const version = str(options?.graphApiVersion);
  const settings: MetaSettings = {
    pageId: str(record.providerConfig.fbPageId),
    instagramBusinessId: str(record.providerConfig.instagramBusinessId),
    accessToken: str(record.secrets.fbPageAccessToken),
    appSecret: str(record.secrets.fbAppSecret),
    verifyToken: str(record.secrets.fbVerifyToken),
    // Advanced option {"graphApiVersion": "v22.0"}; the tested version otherwise.
    apiVersion: /^v\d{1,3}\.\d{1,2}$/.test(version) ? version : META_GRAPH_API_VERSION,
  };
  const required: (keyof MetaSettings)[] = ['pageId', 'accessToken', 'appSecret', 'verifyToken'];
  if (record.type === 'instagram') required.push('instagramBusinessId');
  const names: Record<string, string> = {
    pageId: 'fbPageId',
    instagramBusinessId: 'instagramBusinessId',
    accessToken: 'fbPageAccessToken',
    appSecret: 'fbAppSecret',
    verifyToken: 'fbVerifyToken',
  };
  const missing = required.filter((k) => !settings[k]);
  if (missing.length > 0) {
    throw new AppError('ERR_VALIDATION', { fields: missing.map((k) => ({ path: names[k], message: 'não configurado' })) });
  }
  return settings;
}

export interface MetaAdapterOptions {
  baseUrl: string;
  timeoutMs: number;
}

interface SendAnswer {
  recipient_id?: string;
  message_id?: string;
}

type AttachmentType = 'image' | 'video' | 'audio' | 'file';

/** Messenger Platform attachment type of a file (anything not image, video or audio goes as a file). */
export function metaAttachmentType(mimeType: string): AttachmentType {
  const type = mimeType.toLowerCase().split(';')[0].trim();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  return 'file';
}

const unsupported = (message: string) => new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', { message });

/**
 * Instagram and Messenger channels: the Messenger Platform's Send API through the Facebook page
 * (`POST /{page-id}/messages` with the page access token). Stateless at Meta: "connecting" reads
 * the page (messenger) or the Instagram account (instagram) with the token and subscribes the
 * app to the page's messaging webhooks; inbound arrives on the signed webhook (meta-webhook.ts).
 * Sends are replies within Meta's 24-hour window (`messaging_type: RESPONSE`).
 */
export class MetaAdapter implements ChannelAdapter {
  readonly type: MetaChannelType;
  private state: SessionStatus;
  readonly settings: MetaSettings;
  readonly graph: MetaGraphClient;
  private readonly logger: Logger;
  private readonly profiles = new Map<string, { name: string | null; picture: string | null; at: number }>();

  constructor(
    private readonly ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>,
    private readonly opts: MetaAdapterOptions,
  ) {
    if (ctx.record.type !== 'instagram' && ctx.record.type !== 'messenger') {
      throw new Error(`MetaAdapter cannot serve ${ctx.record.type} channels`);
    }
    this.type = ctx.record.type;
    this.settings = metaSettingsOf(ctx.record);
    this.state = ctx.record.status;
    this.logger = ctx.logger;
    this.graph = new MetaGraphClient({
      baseUrl: opts.baseUrl,
      apiVersion: this.settings.apiVersion,
      accessToken: this.settings.accessToken,
      timeoutMs: opts.timeoutMs,
    });
  }

  status(): SessionStatus {
    return this.state;
  }

  private get label(): string {
    return this.type === 'instagram' ? 'Instagram' : 'Messenger';
  }

  /** The page answers with this token (Graph is reachable and the token works). */
  async checkProvider(): Promise<void> {
    await this.graph.call('GET', `/${encodeURIComponent(this.settings.pageId)}`, undefined, { fields: 'id' });
  }

  /**
   * Reads the page (messenger: its name becomes the channel number) or the Instagram account
   * (its username), then subscribes the app to the page's messaging webhooks. CONNECTED, else
   * DISCONNECTED with Graph's reason.
   */
  async connect(): Promise<void> {
    this.state = await this.ctx.setStatus('OPENING', { reason: null });
    try {
      let number: string;
      if (this.type === 'instagram') {
        const account = await this.graph.call<{ id?: string; username?: string; name?: string }>(
          'GET',
          `/${encodeURIComponent(this.settings.instagramBusinessId)}`,
          undefined,
          { fields: 'id,username,name' },
        );
        number = account.username || account.name || this.settings.instagramBusinessId;
      } else {
        const page = await this.graph.call<{ id?: string; name?: string }>(
          'GET',
          `/${encodeURIComponent(this.settings.pageId)}`,
          undefined,
          { fields: 'id,name' },
        );
        number = page.name || this.settings.pageId;
      }
      const subscribed = await this.graph.call<{ success?: boolean }>(
        'POST',
        `/${encodeURIComponent(this.settings.pageId)}/subscribed_apps`,
        undefined,
        { subscribed_fields: META_SUBSCRIBED_FIELDS },
      );
      if (subscribed.success === false)
        throw new ChannelSendError('Graph API: a página não aceitou a inscrição no webhook', false);
      this.state = await this.ctx.setStatus('CONNECTED', { reason: null, number });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ channelId: this.ctx.record.id, type: this.type, reason }, 'meta credentials check failed');
      this.state = await this.ctx.setStatus('DISCONNECTED', { reason });
    }
  }

  /**
   * Nothing to close at Meta. The page subscription is left alone (also when the channel is
   * deleted): another channel (the page's Instagram or Messenger) may use it.
   */
  async disconnect(): Promise<void> {
    this.state = await this.ctx.setStatus('DISCONNECTED', { reason: null });
  }

  async sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    this.checkText(text, 'body');
    return this.sendMessage(target, { text, ...this.replyTo(opts) });
  }

  /**
   * Uploads the file (Attachment Upload API, `POST /{page-id}/message_attachments`, multipart
   * `filedata`; `platform=instagram` for Instagram), then sends it by `attachment_id`. The
   * platform has no captions: a caption follows as a text message (best effort: the media,
   * whose id is recorded, is what counts; a lost caption is logged).
   */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    if (bytes.length > META_MEDIA_MAX_BYTES) {
      throw new ChannelSendError(`${this.label}: arquivo maior que ${META_MEDIA_MAX_BYTES / 1024 / 1024} MB`, false);
    }
    const type = metaAttachmentType(media.mimeType);
    const form = new FormData();
    form.set('message', JSON.stringify({ attachment: { type, payload: { is_reusable: false } } }));
    if (this.type === 'instagram') form.set('platform', 'instagram');
    form.set('filedata', new Blob([bytes], { type: media.mimeType }), media.fileName);
    const uploaded = await beforeTheSend(
      this.graph.call<{ attachment_id?: string }>('POST', `/${encodeURIComponent(this.settings.pageId)}/message_attachments`, { form }),
    );
    if (!uploaded.attachment_id) throw new ChannelSendError('Graph API: upload de anexo sem attachment_id', true);
    const result = await this.sendMessage(target, {
      attachment: { type, payload: { attachment_id: uploaded.attachment_id } },
      ...this.replyTo(opts),
    });
    const caption = media.caption?.trim();
    if (caption) {
      await this.sendMessage(target, { text: this.fitText(caption) }).catch((err: unknown) => {
        this.logger.warn(
          { channelId: this.ctx.record.id, reason: (err as Error).message },
          'meta caption (sent after the attachment) failed',
        );
      });
    }
    return result;
  }

  /** Quick replies: 1 to 13 buttons, titles up to 20 characters; the payload is the button id. */
  async sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult> {
    const fields: { path: string; message: string }[] = [];
    const bodyProblem = this.textProblem(body);
    if (bodyProblem) fields.push({ path: 'body', message: bodyProblem });
    if (buttons.length < 1 || buttons.length > META_QUICK_REPLIES_MAX)
      fields.push({ path: 'buttons', message: `de 1 a ${META_QUICK_REPLIES_MAX} botões` });
    buttons.forEach((b, i) => {
      if (!b.title.trim() || b.title.length > META_QUICK_REPLY_TITLE_MAX)
        fields.push({ path: `buttons.${i}.title`, message: `de 1 a ${META_QUICK_REPLY_TITLE_MAX} caracteres` });
      if (!b.id || b.id.length > META_QUICK_REPLY_PAYLOAD_MAX)
        fields.push({ path: `buttons.${i}.id`, message: `de 1 a ${META_QUICK_REPLY_PAYLOAD_MAX} caracteres` });
    });
    if (new Set(buttons.map((b) => b.id)).size !== buttons.length)
      fields.push({ path: 'buttons', message: 'os valores dos botões devem ser diferentes' });
    if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
    return this.sendMessage(target, {
      text: body,
      quick_replies: buttons.map((b) => ({ content_type: 'text', title: b.title, payload: b.id })),
      ...this.replyTo(opts),
    });
  }

  async sendTemplate(): Promise<SendResult> {
    throw unsupported(`O ${this.label} não tem modelos de mensagem (templates) nesta integração; envie um texto.`);
  }

  /**
   * Instagram only, and only ❤️ (the one reaction the platform sends: `sender_action: react`,
   * `reaction: love`); an empty emoji removes it. Messenger pages cannot react.
   */
  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    if (this.type !== 'instagram') throw unsupported('O Messenger não permite que a página reaja a mensagens.');
    const removing = emoji === '';
    if (!removing && emoji.replace(/\uFE0F/g, '') !== '\u2764') {
      throw unsupported('O Instagram só aceita a reação ❤️.');
    }
    await this.graph.call<SendAnswer>('POST', `/${encodeURIComponent(this.settings.pageId)}/messages`, {
      json: {
        recipient: { id: target.to },
        sender_action: removing ? 'unreact' : 'react',
        payload: removing ? { message_id: providerMessageId } : { message_id: providerMessageId, reaction: 'love' },
      },
    });
    return { providerMessageId, timestamp: Math.floor(Date.now() / 1000) };
  }

  async editMessage(): Promise<SendResult> {
    throw unsupported(`O ${this.label} não permite editar mensagens enviadas.`);
  }

  async deleteMessage(): Promise<void> {
    throw unsupported(`O ${this.label} não permite apagar mensagens enviadas por esta integração.`);
  }

  /**
   * The sender's display name (and picture), best effort: Messenger `GET /{psid}?fields=
   * first_name,last_name,profile_pic`, Instagram `GET /{igsid}?fields=name,username,profile_pic`.
   * Cached; any failure answers nulls (the contact is then named after its id).
   */
  async profile(senderId: string): Promise<{ name: string | null; picture: string | null }> {
    const cached = this.profiles.get(senderId);
    if (cached && Date.now() - cached.at < PROFILE_TTL_MS) return cached;
    let found: { name: string | null; picture: string | null } = { name: null, picture: null };
    try {
      if (this.type === 'instagram') {
        const p = await this.graph.call<{ name?: string; username?: string; profile_pic?: string }>(
          'GET',
          `/${encodeURIComponent(senderId)}`,
          undefined,
          { fields: 'name,username,profile_pic' },
          Math.min(this.opts.timeoutMs, PROFILE_TIMEOUT_MS),
        );
        found = { name: p.name?.trim() || p.username?.trim() || null, picture: p.profile_pic ?? null };
      } else {
        const p = await this.graph.call<{ first_name?: string; last_name?: string; name?: string; profile_pic?: string }>(
          'GET',
          `/${encodeURIComponent(senderId)}`,
          undefined,
          { fields: 'first_name,last_name,profile_pic' },
          Math.min(this.opts.timeoutMs, PROFILE_TIMEOUT_MS),
        );
        const name = [p.first_name, p.last_name].filter(Boolean).join(' ').trim() || p.name?.trim();
        found = { name: name || null, picture: p.profile_pic ?? null };
      }
    } catch (err) {
      this.logger.debug({ channelId: this.ctx.record.id, reason: (err as Error).message }, 'meta profile lookup failed');
      return found;
    }
    if (this.profiles.size >= PROFILE_CACHE_MAX) this.profiles.clear();
    this.profiles.set(senderId, { ...found, at: Date.now() });
    return found;
  }

  /** Inbound attachment bytes from the URL in the webhook (Meta's CDN; no token sent). */
  async downloadAttachment(url: string): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const { buffer, contentType } = await downloadUrl(url, META_MEDIA_MAX_BYTES, this.opts.timeoutMs, this.label);
    return { buffer, mimeType: contentType };
  }

  private textProblem(text: string): string | null {
    const tooLong =
      this.type === 'instagram' ? Buffer.byteLength(text) > INSTAGRAM_TEXT_MAX_BYTES : text.length > MESSENGER_TEXT_MAX;
    if (text.trim() && !tooLong) return null;
    return `de 1 a ${this.type === 'instagram' ? `${INSTAGRAM_TEXT_MAX_BYTES} bytes` : `${MESSENGER_TEXT_MAX} caracteres`}`;
  }

  private checkText(text: string, path: string): void {
    const problem = this.textProblem(text);
    if (problem) throw new AppError('ERR_VALIDATION', { fields: [{ path, message: problem }] });
  }

  /** A caption cut to the platform's limit (it is sent on its own, after the media). */
  private fitText(text: string): string {
    if (this.type === 'messenger') return text.slice(0, MESSENGER_TEXT_MAX);
    let out = text;
    while (Buffer.byteLength(out) > INSTAGRAM_TEXT_MAX_BYTES) out = out.slice(0, -1);
    return out;
  }

  private replyTo(opts?: SendOptions): Record<string, unknown> {
    return opts?.quotedProviderMessageId ? { reply_to: { mid: opts.quotedProviderMessageId } } : {};
  }

  private async sendMessage(target: OutboundTarget, message: Record<string, unknown>): Promise<SendResult> {
    const answer = await this.graph.call<SendAnswer>('POST', `/${encodeURIComponent(this.settings.pageId)}/messages`, {
      json: { recipient: { id: target.to }, messaging_type: 'RESPONSE', message },
    });
    // Accepted without an id should not happen; retrying could duplicate the message, so it is final.
    if (!answer.message_id) throw new ChannelSendError('Graph API: envio aceito sem message_id', false);
    return { providerMessageId: answer.message_id, timestamp: Math.floor(Date.now() / 1000) };
  }
}
