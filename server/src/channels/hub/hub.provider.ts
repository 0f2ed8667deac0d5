import type { ChannelProvider } from '../channel-provider';
import { HubAdapter, newHubWebhookSecret } from './hub-adapter';
import { hubRoutes } from './hub.routes';

/**
 * Notification hub channels (NotificaMe-style HTTP API at HUB_API_BASE_URL; the protocol is
 * documented in hub-client.ts and docs/api.md): text and files out, messages and delivery
 * statuses in on POST /webhooks/hub/:channelId, proven by a per-channel random secret.
 */
export const hubProvider: ChannelProvider = {
  types: ['hub'],
  factory: (deps) => (ctx) =>
    new HubAdapter(ctx, {
      baseUrl: deps.config.hubApiBaseUrl,
      publicUrl: deps.config.publicUrl,
      timeoutMs: deps.config.channelHttpTimeoutMs,
    }),
  routes: hubRoutes,
  // Ours: registered with the hub on connect, which sends it back on every webhook call.
  initialSecrets: () => ({ hubWebhookSecret: newHubWebhookSecret() }),
};
