import type { ChannelProvider } from '../channel-provider';
import { newGatewayWebhookSecret } from '../gateway/gateway-adapter';
import { mountGatewayWebhook } from '../gateway/gateway-webhook';
import { MEOW_SECRET_KEY, MeowAdapter } from './meow-adapter';
import { parseMeowWebhook, type MeowWebhookPayload } from './meow-webhook';

/**
 * Meow channels: a self-hosted whatsmeow-based gateway (meowUrl + meowToken per channel), over
 * the modelled protocol of meow-adapter.ts (not verified against a real Meow server).
 * Webhook: POST /webhooks/meow/:channelId?secret=<secret>. Sessions are read again on start.
 */
export const meowProvider: ChannelProvider = {
  types: ['meow'],
  factory: (deps) => (ctx) => new MeowAdapter(ctx, { publicUrl: deps.config.publicUrl, timeoutMs: deps.config.channelHttpTimeoutMs }),
  routes: (router, deps) =>
    mountGatewayWebhook(router, deps, {
      type: 'meow',
      secretKey: MEOW_SECRET_KEY,
      adapterClass: MeowAdapter,
      parse: (body, record, adapter) => parseMeowWebhook(body as MeowWebhookPayload, record, adapter),
    }),
  initialSecrets: () => ({ [MEOW_SECRET_KEY]: newGatewayWebhookSecret() }),
  resumeOnStart: true,
};
