import type { InboundMessageType } from '../channel-adapter';

/**
 * WhatsApp message protos as the Baileys- and whatsmeow-based gateways post them in webhooks
 * (Evolution API: Baileys' protobuf JSON, `stanzaId`, `url`; Wuzapi: whatsmeow's Go structs,
 * `stanzaID`, `URL`, `remoteJID`). Keys are read case-insensitively so one reader serves both.
 */
export type WaProto = Record<string, unknown>;

/** A field of a proto object whatever its key's case (`stanzaId` / `stanzaID`, `url` / `URL`). */
export function field(obj: unknown, name: string): unknown {
  if (!obj || typeof obj !== 'object') return undefined;
  const o = obj as Record<string, unknown>;
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(o)) if (key.toLowerCase() === lower) return o[key];
  return undefined;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** Phone digits of a WhatsApp JID (`5511988887777:12@s.whatsapp.net`, `5511988887777.0:3@...` -> `5511988887777`). */
export function digitsOfJid(jid: string | undefined | null): string {
  if (!jid) return '';
  return jid.split('@')[0].split(':')[0].split('.')[0].replace(/\D/g, '');
}

export const isGroupJid = (jid: string | undefined | null): boolean => !!jid && jid.endsWith('@g.us');
/** Status broadcasts and newsletters are not conversations. */
export const isIgnoredJid = (jid: string | undefined | null): boolean =>
  !jid || jid === 'status@broadcast' || jid.endsWith('@broadcast') || jid.endsWith('@newsletter');

/** A JID for a target: a group's own JID, else `<digits>@s.whatsapp.net`. */
export function jidOf(to: string, isGroup: boolean): string {
  if (to.includes('@')) return to;
  return isGroup ? `${to}@g.us` : `${to.replace(/\D/g, '')}@s.whatsapp.net`;
}

export type WaMediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

export interface WaContent {
  type: InboundMessageType;
  body: string;
  media?: { kind: WaMediaKind; node: WaProto; mimeType?: string; fileName?: string };
  quotedId?: string;
  reaction?: { targetId: string; emoji: string };
  location?: { latitude: number; longitude: number; name?: string };
  /** Protocol messages (revokes, key shares), receipts of our own edits ... : not a conversation message. */
  skip?: boolean;
}

const MEDIA_NODES: [string, WaMediaKind, InboundMessageType, string][] = [
  ['imageMessage', 'image', 'image', 'image/jpeg'],
  ['videoMessage', 'video', 'video', 'video/mp4'],
  ['audioMessage', 'audio', 'audio', 'audio/ogg'],
  ['documentMessage', 'document', 'document', 'application/octet-stream'],
  ['stickerMessage', 'sticker', 'sticker', 'image/webp'],
];

/** The quoted message id of any content node (its contextInfo.stanzaId). */
function quotedIdOf(node: unknown): string | undefined {
  return str(field(field(node, 'contextInfo'), 'stanzaId'));
}

/** Reads the content of a WhatsApp `Message` proto. */
export function readWaMessage(message: unknown): WaContent {
  let m = message as WaProto | undefined;
  if (!m || typeof m !== 'object') return { type: 'unsupported', body: '' };
  // Wrappers: ephemeral / view-once / document with caption carry the real message inside.
  for (const wrapper of ['ephemeralMessage', 'viewOnceMessage', 'viewOnceMessageV2', 'documentWithCaptionMessage', 'editedMessage']) {
    const inner = field(field(m, wrapper), 'message');
    if (inner && typeof inner === 'object') m = inner as WaProto;
  }
  if (field(m, 'protocolMessage') || (field(m, 'senderKeyDistributionMessage') && Object.keys(m).length === 1)) {
    return { type: 'unsupported', body: '', skip: true };
  }
  const conversation = str(field(m, 'conversation'));
  if (conversation !== undefined) return { type: 'chat', body: conversation };
  const extended = field(m, 'extendedTextMessage');
  if (extended) return { type: 'chat', body: str(field(extended, 'text')) ?? '', quotedId: quotedIdOf(extended) };
  const reaction = field(m, 'reactionMessage');
  if (reaction) {
    const targetId = str(field(field(reaction, 'key'), 'id'));
    if (!targetId) return { type: 'unsupported', body: '', skip: true };
    return { type: 'reaction', body: '', reaction: { targetId, emoji: str(field(reaction, 'text')) ?? '' } };
  }
  for (const [key, kind, type, fallbackMime] of MEDIA_NODES) {
    const node = field(m, key) as WaProto | undefined;
    if (!node || typeof node !== 'object') continue;
    const caption = str(field(node, 'caption')) ?? '';
    return {
      type,
      body: caption,
      media: { kind, node, mimeType: str(field(node, 'mimetype')) ?? fallbackMime, fileName: str(field(node, 'fileName')) },
      quotedId: quotedIdOf(node),
    };
  }
  const location = field(m, 'locationMessage') ?? field(m, 'liveLocationMessage');
  if (location) {
    const latitude = num(field(location, 'degreesLatitude'));
    const longitude = num(field(location, 'degreesLongitude'));
    if (latitude !== undefined && longitude !== undefined) {
      const name = str(field(location, 'name'));
      const label = [name, str(field(location, 'address'))].filter(Boolean).join(' - ');
      return { type: 'location', body: label || `${latitude},${longitude}`, location: { latitude, longitude, ...(name ? { name } : {}) } };
    }
  }
  const contact = field(m, 'contactMessage');
  if (contact) {
    const vcard = str(field(contact, 'vcard')) ?? '';
    const phone = /waid=(\d+)/.exec(vcard)?.[1] ?? /TEL[^:]*:([+\d\s-]+)/.exec(vcard)?.[1]?.trim();
    return { type: 'contactCard', body: [str(field(contact, 'displayName')), phone].filter(Boolean).join(': ') };
  }
  const buttonReply = field(m, 'buttonsResponseMessage') ?? field(m, 'templateButtonReplyMessage');
  if (buttonReply) {
    const text = str(field(buttonReply, 'selectedDisplayText')) ?? str(field(buttonReply, 'selectedButtonId')) ?? '';
    return { type: 'button', body: text, quotedId: quotedIdOf(buttonReply) };
  }
  const listReply = field(m, 'listResponseMessage');
  if (listReply) return { type: 'interactive', body: str(field(listReply, 'title')) ?? '', quotedId: quotedIdOf(listReply) };
  // Kept, not dropped: the agent sees that something arrived the console cannot show.
  return { type: 'unsupported', body: '' };
}
