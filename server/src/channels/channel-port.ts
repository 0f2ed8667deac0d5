import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { DomainEvents } from '../realtime/domain-events';
import type { ChannelAdapter, ChannelRecord, ChannelType, GroupEvent, InboundMessage, StatusUpdate } from './channel-adapter';
import type { ChannelRow } from './channel-row';

/**
 * The port between the providers (`server/src/channels/**`) and the messaging domain
 * (`server/src/modules/messaging`: the channel registry, the inbound pipeline and its hooks).
 *
 * The rule (docs/architecture.md, "Providers and the messaging domain"): a provider normalises
 * what its service sends into `InboundMessage` / `StatusUpdate` and hands them to `InboundPort`,
 * and sends through its own `ChannelAdapter`; it never imports `server/src/modules` or
 * `server/src/deps.ts`. The messaging domain implements these interfaces and is the only side
 * that knows tickets, contacts and messages. An import test (architecture.test.ts) keeps it so.
 */

/** What happened to one inbound message. */
export interface InboundResult {
  providerMessageId: string;
  /** stored: a new message; duplicate: already stored (nothing written, nothing emitted); reaction: applied to its target; ignored: nothing to attach it to. */
  outcome: 'stored' | 'duplicate' | 'reaction' | 'ignored';
  messageId?: number;
  ticketId?: number;
  contactId?: number;
  ticketCreated?: boolean;
  contactCreated?: boolean;
}

/** Where providers hand normalised inbound messages and delivery statuses (the inbound pipeline). */
export interface InboundPort {
  receive(messages: readonly InboundMessage[]): Promise<InboundResult[]>;
  /** Answers whether a stored message changed. */
  applyStatus(update: StatusUpdate): Promise<boolean>;
  /**
   * Group membership and group details changed (providers with groups). Handled in the
   * background by the messaging domain's group hooks (moderation, greetings, the stored groups).
   */
  groupEvent?(event: GroupEvent): Promise<void>;
}

/** What a provider's webhook route needs of the channel registry. */
export interface ChannelsPort {
  /** The channel row a webhook names (cached briefly), or null when no channel of that type has the id. */
  webhookRow(channelId: number, type: ChannelType): Promise<ChannelRow | null>;
  adapterFor(channel: ChannelRecord): ChannelAdapter;
  readonly inbound: InboundPort;
}

/** What a provider's factory may use to build adapters. */
export interface ProviderDeps {
  dataSource: DataSource;
  events: DomainEvents;
  logger: Logger;
  config: Config;
}

/** What a provider's webhook routes may use. */
export interface WebhookDeps extends ProviderDeps {
  channels: ChannelsPort;
}
