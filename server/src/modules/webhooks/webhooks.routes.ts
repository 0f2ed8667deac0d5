import Router from '@koa/router';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import { CHANNEL_PROVIDERS } from '../../channels/providers';
import { TelegramAdapter } from '../../channels/telegram/telegram-adapter';
import { isValidTelegramSecret, parseTelegramUpdate, type TelegramUpdate } from '../../channels/telegram/telegram-webhook';
import { WabaAdapter, wabaSettingsOf } from '../../channels/waba/waba-adapter';
import { isValidSignature, parseWabaWebhook, sameSecret, type WabaWebhookPayload } from '../../channels/waba/waba-webhook';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import type { AppContext } from '../../http/context';
import { intParam } from '../../http/validate';

/**
 * Provider webhooks. Public (the provider calls them), so each one proves itself before
 * anything is read or stored: the channel id in the path names whose secret checks it.
 *   GET  /webhooks/waba/:channelId   Meta's subscription check: hub.challenge as text when
 *                                    hub.verify_token is the channel's verify token, else 403
 *   POST /webhooks/waba/:channelId   X-Hub-Signature-256 over the raw body with the channel's app
 *                                    secret (401 and nothing stored without it), then messages
 *                                    and statuses go to the inbound pipeline; 200 once stored
 *   POST /webhooks/telegram/:channelId X-Telegram-Bot-Api-Secret-Token must equal the channel's
 *                                    random webhook secret (given to setWebhook on connect), else
 *                                    401 and nothing stored; then update.message goes to the
 *                                    inbound pipeline; 200 once stored (Telegram redelivers on
 *                                    errors; the pipeline deduplicates by chat id:message id)
 */
export function webhooksRoutes(deps: AppDeps): Router {
  const router = new Router();

  const wabaChannel = async (ctx: AppContext): Promise<ChannelRow> => {
    const row = await deps.channels.webhookRow(intParam(ctx, 'channelId'), 'waba');
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    return row;
  };

  router.get('/webhooks/waba/:channelId', async (ctx: AppContext) => {
    const channel = await wabaChannel(ctx);
    const expected = typeof channel.secrets?.wabaVerifyToken === 'string' ? channel.secrets.wabaVerifyToken : '';
    const mode = ctx.query['hub.mode'];
    const token = ctx.query['hub.verify_token'];
    const challenge = ctx.query['hub.challenge'];
    if (
      mode !== 'subscribe' ||
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

  router.post('/webhooks/waba/:channelId', async (ctx: AppContext) => {
    const channel = await wabaChannel(ctx);
    const appSecret = typeof channel.secrets?.wabaAppSecret === 'string' ? channel.secrets.wabaAppSecret : '';
    const rawBody = (ctx.request as unknown as { rawBody?: string }).rawBody;
    if (!isValidSignature(rawBody, ctx.get('x-hub-signature-256') || undefined, appSecret)) {
      deps.logger.warn(
        { channelId: channel.id, requestId: ctx.state.requestId },
        'waba webhook with a missing or wrong signature refused',
      );
      throw new AppError('ERR_WEBHOOK_SIGNATURE');
    }
    const record = toChannelRecord(channel);
    const settings = wabaSettingsOf(record);
    const parsed = parseWabaWebhook(
      (ctx.request as unknown as { body?: WabaWebhookPayload }).body ?? {},
      record,
      settings.phoneNumberId,
      (mediaId) => {
        const adapter = deps.channels.adapterFor(record);
        if (!(adapter instanceof WabaAdapter)) throw new Error('the waba adapter cannot download media');
        return adapter.downloadMedia(mediaId);
      },
    );
    // Stored before answering: a failure here is a 500 and Meta delivers again (the pipeline
    // is idempotent), where answering first would lose the message. Media and hooks run after.
    // Queued in payload order: messages first, then statuses (a status may be about a reply
    // to one of these messages); the pipeline batches them with other webhooks of the tenant.
    const [results, changed] = await Promise.all([
      deps.channels.inbound.receive(parsed.messages),
      Promise.all(parsed.statuses.map((status) => deps.channels.inbound.applyStatus(status))),
    ]);
    ctx.body = {
      stored: results.filter((r) => r.outcome === 'stored').length,
      duplicates: results.filter((r) => r.outcome === 'duplicate').length,
      statuses: changed.filter(Boolean).length,
    };
  });

  router.post('/webhooks/telegram/:channelId', async (ctx: AppContext) => {
    const channel = await deps.channels.webhookRow(intParam(ctx, 'channelId'), 'telegram');
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    const expected = typeof channel.secrets?.telegramWebhookSecret === 'string' ? channel.secrets.telegramWebhookSecret : '';
    if (!isValidTelegramSecret(ctx.get('x-telegram-bot-api-secret-token') || undefined, expected)) {
      deps.logger.warn(
        { channelId: channel.id, requestId: ctx.state.requestId },
        'telegram webhook with a missing or wrong secret token refused',
      );
      throw new AppError('ERR_WEBHOOK_SIGNATURE');
    }
    const record = toChannelRecord(channel);
    const message = parseTelegramUpdate((ctx.request as unknown as { body?: TelegramUpdate }).body ?? {}, record, (fileId) => {
      const adapter = deps.channels.adapterFor(record);
      if (!(adapter instanceof TelegramAdapter)) throw new Error('the telegram adapter cannot download files');
      return adapter.downloadFile(fileId);
    });
    // Stored before answering, as for waba: a failure is a 500 and Telegram delivers again.
    const results = message ? await deps.channels.inbound.receive([message]) : [];
    ctx.body = {
      stored: results.filter((r) => r.outcome === 'stored').length,
      duplicates: results.filter((r) => r.outcome === 'duplicate').length,
      skipped: message ? 0 : 1,
    };
  });

  // The other providers mount their own webhooks (server/src/channels/<provider>/).
  for (const provider of CHANNEL_PROVIDERS) provider.routes?.(router, deps);

  return router;
}
