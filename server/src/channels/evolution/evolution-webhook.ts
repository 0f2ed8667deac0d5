import type { ChannelRecord, InboundMessage, StatusUpdate } from '../channel-adapter';
import { bytesOfBase64 } from '../gateway/gateway-http';
import { GATEWAY_DOWNLOAD_MAX_BYTES, type ConnectionEvent } from '../gateway/gateway-adapter';
import type { GatewayWebhookBatch } from '../gateway/gateway-webhook';
import { waInbound } from '../gateway/wa-inbound';
import { digitsOfJid, field, isIgnoredJid, num, readWaMessage, str } from '../gateway/wa-message';
import type { EvolutionAdapter } from './evolution-adapter';

/**
 * Evolution API v2 webhook payloads (byEvents off, one URL):
 *   {event: 'messages.upsert', instance, data: {key: {remoteJid, fromMe, id, participant?,
 *     remoteJidAlt?|senderPn?}, pushName, message: {conversation | extendedTextMessage | imageMessage
 *     ... , base64?, mediaUrl?}, messageType, messageTimestamp, contextInfo?}}
 *   {event: 'messages.update', data: {keyId, remoteJid, fromMe, status: 'SERVER_ACK' |
 *     'DELIVERY_ACK' | 'READ' | 'PLAYED' | 'ERROR'}} (older: {key: {id}, update: {status: 2..5}})
 *   {event: 'connection.update', data: {state: 'open' | 'connecting' | 'close', statusReason, wuid?}}
 *   {event: 'qrcode.updated', data: {qrcode: {code, base64, pairingCode}}}
 *   {event: 'logout.instance' | 'remove.instance'}
 * Event names are also accepted in the MESSAGES_UPSERT spelling. A payload of another instance
 * (the name is the channel's) is ignored. Our own messages (fromMe) are not stored as inbound.
 */
export interface EvolutionWebhookPayload {
  event?: string;
  instance?: string;
  data?: unknown;
}

const STATUS_BY_NAME: Record<string, StatusUpdate['status'] | undefined> = {
  SERVER_ACK: 'sent',
  DELIVERY_ACK: 'delivered',
  READ: 'read',
  PLAYED: 'read',
  ERROR: 'failed',
};
/** Baileys' numeric WebMessageInfo status: 0 error, 1 pending, 2 server ack, 3 delivered, 4 read, 5 played. */
const STATUS_BY_NUMBER: (StatusUpdate['status'] | undefined)[] = ['failed', undefined, 'sent', 'delivered', 'read', 'read'];

const list = (data: unknown): Record<string, unknown>[] => {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  const messages = field(data, 'messages');
  if (Array.isArray(messages)) return messages as Record<string, unknown>[];
  return data && typeof data === 'object' ? [data as Record<string, unknown>] : [];
};

export function eventName(event: unknown): string {
  return typeof event === 'string' ? event.toLowerCase().replace(/_/g, '.') : '';
}

/** Baileys timestamps arrive as numbers, numeric strings or Long objects ({low, high}). */
function secondsOf(value: unknown): number | undefined {
  if (value && typeof value === 'object' && 'low' in value) return num((value as { low: unknown }).low);
  return num(value);
}

export function parseEvolutionWebhook(
  payload: EvolutionWebhookPayload,
  record: Pick<ChannelRecord, 'id' | 'tenantId' | 'name'>,
  adapter: Pick<EvolutionAdapter, 'downloadMedia' | 'api'>,
): GatewayWebhookBatch {
  const batch: GatewayWebhookBatch = { messages: [], statuses: [], ignored: 0 };
  if (!payload || typeof payload !== 'object') return batch;
  if (typeof payload.instance === 'string' && payload.instance !== record.name) {
    batch.ignored = 1;
    return batch;
  }
  const now = Math.floor(Date.now() / 1000);
  switch (eventName(payload.event)) {
    case 'messages.upsert':
      for (const item of list(payload.data)) {
        const message = inboundOf(item, record, adapter);
        if (message) batch.messages.push(message);
        else batch.ignored!++;
      }
      return batch;
    case 'messages.update':
      for (const item of list(payload.data)) {
        const key = field(item, 'key');
        const id = str(field(item, 'keyId')) ?? str(field(key, 'id'));
        const fromMe = field(item, 'fromMe') ?? field(key, 'fromMe');
        const raw = field(item, 'status') ?? field(field(item, 'update'), 'status');
        const status = typeof raw === 'number' ? STATUS_BY_NUMBER[raw] : STATUS_BY_NAME[String(raw ?? '').toUpperCase()];
        if (!id || !status || fromMe === false) {
          batch.ignored!++;
          continue;
        }
        batch.statuses.push({
          channelId: record.id,
          tenantId: record.tenantId,
          providerMessageId: id,
          status,
          ...(status === 'failed' ? { error: 'Evolution API: a mensagem não foi entregue (ERROR)' } : {}),
          timestamp: now,
        });
      }
      return batch;
    case 'connection.update': {
      const data = payload.data;
      const state = str(field(data, 'state'));
      const reason = num(field(data, 'statusReason'));
      if (state === 'open') batch.connection = { kind: 'connected', number: digitsOfJid(str(field(data, 'wuid'))) || null };
      else if (state === 'close' && reason === 401) batch.connection = { kind: 'loggedOut' };
      else if (state === 'close') batch.connection = { kind: 'lost', reason: `Evolution API: conexão perdida${reason ? ` (${reason})` : ''}` };
      else batch.ignored = 1;
      return batch;
    }
    case 'qrcode.updated': {
      const qr = field(payload.data, 'qrcode') ?? payload.data;
      const text = str(field(qr, 'code')) ?? str(field(qr, 'base64'));
      if (text) batch.connection = { kind: 'qr', qr: text, pairingCode: str(field(qr, 'pairingCode')) ?? null } satisfies ConnectionEvent;
      else batch.ignored = 1;
      return batch;
    }
    case 'logout.instance':
    case 'remove.instance':
      batch.connection = { kind: 'loggedOut' };
      return batch;
    default:
      batch.ignored = 1;
      return batch;
  }
}

function inboundOf(
  item: Record<string, unknown>,
  record: Pick<ChannelRecord, 'id' | 'tenantId'>,
  adapter: Pick<EvolutionAdapter, 'downloadMedia' | 'api'>,
): InboundMessage | null {
  const key = field(item, 'key');
  const chatJid = str(field(key, 'remoteJid'));
  const id = str(field(key, 'id'));
  if (!chatJid || !id || isIgnoredJid(chatJid) || field(key, 'fromMe') === true) return null;
  const message = field(item, 'message');
  const content = readWaMessage(message);
  if (content.skip) return null;
  if (!content.quotedId) {
    const quoted = str(field(field(item, 'contextInfo'), 'stanzaId'));
    if (quoted) content.quotedId = quoted;
  }
  const base64 = str(field(message, 'base64'));
  const mediaUrl = str(field(message, 'mediaUrl'));
  const download = async (): Promise<Buffer> => {
    if (base64) return bytesOfBase64(base64).buffer;
    if (mediaUrl) return (await adapter.api.http.download(mediaUrl, GATEWAY_DOWNLOAD_MAX_BYTES)).buffer;
    return (await adapter.downloadMedia(id)).buffer;
  };
  return waInbound(
    record,
    {
      chatJid,
      phoneJid: str(field(key, 'remoteJidAlt')) ?? str(field(key, 'senderPn')),
      pushName: str(field(item, 'pushName')),
      id,
      timestamp: secondsOf(field(item, 'messageTimestamp')),
      raw: { key, messageType: field(item, 'messageType') },
    },
    content,
    download,
  );
}
