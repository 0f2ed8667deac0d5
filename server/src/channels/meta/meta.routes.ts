import type Router from '@koa/router';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { WebhookDeps } from '../channel-port';
import type { AppContext } from '../../http/context';
import { intParam } from '../../http/validate';
import { ACK_BY_STATUS, type StatusUpdate } from '../channel-adapter';
import { toChannelRecord, type ChannelRow } from '../channel-row';
import { isValidSignature, sameSecret } from '../waba/waba-webhook';
import { MetaAdapter, type MetaChannelType } from './meta-adapter';
import { parseMetaWebhook, type MetaWatermark, type MetaWebhookPayload } from './meta-webhook';

/** Most messages one watermark receipt moves (the newest first; older ones were acked before). */
const WATERMARK_MAX_MESSAGES = 200;

/**
 * Instagram and Messenger webhooks (the callback URL of the Meta app, one per channel):
 *   GET  /webhooks/{instagram|messenger}/:channelId  Meta's subscription check: hub.challenge as
 *        text when hub.mode is subscribe and hub.verify_token is the channel's fbVerifyToken,
 *        else 403
 *   POST /webhooks/{instagram|messenger}/:channelId  X-Hub-Signature-256 over the raw body with
 *        the channel's fbAppSecret (401 and nothing stored without it); messages, reactions and
 *        postbacks go to the inbound pipeline, receipts become acks; 200 once stored (a 500
 *        makes Meta deliver again; the pipeline stores each mid once per channel)
 */
export function metaRoutes(router: Router, deps: WebhookDeps): void {
  for (const type of ['instagram', 'messenger'] as const) {
    const channelOf = async (ctx: AppContext): Promise<ChannelRow> => {
      const row = await deps.channels.webhookRow(intParam(ctx, 'channelId'), type);
      if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
      return row;
    };

    router.get(`/webhooks/${type}/:channelId`, async (ctx: AppContext) => {
      const channel = await channelOf(ctx);
      const expected = typeof channel.secrets?.fbVerifyToken === 'string' ? channel.secrets.fbVerifyToken : '';
      const token = ctx.query['hub.verify_token'];
      const challenge = ctx.query['hub.challenge'];
      if (
        ctx.query['hub.mode'] !== 'subscribe' ||
        typeof token !== 'string' ||
        !expected ||
        !sameSecret(token, expected) ||
        typeof challenge !== 'string'
      ) {
        throw new AppError('ERR_NO_PERMISSION', { message: 'Token de verificação do webhook inválido.' });
      }
      ctx.type = 'text/plain';
      ctx.body = challenge;
    });

    router.post(`/webhooks/${type}/:channelId`, async (ctx: AppContext) => {
      const channel = await channelOf(ctx);
      const appSecret = typeof channel.secrets?.fbAppSecret === 'string' ? channel.secrets.fbAppSecret : '';
      const rawBody = (ctx.request as unknown as { rawBody?: string }).rawBody;
      if (!isValidSignature(rawBody, ctx.get('x-hub-signature-256') || undefined, appSecret)) {
        deps.logger.warn(
          { channelId: channel.id, type, requestId: ctx.state.requestId },
          'meta webhook with a missing or wrong signature refused',
        );
        throw new AppError('ERR_WEBHOOK_SIGNATURE');
      }
      const record = toChannelRecord(channel);
      const adapterOf = (): MetaAdapter => {
        const adapter = deps.channels.adapterFor(record);
        if (!(adapter instanceof MetaAdapter)) throw new Error(`the ${type} adapter is not a MetaAdapter`);
        return adapter;
      };
      const config = record.providerConfig;
      const parsed = parseMetaWebhook(
        (ctx.request as unknown as { body?: MetaWebhookPayload }).body ?? {},
        { id: record.id, tenantId: record.tenantId, type: type as MetaChannelType },
        {
          pageId: typeof config.fbPageId === 'string' ? config.fbPageId : '',
          instagramBusinessId: typeof config.instagramBusinessId === 'string' ? config.instagramBusinessId : '',
        },
        (url) => adapterOf().downloadAttachment(url),
      );
      // Webhooks carry only ids: the sender's name comes from the Graph profile (best effort,
      // cached by the adapter; without it the contact is named after its id).
      const senders = [...new Set(parsed.messages.filter((m) => m.type !== 'reaction').map((m) => m.from.externalId))];
      if (senders.length > 0) {
        const adapter = adapterOf();
        const profiles = new Map(await Promise.all(senders.map(async (id) => [id, await adapter.profile(id)] as const)));
        for (const m of parsed.messages) {
          const p = profiles.get(m.from.externalId);
          if (p?.name) m.from.name = p.name;
          if (p?.picture) m.from.profilePicUrl = p.picture;
        }
      }
      const statuses = [
        ...parsed.statuses,
        ...(await watermarkStatuses(deps.dataSource, record.tenantId, record.id, type, parsed.watermarks)),
      ];
      // Stored before answering (see the waba webhook): messages first, then receipts.
      const results = await deps.channels.inbound.receive(parsed.messages);
      const changed = await Promise.all(statuses.map((status) => deps.channels.inbound.applyStatus(status)));
      ctx.body = {
        stored: results.filter((r) => r.outcome === 'stored').length,
        duplicates: results.filter((r) => r.outcome === 'duplicate').length,
        statuses: changed.filter(Boolean).length,
      };
    });
  }
}

/**
 * Messenger receipts without ids ("everything up to <watermark> was delivered / read"): the
 * messages this channel sent to that person up to then whose ack is still below it.
 */
export async function watermarkStatuses(
  db: Queryable,
  tenantId: number,
  channelId: number,
  kind: MetaChannelType,
  watermarks: MetaWatermark[],
): Promise<StatusUpdate[]> {
  const out: StatusUpdate[] = [];
  for (const w of watermarks) {
    const rows: { messageId: string }[] = await db.query(
      `SELECT m."messageId" FROM messages m
        WHERE m."tenantId" = $1 AND m."whatsappId" = $2 AND m."fromMe" AND m."messageId" IS NOT NULL
          AND m.ack >= ${ACK_BY_STATUS.sent} AND m.ack < $3 AND m.timestamp <= $4
          AND m."contactId" IN (SELECT i."contactId" FROM contact_identities i
                                 WHERE i."tenantId" = $1 AND i.kind = $5 AND i."externalId" = $6)
        ORDER BY m.id DESC LIMIT ${WATERMARK_MAX_MESSAGES}`,
      [tenantId, channelId, ACK_BY_STATUS[w.status], w.upTo, kind, w.senderId],
    );
    for (const r of rows) {
      out.push({ channelId, tenantId, providerMessageId: r.messageId, status: w.status, timestamp: w.upTo });
    }
  }
  return out;
}
