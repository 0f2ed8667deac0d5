import type { ChannelRecord, InboundMessage, StatusUpdate } from '../channel-adapter';
import type { GatewayWebhookBatch } from '../gateway/gateway-webhook';
import { bytesOfBase64 } from '../gateway/gateway-http';
import { waInbound } from '../gateway/wa-inbound';
import { digitsOfJid, field, isIgnoredJid, readWaMessage, str } from '../gateway/wa-message';
import { wuzapiSeconds, type WuzapiAdapter } from './wuzapi-adapter';

/**
 * Wuzapi webhook posts: JSON `{type, event, ...}`, or (older servers, form format)
 * `application/x-www-form-urlencoded` with the same JSON in the `jsonData` field.
 *   {type: 'Message', event: {Info: {Chat, Sender, IsFromMe, IsGroup, ID, PushName, Timestamp},
 *     Message: <whatsmeow Message proto>}, base64?, mimeType?, fileName?}
 *   {type: 'ReadReceipt', state: 'Read' | 'Delivered', event: {Chat, MessageIDs, Type, Timestamp}}
 *   {type: 'QR', qrCodeBase64: 'data:image/png;base64,...'}
 *   {type: 'Connected'} | {type: 'PairSuccess', event: {ID: '<jid>'}} | {type: 'LoggedOut'}
 *   {type: 'Disconnected' | 'StreamReplaced' | 'KeepAliveTimeout'}
 * Media without inline base64 is fetched with /chat/download<kind> from the message's media fields.
 */
export function wuzapiPayloadOf(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  if (typeof b.jsonData === 'string') {
    try {
      const parsed: unknown = JSON.parse(b.jsonData);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return b;
}

export function parseWuzapiWebhook(
  body: unknown,
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  adapter: Pick<WuzapiAdapter, 'downloadMedia'>,
): GatewayWebhookBatch {
  const payload = wuzapiPayloadOf(body);
  const batch: GatewayWebhookBatch = { messages: [], statuses: [], ignored: 0 };
  const event = payload.event;
  switch (str(payload.type)) {
    case 'Message': {
      const message = inboundOf(payload, record, adapter);
      if (message) batch.messages.push(message);
      else batch.ignored = 1;
      return batch;
    }
    case 'ReadReceipt': {
      const status = receiptStatus(str(payload.state), str(field(event, 'Type')));
      const ids = field(event, 'MessageIDs');
      if (!status || !Array.isArray(ids)) {
        batch.ignored = 1;
        return batch;
      }
      const timestamp = wuzapiSeconds(field(event, 'Timestamp')) ?? Math.floor(Date.now() / 1000);
      for (const id of ids) {
        if (typeof id !== 'string' || !id) continue;
        batch.statuses.push({ channelId: record.id, tenantId: record.tenantId, providerMessageId: id, status, timestamp } satisfies StatusUpdate);
      }
      return batch;
    }
    case 'QR': {
      const qr = str(payload.qrCodeBase64) ?? str(field(event, 'qrCodeBase64'));
      if (qr) batch.connection = { kind: 'qr', qr };
      else batch.ignored = 1;
      return batch;
    }
    case 'Connected':
      batch.connection = { kind: 'connected' };
      return batch;
    case 'PairSuccess':
      batch.connection = { kind: 'connected', number: digitsOfJid(str(field(event, 'ID'))) || null };
      return batch;
    case 'LoggedOut':
      batch.connection = { kind: 'loggedOut' };
      return batch;
    case 'Disconnected':
    case 'StreamReplaced':
    case 'KeepAliveTimeout':
      batch.connection = { kind: 'lost', reason: `Wuzapi: conexão perdida (${String(payload.type)})` };
      return batch;
    default:
      batch.ignored = 1;
      return batch;
  }
}

/** Receipts of our messages: delivered or read (played counts as read); our own reads elsewhere are not acks. */
function receiptStatus(state: string | undefined, type: string | undefined): StatusUpdate['status'] | null {
  if (state === 'Read') return 'read';
  if (state === 'Delivered') return 'delivered';
  if (type === 'read' || type === 'played') return 'read';
  if (type === '' || type === 'delivery') return 'delivered';
  return null;
}

function inboundOf(
  payload: Record<string, unknown>,
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  adapter: Pick<WuzapiAdapter, 'downloadMedia'>,
): InboundMessage | null {
  const event = payload.event;
  const info = field(event, 'Info');
  const chatJid = str(field(info, 'Chat'));
  const id = str(field(info, 'ID'));
  if (!chatJid || !id || isIgnoredJid(chatJid) || field(info, 'IsFromMe') === true) return null;
  const content = readWaMessage(field(event, 'Message'));
  if (content.skip) return null;
  const inline = str(payload.base64);
  if (content.media && str(payload.mimeType)) content.media.mimeType = str(payload.mimeType);
  if (content.media && str(payload.fileName) && !content.media.fileName) content.media.fileName = str(payload.fileName);
  const media = content.media;
  const download = async (): Promise<Buffer> => {
    if (inline) return bytesOfBase64(inline).buffer;
    if (!media) throw new Error('mensagem sem mídia');
    return (await adapter.downloadMedia(media.kind, media.node)).buffer;
  };
  const sender = str(field(info, 'Sender'));
  return waInbound(
    record,
    {
      chatJid,
      phoneJid: str(field(info, 'SenderAlt')) ?? (sender && !sender.endsWith('@lid') ? sender : undefined),
      pushName: str(field(info, 'PushName')),
      id,
      timestamp: wuzapiSeconds(field(info, 'Timestamp')),
      raw: { info },
    },
    content,
    download,
  );
}
