import type { ChannelAdapter, ChannelRecord, SessionStatus } from '../../channels/channel-adapter';
import type { SessionChange } from '../../channels/adapter-context';
import { ChannelSendError } from '../../channels/channel-adapter';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import { providerOf } from '../../channels/providers';
import type { AppDeps } from '../../deps';

/** Sends in a row to a channel that found its provider unreachable before the channel is marked so. */
export const UNREACHABLE_AFTER_FAILURES = 3;
export const CHANNEL_PROBE_JOB = 'channels.provider-probe';
/** How often a channel marked unreachable asks its provider whether it is back. */
export const CHANNEL_PROBE_INTERVAL_MS = 10_000;
/** Channels probed at once. */
const PROBE_CONCURRENCY = 8;

/** The reason shown on the connection (connections screen, session events) while its provider is unreachable. */
export const providerUnreachableReason = (detail: string): string =>
  `Provedor inacessível (${detail.replace(/\.$/, '')}). As mensagens aguardam e serão enviadas quando ele voltar.`;

/** The registry as reachability needs it (AppDeps.channels). */
export interface ReachabilityRegistry {
  adapterFor(channel: ChannelRecord): ChannelAdapter | Promise<ChannelAdapter>;
  setStatus(channel: Pick<ChannelRecord, 'id' | 'tenantId'>, next: SessionStatus, change?: SessionChange): Promise<SessionStatus>;
}

/**
 * Channel session state published when a provider cannot be reached (issue #12, item 4).
 *
 * For providers whose session is only their HTTP API (those with `checkProvider`: Cloud API,
 * Messenger Platform, Telegram, hub), UNREACHABLE_AFTER_FAILURES sends in a row that got no
 * answer or a 5xx, confirmed by a health check of the provider that fails the same way (a
 * provider that answers its check while some sends fail is not unreachable: those messages
 * spend their tries as usual), move the channel CONNECTED -> CONNECTION_LOST with a Portuguese
 * reason; the
 * session events (`whatsappSession`, `whatsapp:update`) reach the tenant's supervisors and
 * admins as for any session change, and the connections screen shows the reason. While it is
 * lost its messages wait without spending tries (the delivery's "waiting for the channel").
 * A periodic probe asks each such channel's provider (`checkProvider`) and, once it answers,
 * moves the channel back to CONNECTED and makes its waiting messages due at once (`restored`).
 * An answer that refuses the credentials (4xx) ends the wait too: the channel goes
 * DISCONNECTED with the provider's reason, as a failed connect would.
 *
 * The failure count is per process (a send that succeeds resets it); the probe is a periodic
 * task, so one process runs it at a time.
 */
export class ChannelReachability {
  private readonly failures = new Map<number, number>();

  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'logger'>,
    private readonly registry: () => ReachabilityRegistry | undefined,
    private readonly restored: (channel: ChannelRecord) => Promise<void>,
  ) {}

  /** A send to `channel` failed with `err`; answers whether the channel was marked unreachable now. */
  async sendFailed(channel: ChannelRecord, adapter: ChannelAdapter, err: unknown): Promise<boolean> {
    if (!(err instanceof ChannelSendError) || !err.providerUnreachable || !adapter.checkProvider) {
      this.failures.delete(channel.id);
      return false;
    }
    const count = (this.failures.get(channel.id) ?? 0) + 1;
    if (count < UNREACHABLE_AFTER_FAILURES) {
      this.failures.set(channel.id, count);
      return false;
    }
    this.failures.delete(channel.id);
    const registry = this.registry();
    if (!registry) return false;
    // Sends failing while the provider answers its health check (a 5xx on some sends only) is
    // not an unreachable provider: those messages spend their tries as usual.
    let reason: string;
    try {
      await adapter.checkProvider();
      return false;
    } catch (check) {
      if (!(check instanceof ChannelSendError) || !check.providerUnreachable) return false;
      reason = check.message;
    }
    try {
      const now = await registry.setStatus(channel, 'CONNECTION_LOST', { reason: providerUnreachableReason(reason) });
      this.deps.logger.warn({ channelId: channel.id, reason }, 'channel provider unreachable: sends wait for it');
      return now === 'CONNECTION_LOST';
    } catch (e) {
      // The session moved meanwhile (disconnected by an admin, reconnecting): that state stands.
      this.deps.logger.info({ err: e, channelId: channel.id }, 'channel not marked unreachable');
      return false;
    }
  }

  sendSucceeded(channelId: number): void {
    this.failures.delete(channelId);
  }

  /** Asks the provider of every channel lost this way whether it is back; answers how many came back. */
  async probe(): Promise<number> {
    const registry = this.registry();
    if (!registry) return 0;
    const rows: ChannelRow[] = await this.deps.dataSource.query(`SELECT * FROM channels WHERE status = 'CONNECTION_LOST' ORDER BY id`);
    // Providers that hold their own session (Baileys, gateways) report CONNECTION_LOST and its end themselves.
    const queue = rows.filter((r) => providerOf(r.type)?.resumeOnStart !== true).map(toChannelRecord);
    let back = 0;
    const worker = async () => {
      for (let channel = queue.shift(); channel; channel = queue.shift()) {
        if (await this.probeOne(registry, channel)) back++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, queue.length) }, worker));
    return back;
  }

  private async probeOne(registry: ReachabilityRegistry, channel: ChannelRecord): Promise<boolean> {
    let adapter: ChannelAdapter;
    try {
      adapter = await registry.adapterFor(channel);
    } catch {
      return false;
    }
    if (!adapter.checkProvider) return false;
    try {
      await adapter.checkProvider();
    } catch (err) {
      if (err instanceof ChannelSendError && !err.providerUnreachable && !err.retryable) {
        await registry
          .setStatus(channel, 'DISCONNECTED', { reason: err.message })
          .catch((e) => this.deps.logger.info({ err: e, channelId: channel.id }, 'channel state not changed'));
      }
      return false;
    }
    try {
      if ((await registry.setStatus(channel, 'CONNECTED', { reason: null })) !== 'CONNECTED') return false;
    } catch (err) {
      this.deps.logger.info({ err, channelId: channel.id }, 'channel state not changed');
      return false;
    }
    this.failures.delete(channel.id);
    this.deps.logger.info({ channelId: channel.id }, 'channel provider reachable again');
    await this.restored(channel);
    return true;
  }
}
