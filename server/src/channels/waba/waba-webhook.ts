import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelRecord, InboundMessage, InboundMessageType, StatusUpdate } from '../channel-adapter';

/**
 * The Cloud API webhook: Meta's signature over the raw body, and the payload
 * (entry[].changes[].value) normalised into the pipeline's InboundMessage / StatusUpdate.
 */

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`, compared in constant time. */
export function isValidSignature(rawBody: string | Buffer | undefined, header: string | undefined, appSecret: string): boolean {
  if (rawBody === undefined || !header || !appSecret) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Constant-time comparison of two secrets of any length (the verify token). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

interface WabaMediaObject {
  id?: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
}

interface WabaInboundMessage {
  id?: string;
  from?: string;
  timestamp?: string;
  type?: string;
  context?: { id?: string; from?: string };
  text?: { body?: string };
  image?: WabaMediaObject;
  audio?: WabaMediaObject;
  video?: WabaMediaObject;
  document?: WabaMediaObject;
  sticker?: WabaMediaObject;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string }[] }[];
  reaction?: { message_id?: string; emoji?: string };
  button?: { text?: string; payload?: string };
  interactive?: { type?: string; button_reply?: { id?: string; title?: string }; list_reply?: { id?: string; title?: string } };
}

interface WabaStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

interface WabaChangeValue {
  metadata?: { phone_number_id?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: WabaInboundMessage[];
  statuses?: WabaStatus[];
}

export interface WabaWebhookPayload {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WabaChangeValue }[] }[];
}

export interface ParsedWebhook {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** Changes for another phone number or of an unknown shape, skipped. */
  skipped: number;
}

type MediaDownloader = (mediaId: string) => Promise<{ buffer: Buffer }>;

const MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker'] as const;
const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * Normalises one webhook. Only `messages` changes of this channel's phone number count (a Meta
 * app subscribed for several numbers posts all of them to each callback).
 */
export function parseWabaWebhook(
  payload: WabaWebhookPayload,
  channel: Pick<ChannelRecord, 'id' | 'tenantId'>,
  phoneNumberId: string,
  download: MediaDownloader,
): ParsedWebhook {
  const result: ParsedWebhook = { messages: [], statuses: [], skipped: 0 };
  for (const entry of Array.isArray(payload?.entry) ? payload.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (change?.field !== 'messages' || !value || value.metadata?.phone_number_id !== phoneNumberId) {
        result.skipped++;
        continue;
      }
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
      for (const m of value.messages ?? []) {
        const normalised = normaliseMessage(m, names, channel, download);
        if (normalised) result.messages.push(normalised);
        else result.skipped++;
      }
      for (const s of value.statuses ?? []) {
        const status = STATUSES.find((x) => x === s.status);
        if (!s.id || !status) {
          result.skipped++;
          continue;
        }
        const error = s.errors?.[0];
        result.statuses.push({
          channelId: channel.id,
          tenantId: channel.tenantId,
          providerMessageId: s.id,
          status,
          timestamp: Number(s.timestamp) || Math.floor(Date.now() / 1000),
          ...(error
            ? {
                error: [error.code !== undefined ? `#${error.code}` : '', error.title ?? error.message, error.error_data?.details]
                  .filter(Boolean)
                  .join(' '),
              }
            : {}),
        });
      }
    }
  }
  return result;
}

function normaliseMessage(
  m: WabaInboundMessage,
  names: Map<string | undefined, string | undefined>,
  channel: Pick<ChannelRecord, 'id' | 'tenantId'>,
  download: MediaDownloader,
): InboundMessage | null {
  if (!m?.id || !m.from) return null;
  const from = String(m.from);
  const base = {
    channelId: channel.id,
    tenantId: channel.tenantId,
    providerMessageId: m.id,
    from: { kind: 'wa' as const, externalId: from, phone: from.replace(/\D/g, ''), name: names.get(from) || undefined },
    isGroup: false,
    timestamp: Number(m.timestamp) || Math.floor(Date.now() / 1000),
    ...(m.context?.id ? { quotedProviderMessageId: m.context.id } : {}),
    raw: m,
  };
  const mediaKind = MEDIA_TYPES.find((k) => k === m.type);
  if (mediaKind) {
    const media = m[mediaKind] ?? {};
    const mediaId = media.id;
    return {
      ...base,
      type: mediaKind,
      body: media.caption ?? '',
      media: {
        providerMediaId: mediaId,
        mimeType: media.mime_type?.split(';')[0].trim(),
        fileName: media.filename,
        download: async () => {
          if (!mediaId) throw new Error('webhook sem id de mídia');
          return (await download(mediaId)).buffer;
        },
      },
    };
  }
  switch (m.type) {
    case 'text':
      return { ...base, type: 'chat', body: m.text?.body ?? '' };
    case 'reaction':
      if (!m.reaction?.message_id) return null;
      return {
        ...base,
        type: 'reaction',
        body: m.reaction.emoji ?? '',
        reaction: { targetProviderMessageId: m.reaction.message_id, emoji: m.reaction.emoji ?? '' },
      };
    case 'location': {
      const { latitude, longitude, name, address } = m.location ?? {};
      if (typeof latitude !== 'number' || typeof longitude !== 'number') return { ...base, type: 'location', body: '' };
      return {
        ...base,
        type: 'location',
        body: [name, address].filter(Boolean).join(' - ') || `${latitude},${longitude}`,
        location: { latitude, longitude, ...(name ? { name } : {}) },
      };
    }
    case 'contacts':
      return {
        ...base,
        type: 'contactCard',
        body: (m.contacts ?? [])
          .map((c) => [c.name?.formatted_name, ...(c.phones ?? []).map((p) => p.phone)].filter(Boolean).join(': '))
          .join('\n'),
      };
    case 'button':
      return { ...base, type: 'button', body: m.button?.text ?? m.button?.payload ?? '' };
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return { ...base, type: 'interactive', body: reply?.title ?? reply?.id ?? '' };
    }
    default:
      // Kept, not dropped: the agent sees that something arrived the console cannot show.
      return { ...base, type: 'unsupported' as InboundMessageType, body: '' };
  }
}
