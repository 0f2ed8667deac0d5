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
  type TemplateSend,
} from '../channel-adapter';
import { outboundMediaKind } from '../media-types';
import { beforeTheSend } from '../provider-http';
import { GraphClient } from './graph-client';

/** Cloud API limits the adapter checks before calling (spec section 5 for buttons). */
export const WABA_MAX_BUTTONS = 3;
export const WABA_BUTTON_TITLE_MAX = 20;
export const WABA_BUTTON_ID_MAX = 256;
export const WABA_INTERACTIVE_BODY_MAX = 1024;
/** Largest media the Cloud API carries (documents, 100 MB). */
export const WABA_MEDIA_MAX_BYTES = 100 * 1024 * 1024;
const TEMPLATE_PAGES_MAX = 20;
/** Cloud API refusals of a template send, as the agent reads them. */
const TEMPLATE_REFUSALS: Record<string, string> = {
  '132015': 'Modelo pausado pela Meta.',
  '132016': 'Modelo desativado pela Meta.',
  '132001': 'Modelo não encontrado ou não aprovado.',
  '132000': 'As variáveis enviadas não conferem com as do modelo; sincronize os modelos.',
  '132012': 'O formato das variáveis não confere com o modelo (por exemplo, a mídia do cabeçalho); sincronize os modelos.',
};

/** A media header's parameter: `{type: 'image', image: {link}}`, or video, or document with its file name. */
function headerMediaParameter(media: NonNullable<TemplateSend['headerMedia']>): Record<string, unknown> {
  const type = media.format.toLowerCase();
  return {
    type,
    [type]: { link: media.link, ...(media.format === 'DOCUMENT' && media.filename ? { filename: media.filename } : {}) },
  };
}
/** Free-form message outside the 24-hour customer service window (Cloud API 131047). */
export const WABA_WINDOW_CLOSED_REASON = 'Fora da janela de 24 horas: o cliente não escreve há mais de 24 horas; envie um modelo.';

export interface WabaSettings {
  phoneNumberId: string;
  businessAccountId: string;
  apiVersion: string;
  managerToken: string;
  appSecret: string;
  verifyToken: string;
}

/** The waba fields of a channel row (providerConfig + secrets), or ERR_WABA_INVALID_DATA. */
export function wabaSettingsOf(record: Pick<ChannelRecord, 'providerConfig' | 'secrets'>): WabaSettings {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const settings: WabaSettings = {
    phoneNumberId: str(record.providerConfig.wabaPhoneNumberId),
    businessAccountId: str(record.providerConfig.wabaBusinessAccountId),
    apiVersion: str(record.providerConfig.wabaApiVersion),
    managerToken: str(record.secrets.wabaManagerToken),
    appSecret: str(record.secrets.wabaAppSecret),
    verifyToken: str(record.secrets.wabaVerifyToken),
  };
  const missing = Object.entries(settings).filter(([, v]) => !v);
  if (missing.length > 0) {
    throw new AppError('ERR_WABA_INVALID_DATA', { fields: missing.map(([k]) => ({ path: k, message: 'não configurado' })) });
  }
  return settings;
}

export interface WabaMessageTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  components: { type?: string; text?: string; [key: string]: unknown }[];
}

export interface WabaAdapterOptions {
  baseUrl: string;
  timeoutMs?: number;
}

interface SendAnswer {
  messages?: { id?: string }[];
}

/**
 * The WhatsApp Cloud API channel. Stateless on Meta's side: "connecting" means checking that
 * the token can read the phone number; sends are plain HTTPS calls; inbound arrives on the
 * signed webhook (waba-webhook.ts), never through this object.
 */
export class WabaAdapter implements ChannelAdapter {
  readonly type = 'waba' as const;
  private state: SessionStatus;
  private readonly settings: WabaSettings;
  private readonly graph: GraphClient;
  private readonly logger: Logger;

  constructor(
    private readonly ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>,
    opts: WabaAdapterOptions,
  ) {
    this.settings = wabaSettingsOf(ctx.record);
    this.state = ctx.record.status;
    this.logger = ctx.logger;
    this.graph = new GraphClient({
      baseUrl: opts.baseUrl,
      apiVersion: this.settings.apiVersion,
      accessToken: this.settings.managerToken,
      timeoutMs: opts.timeoutMs,
    });
  }

  status(): SessionStatus {
    return this.state;
  }

  /** Verifies the credentials by reading the phone number; CONNECTED, else DISCONNECTED with Graph's reason. */
  async connect(): Promise<void> {
    this.state = await this.ctx.setStatus('OPENING', { reason: null });
    try {
      const phone = await this.graph.call<{ display_phone_number?: string; verified_name?: string }>(
        'GET',
        `/${this.settings.phoneNumberId}`,
        undefined,
        { fields: 'display_phone_number,verified_name' },
      );
      const digits = (phone.display_phone_number ?? '').replace(/\D/g, '') || null;
      this.state = await this.ctx.setStatus('CONNECTED', { reason: null, number: digits });
    } catch (err) {
      const reason = err instanceof ChannelSendError || err instanceof Error ? err.message : String(err);
      this.logger.warn({ channelId: this.ctx.record.id, reason }, 'waba credentials check failed');
      this.state = await this.ctx.setStatus('DISCONNECTED', { reason });
    }
  }

  /** The phone number answers with this token (the provider is reachable and the token works). */
  async checkProvider(): Promise<void> {
    await this.graph.call('GET', `/${this.settings.phoneNumberId}`, undefined, { fields: 'id' });
  }

  /** Nothing to close on Meta's side; the channel just stops being used. */
  async disconnect(): Promise<void> {
    this.state = await this.ctx.setStatus('DISCONNECTED', { reason: null });
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.sendMessage(target, { type: 'text', text: { preview_url: /https?:\/\//i.test(text), body: text } }, opts);
  }

  /** Uploads the file (POST /{phone-number-id}/media), then sends it by the media id. */
  async sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const bytes = await readFile(media.path);
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', media.mimeType);
    form.set('file', new Blob([bytes], { type: media.mimeType }), media.fileName);
    const uploaded = await beforeTheSend(this.graph.call<{ id?: string }>('POST', `/${this.settings.phoneNumberId}/media`, { form }));
    if (!uploaded.id) throw new ChannelSendError('Graph API: upload de mídia sem id', true);
    const kind = outboundMediaKind(media.mimeType);
    const object: Record<string, unknown> = { id: uploaded.id };
    // Audio cannot carry a caption or a file name on WhatsApp.
    if (media.caption && kind !== 'audio') object.caption = media.caption;
    if (kind === 'document') object.filename = media.fileName;
    return this.sendMessage(target, { type: kind, [kind]: object }, opts);
  }

  /** Interactive reply buttons: 1 to 3 buttons, titles up to 20 characters, distinct ids. */
  async sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult> {
    const fields: { path: string; message: string }[] = [];
    if (!body.trim() || body.length > WABA_INTERACTIVE_BODY_MAX)
      fields.push({ path: 'body', message: `de 1 a ${WABA_INTERACTIVE_BODY_MAX} caracteres` });
    if (buttons.length < 1 || buttons.length > WABA_MAX_BUTTONS)
      fields.push({ path: 'buttons', message: `de 1 a ${WABA_MAX_BUTTONS} botões` });
    buttons.forEach((b, i) => {
      if (!b.title.trim() || b.title.length > WABA_BUTTON_TITLE_MAX)
        fields.push({ path: `buttons.${i}.title`, message: `de 1 a ${WABA_BUTTON_TITLE_MAX} caracteres` });
      if (!b.id || b.id.length > WABA_BUTTON_ID_MAX)
        fields.push({ path: `buttons.${i}.id`, message: `de 1 a ${WABA_BUTTON_ID_MAX} caracteres` });
    });
    if (new Set(buttons.map((b) => b.id)).size !== buttons.length)
      fields.push({ path: 'buttons', message: 'os valores dos botões devem ser diferentes' });
    if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
    return this.sendMessage(
      target,
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: body },
          action: { buttons: buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
        },
      },
      opts,
    );
  }

  /**
   * A template message: header, body and URL-button variables as the Cloud API's components
   * (none without variables). A paused or unknown/unapproved template is a final refusal with
   * its Portuguese reason (132015, 132001).
   */
  async sendTemplate(target: OutboundTarget, template: TemplateSend): Promise<SendResult> {
    const text = (values: string[]) => values.map((value) => ({ type: 'text', text: value }));
    const components: Record<string, unknown>[] = [];
    if (template.headerMedia) components.push({ type: 'header', parameters: [headerMediaParameter(template.headerMedia)] });
    else if (template.header?.length) components.push({ type: 'header', parameters: text(template.header) });
    if (template.variables.length > 0) components.push({ type: 'body', parameters: text(template.variables) });
    for (const b of template.buttons ?? [])
      components.push({ type: 'button', sub_type: 'url', index: String(b.index), parameters: text([b.text]) });
    try {
      return await this.sendMessage(target, {
        type: 'template',
        template: { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) },
      });
    } catch (err) {
      const reason = err instanceof ChannelSendError && err.providerCode ? TEMPLATE_REFUSALS[err.providerCode] : undefined;
      if (!reason || !(err instanceof ChannelSendError)) throw err;
      throw new ChannelSendError(reason, false, err.providerStatus, err.providerCode);
    }
  }

  /** An empty emoji removes the reaction (Cloud API semantics). */
  sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    return this.sendMessage(target, { type: 'reaction', reaction: { message_id: providerMessageId, emoji } });
  }

  async editMessage(): Promise<SendResult> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: 'A API oficial do WhatsApp (WABA) não permite editar mensagens enviadas.',
    });
  }

  async deleteMessage(): Promise<void> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: 'A API oficial do WhatsApp (WABA) não permite apagar mensagens enviadas.',
    });
  }

  /** Message templates of the business account, every page (GET /{waba-id}/message_templates). */
  async listTemplates(): Promise<WabaMessageTemplate[]> {
    type Page = { data?: Record<string, unknown>[]; paging?: { next?: string } };
    const templates: WabaMessageTemplate[] = [];
    let page = await this.graph.call<Page>('GET', `/${this.settings.businessAccountId}/message_templates`, undefined, {
      limit: '100',
      fields: 'id,name,language,status,category,components',
    });
    for (let i = 0; ; i++) {
      for (const t of page.data ?? []) {
        templates.push({
          id: String(t.id ?? ''),
          name: String(t.name ?? ''),
          language: String(t.language ?? ''),
          status: String(t.status ?? ''),
          category: typeof t.category === 'string' ? t.category : null,
          components: Array.isArray(t.components) ? (t.components as WabaMessageTemplate['components']) : [],
        });
      }
      if (!page.paging?.next || i + 1 >= TEMPLATE_PAGES_MAX) break;
      page = await this.graph.getAbsolute<Page>(page.paging.next);
    }
    return templates;
  }

  /** Inbound media: GET /{media-id} for the short-lived URL, then the bytes with the same token. */
  async downloadMedia(mediaId: string): Promise<{ buffer: Buffer; mimeType: string | null }> {
    const info = await this.graph.call<{ url?: string; mime_type?: string }>('GET', `/${encodeURIComponent(mediaId)}`);
    if (!info.url) throw new ChannelSendError('Graph API: mídia sem URL', false);
    const { buffer, contentType } = await this.graph.download(info.url, WABA_MEDIA_MAX_BYTES);
    return { buffer, mimeType: info.mime_type ?? contentType };
  }

  private async sendMessage(target: OutboundTarget, message: Record<string, unknown>, opts?: SendOptions): Promise<SendResult> {
    const answer = await this.graph
      .call<SendAnswer>('POST', `/${this.settings.phoneNumberId}/messages`, {
        json: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: target.to,
          ...(opts?.quotedProviderMessageId ? { context: { message_id: opts.quotedProviderMessageId } } : {}),
          ...message,
        },
      })
      .catch((err: unknown) => {
        // Meta refuses free-form messages outside the 24-hour window: final, the agent must send a template.
        if (err instanceof ChannelSendError && err.providerCode === '131047')
          throw new ChannelSendError(WABA_WINDOW_CLOSED_REASON, false, err.providerStatus, err.providerCode);
        throw err;
      });
    const id = answer.messages?.[0]?.id;
    // Accepted without an id should not happen; retrying could duplicate the message, so it is final.
    if (!id) throw new ChannelSendError('Graph API: envio aceito sem id de mensagem', false);
    return { providerMessageId: id, timestamp: Math.floor(Date.now() / 1000) };
  }
}

/** Adapters that can list message templates (the official API's). */
export function hasTemplates(adapter: ChannelAdapter): adapter is ChannelAdapter & Pick<WabaAdapter, 'listTemplates'> {
  return typeof (adapter as Partial<WabaAdapter>).listTemplates === 'function';
}
