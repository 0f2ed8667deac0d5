import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelRecord, InboundMessage } from '../channel-adapter';
import { telegramProviderId } from './telegram-adapter';

/**
 * The Telegram webhook: the secret header check and the Update normalised into InboundMessage.
 * Telegram signs nothing; setWebhook's secret_token comes back in X-Telegram-Bot-Api-Secret-Token.
 */
export function isValidTelegramSecret(given: string | undefined, expected: string): boolean {
  if (!given || !expected) return false;
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

interface TgUser {
  id: number;
  is_bot?: boolean;
  first_name?: string;
  last_name?: string;
  username?: string;
}
interface TgChat {
  id: number;
  type?: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
}
interface TgFile {
  file_id?: string;
  file_unique_id?: string;
  file_name?: string;
  mime_type?: string;
  file_size?: number;
}
export interface TgMessage {
  message_id?: number;
  date?: number;
  chat?: TgChat;
  from?: TgUser;
  text?: string;
  caption?: string;
  photo?: (TgFile & { width?: number; height?: number })[];
  document?: TgFile;
  audio?: TgFile & { title?: string };
  voice?: TgFile;
  video?: TgFile;
  sticker?: TgFile & { emoji?: string; is_animated?: boolean; is_video?: boolean };
  location?: { latitude?: number; longitude?: number };
  venue?: { title?: string; address?: string };
  contact?: { phone_number?: string; first_name?: string; last_name?: string };
  reply_to_message?: { message_id?: number };
}
export interface TelegramUpdate {
  update_id?: number;
  message?: TgMessage;
  edited_message?: TgMessage;
}

type FileDownloader = (fileId: string) => Promise<{ buffer: Buffer }>;

const fullName = (p: { first_name?: string; last_name?: string } | undefined) =>
  [p?.first_name, p?.last_name].filter(Boolean).join(' ').trim();

/**
 * One Update -> at most one InboundMessage. `message` only: `edited_message` is ignored because
 * the inbound pipeline has no "edit an inbound message" entry yet (it would be stored as a
 * duplicate of the original id and dropped anyway). Messages of the bot itself and of channels
 * (chat type 'channel') are skipped.
 */
export function parseTelegramUpdate(
  update: TelegramUpdate,
  channel: Pick<ChannelRecord, 'id' | 'tenantId'>,
  download: FileDownloader,
): InboundMessage | null {
  const m = update?.message;
  if (!m || typeof m.message_id !== 'number' || !m.chat || typeof m.chat.id !== 'number') return null;
  if (m.chat.type === 'channel' || m.from?.is_bot) return null;
  const isGroup = m.chat.type === 'group' || m.chat.type === 'supergroup';
  const chatId = String(m.chat.id);
  const name = isGroup ? m.chat.title?.trim() || chatId : fullName(m.from) || fullName(m.chat) || m.chat.username || chatId;
  const base = {
    channelId: channel.id,
    tenantId: channel.tenantId,
    providerMessageId: telegramProviderId(chatId, m.message_id),
    from: { kind: 'telegram' as const, externalId: chatId, name },
    isGroup,
    timestamp: m.date || Math.floor(Date.now() / 1000),
    ...(m.reply_to_message?.message_id
      ? { quotedProviderMessageId: telegramProviderId(chatId, m.reply_to_message.message_id) }
      : {}),
    raw: update,
  };
  // In a group, the agent needs to know who wrote.
  const prefix = isGroup && m.from ? `${fullName(m.from) || m.from.username || m.from.id}: ` : '';
  const media = (
    type: InboundMessage['type'],
    file: TgFile | undefined,
    mimeType: string | undefined,
    body: string,
  ): InboundMessage => {
    const fileId = file?.file_id;
    return {
      ...base,
      type,
      body: body ? `${prefix}${body}` : '',
      media: {
        providerMediaId: fileId,
        mimeType: file?.mime_type ?? mimeType,
        fileName: file?.file_name,
        download: async () => {
          if (!fileId) throw new Error('update sem file_id');
          return (await download(fileId)).buffer;
        },
      },
    };
  };
  const caption = m.caption ?? '';
  if (typeof m.text === 'string') return { ...base, type: 'chat', body: `${prefix}${m.text}` };
  if (Array.isArray(m.photo) && m.photo.length > 0) {
    const largest = [...m.photo].sort(
      (a, b) => (b.file_size ?? (b.width ?? 0) * (b.height ?? 0)) - (a.file_size ?? (a.width ?? 0) * (a.height ?? 0)),
    )[0];
    return media('image', largest, 'image/jpeg', caption);
  }
  if (m.voice) return media('audio', m.voice, 'audio/ogg', caption);
  if (m.audio) return media('audio', m.audio, 'audio/mpeg', caption);
  if (m.video) return media('video', m.video, 'video/mp4', caption);
  if (m.document) return media('document', m.document, 'application/octet-stream', caption);
  if (m.sticker) {
    const mime = m.sticker.is_video ? 'video/webm' : m.sticker.is_animated ? 'application/x-tgsticker' : 'image/webp';
    return media('sticker', m.sticker, mime, m.sticker.emoji ?? '');
  }
  if (m.location && typeof m.location.latitude === 'number' && typeof m.location.longitude === 'number') {
    const { latitude, longitude } = m.location;
    const label = [m.venue?.title, m.venue?.address].filter(Boolean).join(' - ');
    return {
      ...base,
      type: 'location',
      body: label || `${latitude},${longitude}`,
      location: { latitude, longitude, ...(m.venue?.title ? { name: m.venue.title } : {}) },
    };
  }
  if (m.contact) {
    return { ...base, type: 'contactCard', body: [fullName(m.contact), m.contact.phone_number].filter(Boolean).join(': ') };
  }
  // Kept, not dropped: the agent sees that something arrived the console cannot show.
  return { ...base, type: 'unsupported', body: caption };
}
