import type { ChannelProvider } from '../channel-provider';
import { newGatewayWebhookSecret } from '../gateway/gateway-adapter';
import { mountGatewayWebhook } from '../gateway/gateway-webhook';
import { EVOLUTION_SECRET_KEY, EvolutionAdapter } from './evolution-adapter';
import { parseEvolutionWebhook, type EvolutionWebhookPayload } from './evolution-webhook';

/**
 * Evolution API channels ('evo'): a self-hosted gateway (evolutionUrl + evolutionApiKey per
 * channel), version 2.20.0 or later. Webhook: POST /webhooks/evo/:channelId?secret=<secret>.
 * Sessions are read again on start (a QR code waiting to be scanned, a connection that dropped).
 */
export const evolutionProvider: ChannelProvider = {
  types: ['evo'],
  factory: (deps) => (ctx) =>
    new EvolutionAdapter(ctx, { publicUrl: deps.config.publicUrl, timeoutMs: deps.config.channelHttpTimeoutMs }),
  routes: (router, deps) =>
    mountGatewayWebhook(router, deps, {
      type: 'evo',
      secretKey: EVOLUTION_SECRET_KEY,
      adapterClass: EvolutionAdapter,
      parse: (body, record, adapter) => parseEvolutionWebhook(body as EvolutionWebhookPayload, record, adapter),
    }),
  initialSecrets: () => ({ [EVOLUTION_SECRET_KEY]: newGatewayWebhookSecret() }),
  resumeOnStart: true,
};
