import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { ChannelEventPayload, ChannelSessionPayload } from '@shared/schemas/channels';
import { AppError } from '../../core/app-error';
import { lockTenant } from '../../core/tenant-catalog';
import type { EventAudience } from '../../db/entities';
import type { AppDeps } from '../../deps';
import { presentChannel, presentSession } from '../channels/channels.presenter';
import type { ChannelsPort } from '../../channels/channel-port';
import type { AdapterContext, AdapterFactories, AdapterFactory, SessionChange } from '../../channels/adapter-context';
import type { ChannelAdapter, ChannelRecord, ChannelType, SessionStatus } from '../../channels/channel-adapter';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import { registerDefaultInboundHooks } from './inbound/default-hooks';
import { InboundPipeline } from './inbound/inbound-pipeline';
import { canTransition, statesLeadingTo } from '../../channels/session-state';
import { providerFactories, providerOf } from '../../channels/providers';

type Queryable = Pick<EntityManager, 'query'>;

/** How long a webhook may reuse a channel row it read (see webhookRow). */
export const WEBHOOK_ROW_TTL_MS = 2_000;
type RegistryDeps = Pick<AppDeps, 'dataSource' | 'events' | 'logger' | 'config'> & Partial<Pick<AppDeps, 'clock'>>;

/** Session events go to the people who manage connections, never to every agent. */
export const SESSION_AUDIENCE: EventAudience = { scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] };

/** The adapter factories of the providers available (providers.ts); the others are refused (ERR_CHANNEL_TYPE_UNSUPPORTED). */
export function defaultAdapterFactories(deps: RegistryDeps): AdapterFactories {
  return providerFactories(deps);
}

interface CachedAdapter {
  adapter: ChannelAdapter;
  /** Type, provider config and secrets it was built from: a changed row builds a new adapter. */
  fingerprint: string;
}

/**
 * One adapter per channel, built from its row by the provider's factory and cached by channel
 * id; the session state machine (persisted and announced); the loaders every send starts from;
 * and the inbound pipeline (`inbound`) adapters hand received messages to.
 *
 * The cache checks a fingerprint of the row on every `adapterFor`, so an edit made by another
 * server process (new token) is picked up without a cross-process invalidation message.
 */
export class ChannelRegistry implements ChannelsPort {
  readonly inbound: InboundPipeline;
  private readonly factories: AdapterFactories;
  private readonly adapters = new Map<number, CachedAdapter>();
  private readonly background = new Set<Promise<void>>();
  /** Channel rows read by webhooks, briefly: a busy channel's webhooks need not each read it. */
  private readonly rows = new Map<number, { row: ChannelRow; at: number }>();

  constructor(
    private readonly deps: RegistryDeps,
    factories: AdapterFactories = defaultAdapterFactories(deps),
  ) {
    this.factories = { ...factories };
    this.inbound = new InboundPipeline(deps);
    registerDefaultInboundHooks(this.inbound, deps);
  }

  /** Adds (or replaces) the factory of a provider. */
  register(type: ChannelType, factory: AdapterFactory): void {
    this.factories[type] = factory;
    for (const [id, cached] of this.adapters) if (cached.adapter.type === type) this.adapters.delete(id);
  }

  /** Removes a provider's factory (its channels are refused again). */
  unregister(type: ChannelType): void {
    delete this.factories[type];
    for (const [id, cached] of this.adapters) if (cached.adapter.type === type) this.adapters.delete(id);
  }

  supports(type: ChannelType | string): boolean {
    return Object.prototype.hasOwnProperty.call(this.factories, type);
  }

  /**
   * The adapter of a channel, built once per channel id (and rebuilt when its provider
   * settings change). Does not check the session state: see `ready` for sends.
   */
  adapterFor(channel: ChannelRecord): ChannelAdapter {
    const fingerprint = JSON.stringify([channel.type, channel.tenantId, channel.providerConfig, channel.secrets]);
    const cached = this.adapters.get(channel.id);
    if (cached && cached.fingerprint === fingerprint) return cached.adapter;
    const factory = this.factories[channel.type];
    if (!factory) {
      throw new AppError('ERR_CHANNEL_TYPE_UNSUPPORTED', {
        message: `O tipo de conexão "${channel.type}" ainda não é suportado.`,
      });
    }
    const context: AdapterContext = {
      record: channel,
      config: this.deps.config,
      logger: this.deps.logger,
      setStatus: (next, change) => this.setStatus(channel, next, change),
      inbound: this.inbound,
    };
    const adapter = factory(context);
    this.adapters.set(channel.id, { adapter, fingerprint });
    return adapter;
  }

  /** Drops the cached adapter and row (channel deleted or reconfigured). */
  forget(channelId: number): void {
    this.adapters.delete(channelId);
    this.rows.delete(channelId);
  }

  /**
   * A channel row by id alone, for provider webhooks (the id in the callback URL is the only
   * key they carry), reused for up to WEBHOOK_ROW_TTL_MS. Edits made in this process are seen at
   * once (forget); another process's edit within that window, e.g. a rotated app secret, only
   * makes a webhook fail once and Meta delivers it again.
   */
  async webhookRow(channelId: number, type: ChannelType): Promise<ChannelRow | null> {
    const cached = this.rows.get(channelId);
    if (cached && cached.row.type === type && Date.now() - cached.at < WEBHOOK_ROW_TTL_MS) return cached.row;
    const rows: ChannelRow[] = await this.deps.dataSource.query(`SELECT * FROM channels WHERE id = $1 AND type = $2`, [
      channelId,
      type,
    ]);
    if (!rows[0]) {
      this.rows.delete(channelId);
      return null;
    }
    if (this.rows.size > 10_000) this.rows.clear();
    this.rows.set(channelId, { row: rows[0], at: Date.now() });
    return rows[0];
  }

  /** The channel of a tenant, or ERR_NO_WAPP_FOUND (another tenant's channel is not found either). */
  async load(tenantId: number, channelId: number, db: Queryable = this.deps.dataSource): Promise<ChannelRecord> {
    return toChannelRecord(await this.loadRow(tenantId, channelId, db));
  }

  async loadRow(tenantId: number, channelId: number, db: Queryable = this.deps.dataSource): Promise<ChannelRow> {
    const rows: ChannelRow[] = await db.query(`SELECT * FROM channels WHERE id = $1 AND "tenantId" = $2`, [channelId, tenantId]);
    if (!rows[0]) throw new AppError('ERR_NO_WAPP_FOUND');
    return rows[0];
  }

  /** The tenant's default channel, or ERR_NO_DEF_WAPP_FOUND. */
  async loadDefault(tenantId: number, db: Queryable = this.deps.dataSource): Promise<ChannelRecord> {
    const rows: ChannelRow[] = await db.query(`SELECT * FROM channels WHERE "tenantId" = $1 AND "isDefault"`, [tenantId]);
    if (!rows[0]) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    return toChannelRecord(rows[0]);
  }

  /**
   * For sending: the channel (or the tenant's default when `channelId` is null) and its adapter,
   * refusing a session that is not CONNECTED with ERR_WAPP_NOT_INITIALIZED (a send retry loop
   * should treat that as "try later": the session may come back).
   */
  async ready(tenantId: number, channelId: number | null): Promise<{ channel: ChannelRecord; adapter: ChannelAdapter }> {
    const channel = channelId === null ? await this.loadDefault(tenantId) : await this.load(tenantId, channelId);
    const adapter = this.adapterFor(channel);
    if (channel.status !== 'CONNECTED') {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', {
        message: `Sessão não inicializada (conexão "${channel.name}": ${channel.status}).`,
      });
    }
    return { channel, adapter };
  }

  /**
   * Moves a channel's session to `next` if the state machine allows it from the stored state
   * (compare-and-set, so two writers cannot both apply a transition from the same state).
   * Staying in the same state is a no-op (except qrcode -> qrcode: a new code). Persisted on
   * channels.status and announced as `whatsappSession` and `whatsapp:update` to the tenant's
   * supervisors and admins. Answers the stored state.
   */
  async setStatus(
    channel: Pick<ChannelRecord, 'id' | 'tenantId'>,
    next: SessionStatus,
    change: SessionChange = {},
  ): Promise<SessionStatus> {
    return this.deps.events.transaction(async (tx, emit) => {
      // Tenant first, as every channel write does (lock order: tenant -> channel rows).
      await lockTenant(tx, channel.tenantId);
      const sets = ['status = $3', '"updatedAt" = now()'];
      const params: unknown[] = [channel.id, channel.tenantId, next, statesLeadingTo(next)];
      for (const [column, value] of [
        ['statusReason', change.reason],
        ['number', change.number],
        ['qrcode', next === 'qrcode' ? change.qrcode : null],
        ['pairingCode', next === 'qrcode' ? change.pairingCode : null],
      ] as const) {
        if (value === undefined) continue;
        params.push(value);
        sets.push(`"${column}" = $${params.length}`);
      }
      if (next === 'CONNECTED') sets.push('retries = 0');
      const updated: [ChannelRow[], number] = await tx.query(
        `UPDATE channels SET ${sets.join(', ')} WHERE id = $1 AND "tenantId" = $2 AND status = ANY($4::varchar[]) RETURNING *`,
        params,
      );
      const row = updated[0][0];
      if (!row) {
        const [current] = (await tx.query(`SELECT status FROM channels WHERE id = $1 AND "tenantId" = $2`, [
          channel.id,
          channel.tenantId,
        ])) as {
          status: SessionStatus;
        }[];
        if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
        if (current.status === next && !canTransition(next, next)) return current.status;
        throw new AppError('ERR_WAPP_SESSION_TRANSITION', {
          message: `A sessão não pode passar de ${current.status} para ${next}.`,
        });
      }
      const session: ChannelSessionPayload = { action: 'update', session: presentSession(row) };
      const whatsapp: ChannelEventPayload = { action: 'update', whatsapp: presentChannel(row, this.deps.config.publicUrl) };
      await emit(row.tenantId, SOCKET_EVENTS.whatsappSession, session, SESSION_AUDIENCE);
      await emit(row.tenantId, SOCKET_EVENTS.whatsappUpdate, whatsapp, SESSION_AUDIENCE);
      return row.status;
    });
  }

  /** Starts (or restarts) a channel's session through its adapter; answers the state reached. */
  async connect(channel: ChannelRecord): Promise<SessionStatus> {
    const adapter = this.adapterFor(channel);
    await adapter.connect();
    return adapter.status();
  }

  /** Ends a channel's session and forgets its adapter. */
  async disconnect(channel: ChannelRecord): Promise<void> {
    const cached = this.adapters.get(channel.id);
    this.adapters.delete(channel.id);
    if (cached) await cached.adapter.disconnect();
  }

  /**
   * Starts a session without making the caller wait (a channel just created or reconfigured):
   * the outcome arrives as session events; a failure is the state DISCONNECTED with its reason.
   */
  connectInBackground(channel: ChannelRecord): void {
    const task = this.connect(channel)
      .then(() => undefined)
      .catch((err) => this.deps.logger.warn({ err, channelId: channel.id }, 'channel session start failed'));
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }

  /** Resolves when background work started so far (session starts, inbound media, hooks) has settled. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.inbound.idle();
  }

  /**
   * On server start: restarts the sessions of providers that hold a live connection
   * (`resumeOnStart`), for every channel that was up or coming up (CONNECTED, OPENING,
   * CONNECTION_LOST), in the background. One left waiting for a QR scan, timed out or
   * disconnected waits for someone to start it again.
   * Answers how many were started.
   */
  async resumeSessions(): Promise<number> {
    const types = [...new Set(Object.keys(this.factories).filter((t) => providerOf(t)?.resumeOnStart))];
    if (types.length === 0) return 0;
    const rows: ChannelRow[] = await this.deps.dataSource.query(
      `SELECT * FROM channels WHERE type = ANY($1::varchar[]) AND status IN ('CONNECTED', 'OPENING', 'CONNECTION_LOST') ORDER BY id`,
      [types],
    );
    for (const row of rows) this.connectInBackground(toChannelRecord(row));
    return rows.length;
  }

  /**
   * A deleted channel: its adapter ends what it holds at the provider (logs out, removes a
   * webhook or an instance), best effort, then it is forgotten.
   */
  async destroy(channel: ChannelRecord): Promise<void> {
    try {
      const adapter = this.adapterFor(channel);
      if (adapter.destroy) await adapter.destroy();
    } catch (err) {
      this.deps.logger.warn({ err, channelId: channel.id }, 'channel not cleaned up at its provider');
    } finally {
      this.adapters.delete(channel.id);
    }
  }

  /**
   * Waits for background work, then lets adapters close live connections without ending
   * their sessions (`shutdown`), and drops them; on server stop.
   */
  async close(): Promise<void> {
    await this.idle();
    const adapters = [...this.adapters.values()].map((c) => c.adapter);
    this.adapters.clear();
    await Promise.allSettled(adapters.map((a) => a.shutdown?.()));
  }
}

/**
 * The channel's adapter for asking what its provider offers (groups, phone contacts), or
 * undefined when its type has no adapter or its settings cannot build one (a Cloud API channel
 * without its WABA data): either way it offers nothing.
 */
export function adapterOrNone(registry: Pick<ChannelRegistry, 'supports' | 'adapterFor'>, channel: ChannelRecord): ChannelAdapter | undefined {
  if (!registry.supports(channel.type)) return undefined;
  try {
    return registry.adapterFor(channel);
  } catch {
    return undefined;
  }
}
