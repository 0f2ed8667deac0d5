import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelRecord, InboundMessage, StatusUpdate } from '../channel-adapter';
import { hubSeconds } from './hub-adapter';

/**
 * The hub webhook (our protocol, see hub-client.ts): the per-channel secret check and events
 * normalised into InboundMessage / StatusUpdate. The body is one event or an array of events:
 *   {type: 'MESSAGE', channel, direction: 'IN'|'OUT', message: {id, from, to, timestamp,
 *    visitor?: {name?, picture?}, contents: [...], replyTo?}}
 *   {type: 'MESSAGE_STATUS', channel, messageId, status: {code: 'SENT'|'DELIVERED'|'READ'|
 *    'REJECTED'|'NOT_DELIVERED', description?, timestamp?}}
 * Contents: {type:'text', text}, {type:'file', fileUrl, fileMimeType, fileName?, fileCaption?},
 * {type:'location', latitude, longitude, name?, address?}; anything else is kept as unsupported.
 */

/** Constant-time comparison of the secret the hub sent with the channel's. */
export function isValidHubSecret(given: string | undefined, expected: string): boolean {
  if (!given || !expected) return false;
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export interface HubContent {
  type?: string;
  text?: string;
  fileUrl?: string;
  fileMimeType?: string;
  fileName?: string;
  fileCaption?: string;
  latitude?: number;
  longitude?: number;
  name?: string;
  address?: string;
}

export interface HubEvent {
  type?: string;
  id?: string;
  channel?: string;
  direction?: string;
  message?: {
    id?: string;
    from?: string;
    to?: string;
    direction?: string;
    timestamp?: string | number;
    visitor?: { name?: string; firstName?: string; lastName?: string; picture?: string };
    contents?: HubContent[];
    replyTo?: string;
  };
  messageId?: string;
  status?: { code?: string; description?: string; timestamp?: string | number };
}

export interface ParsedHubWebhook {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** Outgoing echoes, events of another hub channel or of an unknown shape. */
  skipped: number;
}

type FileDownloader = (fileUrl: string) => Promise<{ buffer: Buffer }>;

const STATUS_BY_CODE: Record<string, StatusUpdate['status']> = {
  SENT: 'sent',
  DELIVERED: 'delivered',
  READ: 'read',
  REJECTED: 'failed',
  NOT_DELIVERED: 'failed',
  FAILED: 'failed',
};

function mediaTypeOf(mime: string | undefined): InboundMessage['type'] {
  const type = (mime ?? '').toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  return 'document';
}

export function parseHubWebhook(
  body: HubEvent | HubEvent[] | undefined,
  channel: Pick<ChannelRecord, 'id' | 'tenantId'>,
  hubChannelId: string,
  download: FileDownloader,
): ParsedHubWebhook {
  const result: ParsedHubWebhook = { messages: [], statuses: [], skipped: 0 };
  const events = Array.isArray(body) ? body : body ? [body] : [];
  for (const event of events) {
    // A hub token can serve several hub channels: only this one's events count.
    if (!event || typeof event !== 'object' || (event.channel !== undefined && String(event.channel) !== hubChannelId)) {
      result.skipped++;
      continue;
    }
    if (event.type === 'MESSAGE_STATUS') {
      const status = STATUS_BY_CODE[String(event.status?.code ?? '').toUpperCase()];
      if (!event.messageId || !status) {
        result.skipped++;
        continue;
      }
      result.statuses.push({
        channelId: channel.id,
        tenantId: channel.tenantId,
        providerMessageId: String(event.messageId),
        status,
        timestamp: hubSeconds(event.status?.timestamp) ?? Math.floor(Date.now() / 1000),
        ...(status === 'failed' ? { error: `Hub: ${event.status?.description || event.status?.code}` } : {}),
      });
      continue;
    }
    const m = event.message;
    const direction = String(event.direction ?? m?.direction ?? 'IN').toUpperCase();
    if (event.type !== 'MESSAGE' || direction !== 'IN' || !m?.id || !m.from) {
      result.skipped++;
      continue;
    }
    const from = String(m.from);
    const digits = from.replace(/^\+/, '');
    const visitorName =
      m.visitor?.name?.trim() || [m.visitor?.firstName, m.visitor?.lastName].filter(Boolean).join(' ').trim() || undefined;
    const base = {
      channelId: channel.id,
      tenantId: channel.tenantId,
      from: {
        kind: 'hub' as const,
        externalId: from,
        // A WhatsApp-type hub channel addresses people by number: the contact is found by it too.
        ...(/^\d{10,15}$/.test(digits) ? { phone: digits } : {}),
        ...(visitorName ? { name: visitorName } : {}),
        ...(m.visitor?.picture ? { profilePicUrl: m.visitor.picture } : {}),
      },
      isGroup: false,
      timestamp: hubSeconds(m.timestamp) ?? Math.floor(Date.now() / 1000),
      ...(m.replyTo ? { quotedProviderMessageId: String(m.replyTo) } : {}),
      raw: event,
    };
    const contents = Array.isArray(m.contents) ? m.contents : [];
    if (contents.length === 0) {
      result.messages.push({ ...base, providerMessageId: String(m.id), type: 'unsupported', body: '' });
      continue;
    }
    // One stored message per content: the first keeps the id, the others `<id>:<n>`.
    contents.forEach((c, i) => {
      const providerMessageId = i === 0 ? String(m.id) : `${m.id}:${i}`;
      if (c?.type === 'text' && typeof c.text === 'string') {
        result.messages.push({ ...base, providerMessageId, type: 'chat', body: c.text });
      } else if (c?.type === 'file' && c.fileUrl) {
        const fileUrl = c.fileUrl;
        result.messages.push({
          ...base,
          providerMessageId,
          type: mediaTypeOf(c.fileMimeType),
          body: c.fileCaption ?? '',
          media: {
            ...(c.fileMimeType ? { mimeType: c.fileMimeType.split(';')[0].trim() } : {}),
            ...(c.fileName ? { fileName: c.fileName } : {}),
            download: async () => (await download(fileUrl)).buffer,
          },
        });
      } else if (c?.type === 'location' && typeof c.latitude === 'number' && typeof c.longitude === 'number') {
        result.messages.push({
          ...base,
          providerMessageId,
          type: 'location',
          body: [c.name, c.address].filter(Boolean).join(' - ') || `${c.latitude},${c.longitude}`,
          location: { latitude: c.latitude, longitude: c.longitude, ...(c.name ? { name: c.name } : {}) },
        });
      } else {
        result.messages.push({ ...base, providerMessageId, type: 'unsupported', body: c?.text ?? '' });
      }
    });
  }
  return result;
}
