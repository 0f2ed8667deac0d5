import type { ChannelRecord, InboundMessage, InboundMessageType, StatusUpdate } from '../channel-adapter';
import type { MetaChannelType } from './meta-adapter';

/**
 * The Messenger Platform webhook (Messenger `object: 'page'`, Instagram `object: 'instagram'`):
 * `entry[].messaging[]` events normalised into the pipeline's InboundMessage / StatusUpdate. The
 * signature (X-Hub-Signature-256 over the raw body with the app secret) is the same as the
 * Cloud API's and checked with waba-webhook's isValidSignature before this runs.
 */

export interface MetaAttachment {
  type?: string;
  title?: string;
  payload?: {
    url?: string;
    sticker_id?: number;
    title?: string;
    coordinates?: { lat?: number; long?: number };
  } | null;
}

export interface MetaMessagingEvent {
  sender?: { id?: string };
  recipient?: { id?: string };
  /** Milliseconds. */
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    is_deleted?: boolean;
    is_unsupported?: boolean;
    attachments?: MetaAttachment[];
    quick_reply?: { payload?: string };
    reply_to?: { mid?: string; story?: { id?: string; url?: string } };
  };
  /** Messenger: the messages in `mids` (or every message up to `watermark`, ms) reached the person. */
  delivery?: { mids?: string[]; watermark?: number };
  /** Messenger: every message up to `watermark` (ms) was read; Instagram: the message `mid` was seen. */
  read?: { watermark?: number; mid?: string };
  reaction?: { mid?: string; action?: 'react' | 'unreact'; reaction?: string; emoji?: string };
  postback?: { mid?: string; title?: string; payload?: string };
}

export interface MetaWebhookPayload {
  object?: string;
  entry?: { id?: string; time?: number; messaging?: MetaMessagingEvent[] }[];
}

/** A receipt without message ids (Messenger watermarks): resolved against our sent messages. */
export interface MetaWatermark {
  senderId: string;
  status: 'delivered' | 'read';
  /** Unix seconds: every message we sent to `senderId` up to this moment. */
  upTo: number;
}

export interface ParsedMetaWebhook {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  watermarks: MetaWatermark[];
  /** Entries of another account, echoes and events of an unknown shape. */
  skipped: number;
}

export interface MetaAccountIds {
  pageId: string;
  instagramBusinessId: string;
}

type UrlDownloader = (url: string) => Promise<{ buffer: Buffer }>;

const OBJECT_BY_TYPE: Record<MetaChannelType, string> = { messenger: 'page', instagram: 'instagram' };

const seconds = (ms: number | undefined) =>
  typeof ms === 'number' && ms > 0 ? Math.floor(ms / 1000) : Math.floor(Date.now() / 1000);

/** Heart names Meta uses for Instagram reactions, as emoji. */
const REACTION_EMOJI: Record<string, string> = { love: '❤️', like: '👍', haha: '😆', wow: '😮', sad: '😢', angry: '😠' };

/**
 * Normalises one webhook. Only entries of this channel's account count: the page for
 * Messenger, the Instagram account (or its page) for Instagram; an app subscribed for several
 * pages posts all of them to each callback.
 */
export function parseMetaWebhook(
  payload: MetaWebhookPayload,
  channel: Pick<ChannelRecord, 'id' | 'tenantId'> & { type: MetaChannelType },
  account: MetaAccountIds,
  download: UrlDownloader,
): ParsedMetaWebhook {
  const result: ParsedMetaWebhook = { messages: [], statuses: [], watermarks: [], skipped: 0 };
  const ours = new Set([account.pageId, account.instagramBusinessId].filter(Boolean));
  const entries = Array.isArray(payload?.entry) ? payload.entry : [];
  if (payload?.object !== OBJECT_BY_TYPE[channel.type]) {
    result.skipped += Math.max(entries.length, 1);
    return result;
  }
  const kind = channel.type;
  for (const entry of entries) {
    const entryOurs =
      channel.type === 'messenger' ? entry?.id === account.pageId : typeof entry?.id === 'string' && ours.has(entry.id);
    if (!entryOurs || !Array.isArray(entry.messaging)) {
      result.skipped++;
      continue;
    }
    for (const event of entry.messaging) {
      const sender = event?.sender?.id;
      // Our own account as sender: an echo of what the page sent (here or in Meta's inbox).
      if (!sender || ours.has(sender) || event.message?.is_echo) {
        result.skipped++;
        continue;
      }
      const timestamp = seconds(event.timestamp);
      const status = (providerMessageId: string, s: 'delivered' | 'read'): StatusUpdate => ({
        channelId: channel.id,
        tenantId: channel.tenantId,
        providerMessageId,
        status: s,
        timestamp,
      });
      if (event.delivery) {
        const mids = (event.delivery.mids ?? []).filter((m) => typeof m === 'string' && m);
        for (const mid of mids) result.statuses.push(status(mid, 'delivered'));
        if (mids.length === 0 && event.delivery.watermark)
          result.watermarks.push({ senderId: sender, status: 'delivered', upTo: seconds(event.delivery.watermark) });
        continue;
      }
      if (event.read) {
        if (event.read.mid) result.statuses.push(status(event.read.mid, 'read'));
        else if (event.read.watermark)
          result.watermarks.push({ senderId: sender, status: 'read', upTo: seconds(event.read.watermark) });
        else result.skipped++;
        continue;
      }
      const base = {
        channelId: channel.id,
        tenantId: channel.tenantId,
        from: { kind, externalId: sender },
        isGroup: false,
        timestamp,
      };
      if (event.reaction) {
        const r = event.reaction;
        if (!r.mid) {
          result.skipped++;
          continue;
        }
        const emoji = r.action === 'unreact' ? '' : r.emoji || REACTION_EMOJI[r.reaction ?? ''] || r.reaction || '';
        result.messages.push({
          ...base,
          providerMessageId: `reaction:${r.mid}:${sender}:${event.timestamp ?? timestamp}`,
          type: 'reaction',
          body: emoji,
          reaction: { targetProviderMessageId: r.mid, emoji },
          raw: event,
        });
        continue;
      }
      if (event.postback) {
        const p = event.postback;
        result.messages.push({
          ...base,
          providerMessageId: p.mid || `postback:${sender}:${event.timestamp ?? timestamp}`,
          type: 'button',
          body: p.title || p.payload || '',
          raw: event,
        });
        continue;
      }
      const m = event.message;
      if (!m?.mid || m.is_deleted) {
        result.skipped++;
        continue;
      }
      const withMessage = {
        ...base,
        ...(m.reply_to?.mid ? { quotedProviderMessageId: m.reply_to.mid } : {}),
        raw: event,
      };
      const attachments = Array.isArray(m.attachments) ? m.attachments : [];
      if (attachments.length === 0) {
        if (m.is_unsupported || typeof m.text !== 'string') {
          result.messages.push({ ...withMessage, providerMessageId: m.mid, type: 'unsupported', body: m.text ?? '' });
        } else {
          result.messages.push({
            ...withMessage,
            providerMessageId: m.mid,
            type: m.quick_reply ? 'button' : 'chat',
            body: m.text,
          });
        }
        continue;
      }
      // One stored message per attachment: the first keeps the mid (replies and receipts name
      // it), the others `<mid>:<n>`; the text, when any, goes with the first.
      attachments.forEach((att, i) => {
        const providerMessageId = i === 0 ? m.mid! : `${m.mid}:${i}`;
        const body = i === 0 ? (m.text ?? '') : '';
        result.messages.push({ ...withMessage, providerMessageId, ...attachmentContent(att, body, download) });
      });
    }
  }
  return result;
}

const MEDIA_TYPES: Record<string, { type: InboundMessageType; mimeType?: string }> = {
  image: { type: 'image' },
  video: { type: 'video' },
  audio: { type: 'audio' },
  file: { type: 'document' },
};

function attachmentContent(
  att: MetaAttachment,
  body: string,
  download: UrlDownloader,
): Pick<InboundMessage, 'type' | 'body' | 'media' | 'location'> {
  const url = att?.payload?.url;
  const media = MEDIA_TYPES[att?.type ?? ''];
  if (media && url) {
    const sticker = att.type === 'image' && att.payload?.sticker_id !== undefined;
    return {
      type: sticker ? 'sticker' : media.type,
      body,
      media: {
        ...(mimeTypeOf(url, att.type!) ? { mimeType: mimeTypeOf(url, att.type!) } : {}),
        fileName: fileNameOf(url),
        download: async () => (await download(url)).buffer,
      },
    };
  }
  const coords = att?.payload?.coordinates;
  if (att?.type === 'location' && typeof coords?.lat === 'number' && typeof coords.long === 'number') {
    const name = att.title || att.payload?.title;
    return {
      type: 'location',
      body: name || `${coords.lat},${coords.long}`,
      location: { latitude: coords.lat, longitude: coords.long, ...(name ? { name } : {}) },
    };
  }
  // Shares, story mentions, reels, templates: kept so the agent sees something arrived, with
  // its link when there is one.
  return { type: 'unsupported', body: [body, att?.title, url].filter(Boolean).join('\n') };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  txt: 'text/plain',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
/** Meta's CDN serves images as JPEG, voice clips as MP4 audio, videos as MP4 when the URL says nothing. */
const MIME_BY_TYPE: Record<string, string> = { image: 'image/jpeg', audio: 'audio/mp4', video: 'video/mp4' };

function mimeTypeOf(url: string, type: string): string | undefined {
  const ext = fileNameOf(url)?.split('.').pop()?.toLowerCase();
  const byExtension = ext ? MIME_BY_EXTENSION[ext] : undefined;
  // Voice clips come as .mp4 files: audio all the same.
  if (type === 'audio' && byExtension?.startsWith('video/')) return 'audio/mp4';
  return byExtension || MIME_BY_TYPE[type];
}

/** The file name in a CDN URL's path, when it has an extension (`.../123_abc.jpg?...`). */
function fileNameOf(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return /\.[A-Za-z0-9]{1,5}$/.test(last) ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}
