import type Router from '@koa/router';
import type { AdapterFactory } from './adapter-context';
import type { ChannelType } from './channel-adapter';
import type { ProviderDeps, WebhookDeps } from './channel-port';

export type { ProviderDeps, WebhookDeps };


/**
 * One messaging provider, self-contained in `server/src/channels/<provider>/`: the channel
 * types it serves, how it builds their adapters, and its webhook routes. Listed once in
 * `providers.ts`; the registry, the channels service and the webhook router read that list, so
 * adding a provider touches no shared file besides it.
 */
export interface ChannelProvider {
  readonly types: readonly ChannelType[];
  /**
   * Builds the adapter of one channel. Absent: the provider is not available yet, and creating
   * a channel of its types answers ERR_CHANNEL_TYPE_UNSUPPORTED.
   */
  readonly factory?: (deps: ProviderDeps) => AdapterFactory;
  /**
   * Public webhook routes under `/webhooks/<type>/:channelId` (no user token: each route proves
   * the caller with the provider's signature or a per-channel secret before reading anything).
   */
  readonly routes?: (router: Router, deps: WebhookDeps) => void;
  /** Secrets the server generates when a channel of this provider is created (e.g. a webhook secret). */
  readonly initialSecrets?: () => Record<string, unknown>;
  /**
   * Whether the server restarts this provider's sessions when it starts (sessions that hold a
   * live connection: Baileys, gateways polling state). Webhook-only providers need nothing.
   */
  readonly resumeOnStart?: boolean;
}
