import { createHmac, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import { AppError } from '../../core/app-error';
import type { WebhookDeps } from '../channel-port';
import type { AppContext } from '../../http/context';
import { intParam } from '../../http/validate';
import type { ChannelRecord, ChannelType, InboundMessage, SessionStatus, StatusUpdate } from '../channel-adapter';
import { toChannelRecord } from '../channel-row';
import type { ConnectionEvent, GatewayAdapter } from './gateway-adapter';

/**
 * The webhook route every QR-code gateway mounts: POST /webhooks/<type>/:channelId?secret=<s>.
 * These gateways cannot sign their posts, so the channel's random secret (generated on create,
 * put in the webhook URL we register at the gateway) proves the caller: missing or wrong -> 401
 * ERR_WEBHOOK_SIGNATURE and nothing read or stored; unknown channel (or another type) -> 404.
 * Then the gateway's payload is parsed into messages, delivery statuses and session news;
 * messages and statuses are committed before the answer (a 500 makes the gateway deliver again;
 * the pipeline stores each message once per channel and provider id).
 */

export interface GatewayWebhookBatch {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  connection?: ConnectionEvent;
  /** Events we read but do nothing with (presence, chats, contacts ...). */
  ignored?: number;
}

export interface GatewayWebhookSpec<A extends GatewayAdapter> {
  type: ChannelType;
  /** Key of the channel's webhook secret in `channels.secrets`. */
  secretKey: string;
  adapterClass: abstract new (...args: never[]) => A;
  parse(body: unknown, record: ChannelRecord, adapter: A): GatewayWebhookBatch;
}

export function isValidGatewaySecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || !given || !expected) return false;
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export function mountGatewayWebhook<A extends GatewayAdapter>(router: Router, deps: WebhookDeps, spec: GatewayWebhookSpec<A>): void {
  router.post(`/webhooks/${spec.type}/:channelId`, async (ctx: AppContext) => {
    const row = await deps.channels.webhookRow(intParam(ctx, 'channelId'), spec.type);
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    const expected = typeof row.secrets?.[spec.secretKey] === 'string' ? (row.secrets[spec.secretKey] as string) : '';
    if (!isValidGatewaySecret(ctx.query.secret, expected)) {
      deps.logger.warn(
        { channelId: row.id, type: spec.type, requestId: ctx.state.requestId },
        'gateway webhook with a missing or wrong secret refused',
      );
      throw new AppError('ERR_WEBHOOK_SIGNATURE');
    }
    const record = toChannelRecord(row);
    const adapter = deps.channels.adapterFor(record);
    if (!(adapter instanceof spec.adapterClass)) throw new Error(`the ${spec.type} adapter is not a gateway adapter`);
    const batch = spec.parse((ctx.request as unknown as { body?: unknown }).body ?? {}, record, adapter as A);
    const [results, changed] = await Promise.all([
      deps.channels.inbound.receive(batch.messages),
      Promise.all(batch.statuses.map((status) => deps.channels.inbound.applyStatus(status))),
    ]);
    if (batch.connection) {
      // The stored state now (the cached row may be a moment old), so news about a session we
      // ended does not bring it back.
      const [current] = (await deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [row.id])) as {
        status: SessionStatus;
      }[];
      if (current) await (adapter as A).onConnection(batch.connection, current.status);
    }
    ctx.body = {
      stored: results.filter((r) => r.outcome === 'stored').length,
      duplicates: results.filter((r) => r.outcome === 'duplicate').length,
      reactions: results.filter((r) => r.outcome === 'reaction').length,
      statuses: changed.filter(Boolean).length,
      session: batch.connection?.kind ?? null,
    };
  });
}
