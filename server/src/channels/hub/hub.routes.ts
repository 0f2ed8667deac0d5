import type Router from '@koa/router';
import { AppError } from '../../core/app-error';
import type { WebhookDeps } from '../channel-port';
import type { AppContext } from '../../http/context';
import { intParam } from '../../http/validate';
import { toChannelRecord } from '../channel-row';
import { HubAdapter } from './hub-adapter';
import { isValidHubSecret, parseHubWebhook, type HubEvent } from './hub-webhook';

/**
 * POST /webhooks/hub/:channelId: the hub's events for one channel. The caller proves itself
 * with the channel's random webhook secret (generated at creation, registered with the hub on
 * connect) in X-Hub-Webhook-Secret or `?secret=`; otherwise 401 and nothing is read or stored.
 * Messages go to the inbound pipeline, statuses become acks; 200 once stored (the hub delivers
 * again on errors; the pipeline stores each message id once per channel).
 */
export function hubRoutes(router: Router, deps: WebhookDeps): void {
  router.post('/webhooks/hub/:channelId', async (ctx: AppContext) => {
    const channel = await deps.channels.webhookRow(intParam(ctx, 'channelId'), 'hub');
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    const expected = typeof channel.secrets?.hubWebhookSecret === 'string' ? channel.secrets.hubWebhookSecret : '';
    const query = ctx.query.secret;
    const given = ctx.get('x-hub-webhook-secret') || (typeof query === 'string' ? query : undefined);
    if (!isValidHubSecret(given, expected)) {
      deps.logger.warn(
        { channelId: channel.id, requestId: ctx.state.requestId },
        'hub webhook with a missing or wrong secret refused',
      );
      throw new AppError('ERR_WEBHOOK_SIGNATURE');
    }
    const record = toChannelRecord(channel);
    const hubChannelId = typeof record.providerConfig.hubChannelId === 'string' ? record.providerConfig.hubChannelId : '';
    const parsed = parseHubWebhook(
      (ctx.request as unknown as { body?: HubEvent | HubEvent[] }).body,
      record,
      hubChannelId,
      (fileUrl) => {
        const adapter = deps.channels.adapterFor(record);
        if (!(adapter instanceof HubAdapter)) throw new Error('the hub adapter cannot download files');
        return adapter.downloadFile(fileUrl);
      },
    );
    // Stored before answering: messages first, then statuses (a status may be about a reply to one).
    const results = await deps.channels.inbound.receive(parsed.messages);
    const changed = await Promise.all(parsed.statuses.map((status) => deps.channels.inbound.applyStatus(status)));
    ctx.body = {
      stored: results.filter((r) => r.outcome === 'stored').length,
      duplicates: results.filter((r) => r.outcome === 'duplicate').length,
      statuses: changed.filter(Boolean).length,
      skipped: parsed.skipped,
    };
  });
}
