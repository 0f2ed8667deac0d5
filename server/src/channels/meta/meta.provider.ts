import type { ChannelProvider } from '../channel-provider';
import { MetaAdapter } from './meta-adapter';
import { metaRoutes } from './meta.routes';

/**
 * Instagram and Messenger channels (Messenger Platform through a Facebook page): the Graph
 * Send API at META_GRAPH_BASE_URL (meta-adapter.ts), signed webhooks under
 * /webhooks/instagram/:channelId and /webhooks/messenger/:channelId (meta.routes.ts).
 */
export const metaProvider: ChannelProvider = {
  types: ['instagram', 'messenger'],
  factory: (deps) => (ctx) =>
    new MetaAdapter(ctx, { baseUrl: deps.config.metaGraphBaseUrl, timeoutMs: deps.config.channelHttpTimeoutMs }),
  routes: metaRoutes,
};
