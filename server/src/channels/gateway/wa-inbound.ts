import type { ChannelRecord, InboundMessage } from '../channel-adapter';
import { digitsOfJid, isGroupJid, type WaContent } from './wa-message';

export interface WaEnvelope {
  /** The chat: a person's JID, a group's JID, or a LID (`...@lid`). */
  chatJid: string;
  /** The person's phone JID when the chat is addressed by LID (Evolution's remoteJidAlt / senderPn). */
  phoneJid?: string;
  /** Who wrote, in a group. */
  participantName?: string;
  pushName?: string;
  id: string;
  /** Unix seconds. */
  timestamp?: number;
  raw?: unknown;
}

/**
 * One WhatsApp message, as a gateway posted it, normalised for the inbound pipeline. A person is
 * identity `wa` with their phone digits (the same identity the Cloud API and Baileys use, so
 * one contact per person whatever the channel); a LID-only chat is identity `lid`; a group is
 * identity `wa` with the group JID, its body prefixed with the sender's name.
 */
export function waInbound(
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  env: WaEnvelope,
  content: WaContent,
  download?: () => Promise<Buffer>,
): InboundMessage {
  const isGroup = isGroupJid(env.chatJid);
  const lid = env.chatJid.endsWith('@lid');
  const phone = isGroup ? '' : digitsOfJid(lid ? env.phoneJid : env.chatJid);
  const from: InboundMessage['from'] = isGroup
    ? { kind: 'wa', externalId: env.chatJid }
    : phone
      ? { kind: 'wa', externalId: phone, phone, ...(env.pushName ? { name: env.pushName } : {}) }
      : { kind: 'lid', externalId: digitsOfJid(env.chatJid), ...(env.pushName ? { name: env.pushName } : {}) };
  const prefix = isGroup && (env.participantName || env.pushName) ? `${env.participantName || env.pushName}: ` : '';
  const message: InboundMessage = {
    channelId: record.id,
    tenantId: record.tenantId,
    providerMessageId: env.id,
    from,
    isGroup,
    timestamp: env.timestamp && env.timestamp > 0 ? Math.floor(env.timestamp) : Math.floor(Date.now() / 1000),
    type: content.type,
    body: content.body && content.type !== 'reaction' ? `${prefix}${content.body}` : content.body,
    ...(content.quotedId ? { quotedProviderMessageId: content.quotedId } : {}),
    ...(content.reaction ? { reaction: { targetProviderMessageId: content.reaction.targetId, emoji: content.reaction.emoji } } : {}),
    ...(content.location ? { location: content.location } : {}),
    raw: env.raw,
  };
  if (content.media) {
    const fetchBytes = download;
    message.media = {
      providerMediaId: env.id,
      mimeType: content.media.mimeType,
      fileName: content.media.fileName,
      download: async () => {
        if (!fetchBytes) throw new Error('mídia sem meio de download');
        return fetchBytes();
      },
    };
  }
  return message;
}
