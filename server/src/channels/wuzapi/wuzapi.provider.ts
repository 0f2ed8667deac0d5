import type { ChannelProvider } from '../channel-provider';
import { newGatewayWebhookSecret } from '../gateway/gateway-adapter';
import { mountGatewayWebhook } from '../gateway/gateway-webhook';
import { WUZAPI_SECRET_KEY, WuzapiAdapter } from './wuzapi-adapter';
import { parseWuzapiWebhook } from './wuzapi-webhook';

/**
 * Wuzapi channels: a self-hosted gateway (wuzapiUrl + the user's wuzapiToken per channel).
 * Webhook: POST /webhooks/wuzapi/:channelId?secret=<secret> (JSON or form `jsonData`).
 * Sessions are read again on start.
 */
export const wuzapiProvider: ChannelProvider = {
  types: ['wuzapi'],
  factory: (deps) => (ctx) => new WuzapiAdapter(ctx, { publicUrl: deps.config.publicUrl, timeoutMs: deps.config.channelHttpTimeoutMs }),
  routes: (router, deps) =>
    mountGatewayWebhook(router, deps, {
      type: 'wuzapi',
      secretKey: WUZAPI_SECRET_KEY,
      adapterClass: WuzapiAdapter,
      parse: (body, record, adapter) => parseWuzapiWebhook(body, record, adapter),
    }),
  initialSecrets: () => ({ [WUZAPI_SECRET_KEY]: newGatewayWebhookSecret() }),
  resumeOnStart: true,
};
