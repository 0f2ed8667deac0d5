import type { ChannelRecord, InboundMessage, StatusUpdate } from '../channel-adapter';
import type { GatewayWebhookBatch } from '../gateway/gateway-webhook';
import { bytesOfBase64 } from '../gateway/gateway-http';
import { waInbound } from '../gateway/wa-inbound';
import { digitsOfJid, isIgnoredJid, num, str, type WaContent, type WaMediaKind } from '../gateway/wa-message';
import type { MeowAdapter } from './meow-adapter';

/**
 * Meow webhook posts (the modelled protocol, see meow-adapter.ts): `{event, data}`.
 *   message  {id, chat, sender, pushName, fromMe, timestamp, text?, quotedId?,
 *             media?: {type: image|video|audio|document|sticker, mimeType, fileName?, caption?, base64?},
 *             reaction?: {targetId, emoji}, location?: {latitude, longitude, name?}}
 *   receipt  {ids: string[], status: 'delivered' | 'read' | 'played' | 'failed', error?}
 *   session.qr {qr, pairingCode?} | session.connected {jid} | session.logged_out {reason?} | session.disconnected {reason?}
 * Media without inline base64 is fetched with GET /v1/media/{id}.
 */
export interface MeowWebhookPayload {
  event?: string;
  data?: Record<string, any>;
}

const MEDIA_TYPES = new Set<WaMediaKind>(['image', 'video', 'audio', 'document', 'sticker']);
const RECEIPTS: Record<string, StatusUpdate['status']> = { delivered: 'delivered', read: 'read', played: 'read', failed: 'failed' };

export function parseMeowWebhook(
  payload: MeowWebhookPayload,
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  adapter: Pick<MeowAdapter, 'downloadMedia'>,
): GatewayWebhookBatch {
  const batch: GatewayWebhookBatch = { messages: [], statuses: [], ignored: 0 };
  const data = payload?.data ?? {};
  switch (payload?.event) {
    case 'message': {
      const message = inboundOf(data, record, adapter);
      if (message) batch.messages.push(message);
      else batch.ignored = 1;
      return batch;
    }
    case 'receipt': {
      const status = RECEIPTS[String(data.status)];
      if (!status || !Array.isArray(data.ids)) {
        batch.ignored = 1;
        return batch;
      }
      for (const id of data.ids) {
        if (typeof id !== 'string' || !id) continue;
        batch.statuses.push({
          channelId: record.id,
          tenantId: record.tenantId,
          providerMessageId: id,
          status,
          ...(status === 'failed' ? { error: `Meow: ${str(data.error) ?? 'a mensagem não foi entregue'}` } : {}),
          timestamp: num(data.timestamp) ?? Math.floor(Date.now() / 1000),
        });
      }
      return batch;
    }
    case 'session.qr':
      if (str(data.qr)) batch.connection = { kind: 'qr', qr: data.qr, pairingCode: str(data.pairingCode) ?? null };
      else batch.ignored = 1;
      return batch;
    case 'session.connected':
      batch.connection = { kind: 'connected', number: digitsOfJid(str(data.jid)) || null };
      return batch;
    case 'session.logged_out':
      batch.connection = { kind: 'loggedOut', ...(str(data.reason) ? { reason: `Meow: ${data.reason}` } : {}) };
      return batch;
    case 'session.disconnected':
      batch.connection = { kind: 'lost', reason: `Meow: conexão perdida${str(data.reason) ? ` (${data.reason})` : ''}` };
      return batch;
    default:
      batch.ignored = 1;
      return batch;
  }
}

function inboundOf(
  data: Record<string, any>,
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  adapter: Pick<MeowAdapter, 'downloadMedia'>,
): InboundMessage | null {
  const chat = str(data.chat);
  const id = str(data.id);
  if (!chat || !id || isIgnoredJid(chat) || data.fromMe === true) return null;
  let content: WaContent;
  const media = data.media;
  if (data.reaction && str(data.reaction.targetId)) {
    content = { type: 'reaction', body: '', reaction: { targetId: data.reaction.targetId, emoji: str(data.reaction.emoji) ?? '' } };
  } else if (media && MEDIA_TYPES.has(media.type)) {
    const kind = media.type as WaMediaKind;
    content = { type: kind, body: str(media.caption) ?? '', media: { kind, node: media, mimeType: str(media.mimeType), fileName: str(media.fileName) } };
  } else if (data.location && num(data.location.latitude) !== undefined && num(data.location.longitude) !== undefined) {
    const { latitude, longitude } = data.location;
    const name = str(data.location.name);
    content = { type: 'location', body: name ?? `${latitude},${longitude}`, location: { latitude, longitude, ...(name ? { name } : {}) } };
  } else if (typeof data.text === 'string') {
    content = { type: 'chat', body: data.text };
  } else {
    content = { type: 'unsupported', body: '' };
  }
  if (str(data.quotedId)) content.quotedId = data.quotedId;
  const inline = str(media?.base64);
  return waInbound(
    record,
    { chatJid: chat, phoneJid: str(data.senderPhone), pushName: str(data.pushName), id, timestamp: num(data.timestamp), raw: { chat, sender: data.sender } },
    content,
    async () => (inline ? bytesOfBase64(inline).buffer : adapter.downloadMedia(id)),
  );
}
