import type { Contact, GroupMetadata, GroupParticipant, proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import type { ChannelGroup, GroupMember, InboundMessage, InteractiveButton, OutboundTarget, PhoneContact, StatusUpdate } from '../channel-adapter';

/**
 * Pure mapping between Baileys' message shapes and the platform's (no socket, no database):
 * JIDs, inbound normalisation, delivery statuses, the text fallback of buttons.
 */

export const PN_SERVER = 's.whatsapp.net';
export const GROUP_SERVER = 'g.us';
export const LID_SERVER = 'lid';

export const serverOf = (jid: string | null | undefined): string => (jid ? jid.slice(jid.indexOf('@') + 1) : '');
/** The user part of a JID without its device: `5511999990000:3@s.whatsapp.net` -> `5511999990000`. */
export const userOf = (jid: string | null | undefined): string => (jid ? jid.split('@')[0].split(':')[0] : '');
export const isGroupJid = (jid: string | null | undefined): boolean => serverOf(jid) === GROUP_SERVER;
export const isPnJid = (jid: string | null | undefined): boolean => serverOf(jid) === PN_SERVER || serverOf(jid) === 'c.us';
export const isLidJid = (jid: string | null | undefined): boolean => serverOf(jid) === LID_SERVER;

/**
 * The JID of an outbound target: an identity that is already a JID (a group `…@g.us`, a
 * `…@lid`) as is; a group id without server gets `@g.us`; otherwise the digits of a number.
 */
export function targetJid(target: OutboundTarget): string {
  const to = target.to.trim();
  if (to.includes('@')) return to;
  if (target.isGroup) return `${to}@${GROUP_SERVER}`;
  return `${to.replace(/\D/g, '')}@${PN_SERVER}`;
}

/** ack status of a Baileys message status (proto.WebMessageInfo.Status); null: nothing to say. */
export function statusOf(status: number | null | undefined): StatusUpdate['status'] | null {
  switch (status) {
    case 0:
      return 'failed'; // ERROR
    case 2:
      return 'sent'; // SERVER_ACK
    case 3:
      return 'delivered'; // DELIVERY_ACK
    case 4:
    case 5:
      return 'read'; // READ, PLAYED (voice notes)
    default:
      return null; // PENDING (1) or absent
  }
}

/**
 * WhatsApp (through Baileys) no longer shows interactive buttons sent by a linked device, so a
 * message with buttons goes as text with a numbered list of their titles; the customer answers
 * with the number or the title.
 */
export function buttonsAsText(body: string, buttons: InteractiveButton[]): string {
  return [body.trim(), '', ...buttons.map((b, i) => `${i + 1}. ${b.title}`)].join('\n');
}

/** Unwraps the containers a message content may come in (ephemeral, view once, document with caption, edits). */
export function unwrapContent(message: proto.IMessage | null | undefined): proto.IMessage | undefined {
  let content = message ?? undefined;
  for (let i = 0; i < 5 && content; i++) {
    const inner =
      content.ephemeralMessage?.message ??
      content.viewOnceMessage?.message ??
      content.viewOnceMessageV2?.message ??
      content.viewOnceMessageV2Extension?.message ??
      content.documentWithCaptionMessage?.message ??
      content.editedMessage?.message;
    if (!inner) break;
    content = inner;
  }
  return content;
}

/** Why an upserted message is not stored (logged at debug level). */
export type SkipReason =
  | 'no-content'
  | 'from-me'
  | 'status-broadcast'
  | 'newsletter'
  | 'protocol'
  | 'not-a-chat';

export interface NormaliseContext {
  channelId: number;
  tenantId: number;
  /** Downloads the media of this message (Baileys' downloadMediaMessage); may fail. */
  download(message: WAMessage): Promise<Buffer>;
  /** The group's name, when known. */
  groupName?: string;
}

const longToNumber = (value: unknown): number => {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && 'toNumber' in value) return (value as { toNumber(): number }).toNumber();
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

/** The sender identity of a chat or participant JID, with its phone-number twin when Baileys gives one. */
export function identityOf(jid: string, alt?: string | null): InboundMessage['from'] {
  if (isPnJid(jid)) return { kind: 'wa', externalId: userOf(jid), phone: userOf(jid) };
  if (isLidJid(jid)) {
    if (alt && isPnJid(alt)) return { kind: 'wa', externalId: userOf(alt), phone: userOf(alt) };
    return { kind: 'lid', externalId: `${userOf(jid)}@${LID_SERVER}` };
  }
  return { kind: 'wa', externalId: jid };
}

/**
 * A Baileys message of `messages.upsert` (or a history sync) as the pipeline's InboundMessage,
 * or the reason it is skipped. Messages sent from the channel's own phone (`fromMe`) are skipped:
 * the inbound pipeline stores customers' messages only.
 */
export function normaliseInbound(msg: WAMessage, ctx: NormaliseContext): InboundMessage | SkipReason {
  const key = msg.key;
  const remoteJid = key?.remoteJid ?? '';
  if (!remoteJid || !key.id) return 'no-content';
  if (remoteJid === 'status@broadcast' || serverOf(remoteJid) === 'broadcast') return 'status-broadcast';
  if (serverOf(remoteJid) === 'newsletter') return 'newsletter';
  if (!isPnJid(remoteJid) && !isLidJid(remoteJid) && !isGroupJid(remoteJid)) return 'not-a-chat';
  if (key.fromMe) return 'from-me';
  const content = unwrapContent(msg.message);
  if (!content) return 'no-content';
  // Deletes and edits by the customer (protocolMessage) and key distribution alone carry no content to store.
  if (content.protocolMessage) return 'protocol';
  const kinds = Object.keys(content).filter((k) => k !== 'messageContextInfo' && k !== 'senderKeyDistributionMessage');
  if (kinds.length === 0) return 'protocol';

  const isGroup = isGroupJid(remoteJid);
  const participant = key.participant ?? undefined;
  const from: InboundMessage['from'] = isGroup
    ? { kind: 'wa', externalId: remoteJid, name: ctx.groupName }
    : { ...identityOf(remoteJid, (key as WAMessageKey).remoteJidAlt), name: msg.pushName ?? undefined };
  const senderName = msg.pushName || userOf((key as WAMessageKey).participantAlt ?? participant) || 'Participante';
  const prefix = isGroup ? `${senderName}: ` : '';
  const participantPn = [(key as WAMessageKey).participantAlt, participant].find((j) => isPnJid(j));
  const sender = (text: string): Pick<InboundMessage, 'groupSender'> =>
    isGroup && participant
      ? { groupSender: { id: participant, ...(participantPn ? { phone: userOf(participantPn) } : {}), name: msg.pushName ?? undefined, text } }
      : {};
  const base = {
    channelId: ctx.channelId,
    tenantId: ctx.tenantId,
    providerMessageId: key.id,
    from,
    isGroup,
    timestamp: longToNumber(msg.messageTimestamp) || Math.floor(Date.now() / 1000),
    raw: { key, participant },
  };

  if (content.reactionMessage) {
    const r = content.reactionMessage;
    return {
      ...base,
      type: 'reaction',
      body: r.text ?? '',
      reaction: { targetProviderMessageId: r.key?.id ?? '', emoji: r.text ?? '' },
    };
  }

  const contextInfo =
    content.extendedTextMessage?.contextInfo ??
    content.imageMessage?.contextInfo ??
    content.videoMessage?.contextInfo ??
    content.audioMessage?.contextInfo ??
    content.documentMessage?.contextInfo ??
    content.stickerMessage?.contextInfo ??
    content.locationMessage?.contextInfo ??
    content.contactMessage?.contextInfo ??
    content.buttonsResponseMessage?.contextInfo ??
    content.listResponseMessage?.contextInfo ??
    undefined;
  const quoted = contextInfo?.stanzaId ? { quotedProviderMessageId: contextInfo.stanzaId } : {};
  const withBody = (body: string) => `${prefix}${body}`;

  const media = (
    type: InboundMessage['type'],
    m: { mimetype?: string | null; fileName?: string | null; caption?: string | null },
  ): InboundMessage => ({
    ...base,
    ...quoted,
    ...sender(m.caption ?? ''),
    type,
    body: withBody(m.caption ?? ''),
    media: {
      mimeType: m.mimetype?.split(';')[0].trim() || undefined,
      fileName: m.fileName ?? undefined,
      download: () => ctx.download(msg),
    },
  });

  if (content.conversation != null) return { ...base, ...quoted, ...sender(content.conversation), type: 'chat', body: withBody(content.conversation) };
  if (content.extendedTextMessage) {
    const text = content.extendedTextMessage.text ?? '';
    return { ...base, ...quoted, ...sender(text), type: 'chat', body: withBody(text) };
  }
  if (content.imageMessage) return media('image', content.imageMessage);
  if (content.videoMessage) return media('video', content.videoMessage);
  if (content.audioMessage) return media('audio', content.audioMessage);
  if (content.documentMessage) return media('document', content.documentMessage);
  if (content.stickerMessage) return media('sticker', content.stickerMessage);
  const loc = content.locationMessage ?? content.liveLocationMessage;
  if (loc) {
    const name = content.locationMessage?.name ?? undefined;
    const address = content.locationMessage?.address ?? undefined;
    return {
      ...base,
      ...quoted,
      type: 'location',
      body: withBody([name, address].filter(Boolean).join(' - ') || `${loc.degreesLatitude},${loc.degreesLongitude}`),
      location: { latitude: Number(loc.degreesLatitude ?? 0), longitude: Number(loc.degreesLongitude ?? 0), name },
    };
  }
  if (content.contactMessage) {
    return { ...base, ...quoted, type: 'contactCard', body: withBody(content.contactMessage.vcard ?? content.contactMessage.displayName ?? '') };
  }
  if (content.contactsArrayMessage) {
    const cards = (content.contactsArrayMessage.contacts ?? []).map((c) => c.vcard ?? c.displayName ?? '').filter(Boolean);
    return { ...base, ...quoted, type: 'contactCard', body: withBody(cards.join('\n')) };
  }
  const reply =
    content.buttonsResponseMessage?.selectedDisplayText ??
    content.templateButtonReplyMessage?.selectedDisplayText ??
    content.listResponseMessage?.title ??
    content.listResponseMessage?.singleSelectReply?.selectedRowId;
  if (reply != null) return { ...base, ...quoted, type: 'button', body: withBody(reply) };
  return { ...base, ...quoted, type: 'unsupported', body: withBody('[mensagem não suportada]') };
}

// ---------- groups and contacts ----------

/** A participant as Baileys 7 reports it (an object with `id`, `phoneNumber`, `admin`; older versions sent bare JIDs). */
export function memberOf(participant: GroupParticipant | string): GroupMember {
  if (typeof participant === 'string') return { id: participant, phone: isPnJid(participant) ? userOf(participant) : null, admin: null };
  const pn = [participant.phoneNumber, participant.id].find((j) => isPnJid(j));
  const admin = participant.admin ?? (participant.isSuperAdmin ? 'superadmin' : participant.isAdmin ? 'admin' : null);
  return { id: participant.id, phone: pn ? userOf(pn) : null, admin };
}

/** Baileys' GroupMetadata as the port's ChannelGroup. */
export function groupOf(meta: GroupMetadata): ChannelGroup {
  return {
    id: meta.id,
    subject: meta.subject ?? '',
    description: meta.desc ?? null,
    owner: meta.ownerPn ?? meta.owner ?? null,
    announce: meta.announce === true,
    restrict: meta.restrict === true,
    participants: (meta.participants ?? []).map(memberOf),
  };
}

/** A partial GroupMetadata (`groups.update`) with only the fields it carries. */
export function groupChangeOf(meta: Partial<GroupMetadata> & { id: string }): Partial<ChannelGroup> & { id: string } {
  const change: Partial<ChannelGroup> & { id: string } = { id: meta.id };
  if (meta.subject !== undefined) change.subject = meta.subject;
  if (meta.desc !== undefined) change.description = meta.desc ?? null;
  if (meta.announce !== undefined) change.announce = meta.announce === true;
  if (meta.restrict !== undefined) change.restrict = meta.restrict === true;
  if (meta.participants !== undefined) change.participants = meta.participants.map(memberOf);
  return change;
}

/** A participant given as digits or a JID, as the JID Baileys takes. */
export function participantJid(participant: string): string {
  const p = participant.trim();
  return p.includes('@') ? p : `${p.replace(/\D/g, '')}@${PN_SERVER}`;
}

/**
 * A contact of `contacts.upsert` / `contacts.update` / a history sync as a PhoneContact, or null
 * for what is not a person (groups, broadcasts, newsletters). The phone is the PN JID's digits,
 * from `id` or (LID contacts) `phoneNumber`.
 */
export function phoneContactOf(contact: Partial<Contact>): PhoneContact | null {
  if (!contact.id) return null;
  if (!isPnJid(contact.id) && !isLidJid(contact.id)) return null;
  const pn = [contact.id, contact.phoneNumber].find((j) => isPnJid(j));
  return {
    id: contact.id,
    phone: pn ? userOf(pn) : null,
    name: contact.name?.trim() || null,
    notify: contact.notify?.trim() || contact.verifiedName?.trim() || null,
  };
}
