import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import {
  EVOLUTION_NAME_LOCKED_MESSAGE,
  GENERIC_PROVIDER_FIELD_NAMES,
  TELEGRAM_TOKEN_REQUIRED_MESSAGE,
  WABA_FIELD_NAMES,
  evolutionInstanceName,
  providerFieldNames,
  type AdminChannelDto,
  type AdminCreateChannelInput,
  type ChannelDto,
  type ChannelEventPayload,
  type CreateChannelInput,
  type GenerativeChatInput,
  type UpdateChannelInput,
} from '@shared/schemas/channels';
import type { StoredTemplateDto, TemplateSyncResult } from '@shared/schemas/templates';
import { ChannelSendError } from '../../channels/channel-adapter';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import { providerOf } from '../../channels/providers';
import { hasTemplates, type WabaMessageTemplate } from '../../channels/waba/waba-adapter';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';
import { SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';
import { lockTenant, type Queryable } from '../../core/tenant-catalog';
import { uniqueViolationOf } from '../../db/pg-errors';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { channelPolicy } from './channels.policy';
import { presentChannel } from './channels.presenter';
import { presentTemplate, saveSyncedTemplates, storedTemplates } from '../templates/template-store';

type ChannelsDeps = Pick<AppDeps, 'dataSource' | 'events' | 'logger' | 'config' | 'channels' | 'clock'>;

/** Behaviour columns a create or an update writes as given. */
const BEHAVIOUR_COLUMNS = [
  'queueId',
  'userId',
  'chatFlowId',
  'farewellMessage',
  'birthdayMessage',
  'birthdayHour',
  'closingKeyword',
  'autoDistribution',
] as const;
const WABA_CONFIG_KEYS = ['wabaPhoneNumberId', 'wabaBusinessAccountId', 'wabaApiVersion'] as const;
const WABA_SECRET_KEYS = ['wabaManagerToken', 'wabaAppSecret', 'wabaVerifyToken'] as const;

/**
 * Channels (the anchor's "whatsapp" connections): list, read, create within the plan's
 * connection limit, configure, delete, choose the tenant's default, list WABA message
 * templates, start or end a session. Provider secrets go in `channels.secrets` and never leave
 * the server. Lock order of every write: tenant row, then channel rows (the session state
 * machine follows it too), so concurrent writes of one tenant cannot deadlock.
 */
export class ChannelsService {
  constructor(private readonly deps: ChannelsDeps) {}

  /**
   * Supervisors and admins get every channel in full. Agents get the list too (their ticket
   * filter and the transfer to another channel name them), reduced to what an agent needs:
   * no webhook URL, provider settings, session details or reasons.
   */
  async list(auth: AuthContext): Promise<ChannelDto[]> {
    const agent = !isSupervisorProfile(auth.profile);
    if (!agent) channelPolicy.authorize(auth, 'list');
    const rows: ChannelRow[] = await this.deps.dataSource.query(
      `SELECT * FROM channels WHERE "tenantId" = $1 ORDER BY lower(name), id`,
      [auth.tenantId],
    );
    return rows.map((row) => (agent ? forAgents(this.present(row)) : this.present(row)));
  }

  /** GET /admin/channels: every tenant's channels (superadmin), by tenant then name. */
  async listAllTenants(auth: AuthContext): Promise<AdminChannelDto[]> {
    // The platform's super administrator (tenant 1), not any `superadmin` profile (LESSONS item 6).
    requirePlatformSuperadmin(auth);
    const rows: (ChannelRow & { tenantName: string })[] = await this.deps.dataSource.query(
      `SELECT c.*, t.name AS "tenantName" FROM channels c JOIN tenants t ON t.id = c."tenantId"
        ORDER BY lower(t.name), t.id, lower(c.name), c.id`,
    );
    return rows.map((row) => ({ ...this.present(row), tenantId: row.tenantId, tenantName: row.tenantName }));
  }

  /** POST /admin/channels: the superadmin creates a channel for a tenant, within that tenant's plan. */
  async createForTenant(auth: AuthContext, input: AdminCreateChannelInput): Promise<AdminChannelDto> {
    // The platform's super administrator (tenant 1), not any `superadmin` profile (LESSONS item 6).
    requirePlatformSuperadmin(auth);
    const { tenantId, ...body } = input;
    const [tenant]: { id: number; name: string }[] = await this.deps.dataSource.query(
      `SELECT id, name FROM tenants WHERE id = $1`,
      [tenantId],
    );
    if (!tenant) throw new AppError('ERR_NO_TENANT_FOUND');
    const created = await this.create({ ...auth, tenantId: tenant.id }, body as CreateChannelInput);
    return { ...created, tenantId: tenant.id, tenantName: tenant.name };
  }

  async get(auth: AuthContext, id: number): Promise<ChannelDto> {
    return this.present(channelPolicy.authorizeRow(auth, 'read', await findChannel(this.deps.dataSource, id)));
  }

  async create(auth: AuthContext, input: CreateChannelInput): Promise<ChannelDto> {
    channelPolicy.authorize(auth, 'create');
    if (!this.deps.channels.supports(input.type)) {
      throw new AppError('ERR_CHANNEL_TYPE_UNSUPPORTED', {
        message: `O tipo de conexão "${input.type}" ainda não é suportado.`,
        fields: [{ path: 'type', message: 'tipo de conexão ainda não suportado' }],
      });
    }
    if (input.type === 'telegram' && !input.tokenTelegram) {
      throw new AppError('ERR_VALIDATION', {
        message: TELEGRAM_TOKEN_REQUIRED_MESSAGE,
        fields: [{ path: 'tokenTelegram', message: TELEGRAM_TOKEN_REQUIRED_MESSAGE }],
      });
    }
    if (input.type !== 'telegram' && input.tokenTelegram !== undefined) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'tokenTelegram', message: `não se aplica a conexões ${input.type}` }],
      });
    }
    const row = await this.deps.events.transaction(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const [usage] = (await tx.query(
        `SELECT t."maxConnections" AS max, (SELECT count(*)::int FROM channels c WHERE c."tenantId" = t.id) AS used,
                EXISTS (SELECT 1 FROM channels c WHERE c."tenantId" = t.id AND c."isDefault") AS "hasDefault"
           FROM tenants t WHERE t.id = $1`,
        [auth.tenantId],
      )) as { max: number; used: number; hasDefault: boolean }[];
      if (!usage || usage.used >= usage.max) throw new AppError('ERR_CONNECTION_LIMIT');
      await assertReferences(tx, auth.tenantId, input);
      // The tenant's first channel becomes its default (messages need one to start a ticket).
      const isDefault = input.isDefault ?? !usage.hasDefault;
      if (isDefault) await clearDefault(tx, auth.tenantId);
      const generic = providerFieldNames(input.type);
      const config: Record<string, unknown> = {
        ...(input.type === 'waba' ? pick(input, WABA_CONFIG_KEYS) : {}),
        ...pick(input as Record<string, unknown>, generic.config),
      };
      const options = parseOptions(input.options);
      if (options) config.options = options;
      const secrets: Record<string, unknown> = {
        ...(input.type === 'waba' ? pick(input, WABA_SECRET_KEYS) : {}),
        ...(input.type === 'telegram' ? { tokenTelegram: input.tokenTelegram } : {}),
        ...pick(input as Record<string, unknown>, generic.secrets),
        ...(providerOf(input.type)?.initialSecrets?.() ?? {}),
      };
      // Spec section 5: an Evolution channel's name (its instance name at the gateway) loses
      // spaces and special characters, and cannot be edited afterwards.
      const name = input.type === 'evo' ? evolutionInstanceName(input.name) : input.name;
      if (name === '') {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'name', message: 'deve conter letras ou números (espaços e caracteres especiais são removidos)' }],
        });
      }
      const columns = BEHAVIOUR_COLUMNS.filter((c) => input[c] !== undefined);
      const params: unknown[] = [
        auth.tenantId,
        name,
        input.type,
        isDefault,
        JSON.stringify(config),
        JSON.stringify(secrets),
        ...columns.map((c) => input[c]),
      ];
      const [created]: ChannelRow[] = await tx.query(
        `INSERT INTO channels ("tenantId", name, type, "isDefault", "providerConfig", secrets${columns.map((c) => `, "${c}"`).join('')})
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb${columns.map((_, i) => `, $${i + 7}`).join('')})
         RETURNING *`,
        params,
      );
      await this.announce(emit, created, 'create');
      return created;
    });
    this.deps.channels.connectInBackground(toChannelRecord(row));
    return this.present(row);
  }

  /**
   * Writes the fields present. Secrets absent from the body keep their stored value; new
   * provider settings drop the cached adapter and check the session again.
   */
  async update(auth: AuthContext, id: number, input: UpdateChannelInput): Promise<ChannelDto> {
    let reconnect = false;
    const row = await this.deps.events.transaction(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const current = channelPolicy.authorizeRow(auth, 'update', await findChannel(tx, id, true));
      const providerFields = WABA_FIELD_NAMES.filter((k) => input[k] !== undefined);
      if (current.type !== 'waba' && providerFields.length > 0) {
        throw new AppError('ERR_VALIDATION', {
          fields: providerFields.map((k) => ({ path: k, message: `não se aplica a conexões ${current.type}` })),
        });
      }
      if (current.type !== 'telegram' && input.tokenTelegram !== undefined) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'tokenTelegram', message: `não se aplica a conexões ${current.type}` }],
        });
      }
      const generic = providerFieldNames(current.type);
      const foreign = GENERIC_PROVIDER_FIELD_NAMES.filter(
        (k) => (input as Record<string, unknown>)[k] !== undefined && !generic.config.includes(k) && !generic.secrets.includes(k),
      );
      if (foreign.length > 0) {
        throw new AppError('ERR_VALIDATION', {
          fields: foreign.map((k) => ({ path: k, message: `não se aplica a conexões ${current.type}` })),
        });
      }
      if (current.type === 'evo' && input.name !== undefined && input.name !== current.name) {
        throw new AppError('ERR_VALIDATION', {
          message: EVOLUTION_NAME_LOCKED_MESSAGE,
          fields: [{ path: 'name', message: EVOLUTION_NAME_LOCKED_MESSAGE }],
        });
      }
      await assertReferences(tx, auth.tenantId, input);
      const sets: string[] = [];
      const params: unknown[] = [current.id, auth.tenantId];
      const set = (column: string, value: unknown, cast = '') => {
        params.push(value);
        sets.push(`"${column}" = $${params.length}${cast}`);
      };
      if (input.name !== undefined) set('name', input.name);
      for (const c of BEHAVIOUR_COLUMNS) if (input[c] !== undefined) set(c, input[c]);
      const config: Record<string, unknown> = {
        ...pick(input, WABA_CONFIG_KEYS),
        ...pickSettings(input as Record<string, unknown>, generic.config),
      };
      if (input.options !== undefined) config.options = parseOptions(input.options);
      const secrets: Record<string, unknown> = {
        ...pick(input, WABA_SECRET_KEYS),
        ...pick(input as Record<string, unknown>, generic.secrets),
      };
      if (input.tokenTelegram) secrets.tokenTelegram = input.tokenTelegram;
      reconnect =
        Object.entries(config).some(([k, v]) => JSON.stringify(current.providerConfig?.[k] ?? null) !== JSON.stringify(v)) ||
        Object.entries(secrets).some(([k, v]) => current.secrets?.[k] !== v);
      if (Object.keys(config).length > 0) {
        params.push(JSON.stringify(config));
        sets.push(`"providerConfig" = "providerConfig" || $${params.length}::jsonb`);
      }
      if (Object.keys(secrets).length > 0) {
        params.push(JSON.stringify(secrets));
        sets.push(`secrets = secrets || $${params.length}::jsonb`);
      }
      if (input.generativeChat === null) {
        sets.push(`integrations = integrations - 'generativeChat'`);
      } else if (input.generativeChat !== undefined) {
        params.push(JSON.stringify({ generativeChat: generativeChatToStore(input.generativeChat, current.integrations) }));
        sets.push(`integrations = integrations || $${params.length}::jsonb`);
      }
      if (input.isDefault === true && !current.isDefault) await clearDefault(tx, auth.tenantId);
      if (input.isDefault !== undefined) set('isDefault', input.isDefault);
      const [updated]: ChannelRow[] = (
        await tx.query(
          `UPDATE channels SET ${[...sets, '"updatedAt" = now()'].join(', ')} WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
          params,
        )
      )[0];
      await this.announce(emit, updated, 'update');
      return updated;
    });
    this.deps.channels.forget(row.id);
    if (reconnect) this.deps.channels.connectInBackground(toChannelRecord(row));
    return this.present(row);
  }

  /** Tickets and messages keep their history: their channel reference becomes empty. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    const removed = await this.deps.events.transaction(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const current = channelPolicy.authorizeRow(auth, 'delete', await findChannel(tx, id, true));
      try {
        await tx.query(`DELETE FROM channels WHERE id = $1 AND "tenantId" = $2`, [current.id, auth.tenantId]);
      } catch (err) {
        // Its tickets lose their channel; a contact with an active ticket here and another
        // active one without channel would end with two (the one-active-ticket index refuses).
        if (uniqueViolationOf(err) === 'tickets_one_active_uq') {
          throw new AppError('ERR_OTHER_OPEN_TICKET', {
            message:
              'Há atendimentos em andamento nesta conexão de contatos que já têm outro atendimento aberto. Encerre-os antes de excluir a conexão.',
          });
        }
        throw err;
      }
      const payload: ChannelEventPayload = { action: 'delete', id: current.id };
      await emit(auth.tenantId, SOCKET_EVENTS.whatsappDelete, payload);
      return current;
    });
    // The adapter ends what the channel holds at its provider (Telegram's webhook, a
    // Baileys login, a gateway instance), best effort: the channel is gone either way.
    await this.deps.channels.destroy(toChannelRecord(removed));
    this.deps.channels.forget(id);
  }

  /**
   * PUT /whatsapp/{whatsappId}/birthday and /farewell (screens /aniversarios and /fechamento):
   * a channel's automatic messages. Supervisors may write these (spec section 2: birthdays and
   * closing messages are in their menu) although the rest of a channel is for admins only.
   */
  async updateAutomaticMessages(
    auth: AuthContext,
    id: number,
    input: Partial<Record<'birthdayMessage' | 'farewellMessage', string | null> & { birthdayHour: number | null }>,
  ): Promise<ChannelDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const current = assertSameTenant(auth, await findChannel(tx, id, true), channelPolicy.notFound);
      requireProfile(auth, SUPERVISOR_PROFILES);
      const sets: string[] = [];
      const params: unknown[] = [current.id, auth.tenantId];
      for (const column of ['birthdayMessage', 'birthdayHour', 'farewellMessage'] as const) {
        if (input[column] === undefined) continue;
        params.push(input[column]);
        sets.push(`"${column}" = $${params.length}`);
      }
      const [updated]: ChannelRow[] = (
        await tx.query(
          `UPDATE channels SET ${[...sets, '"updatedAt" = now()'].join(', ')} WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
          params,
        )
      )[0];
      await this.announce(emit, updated, 'update');
      return this.present(updated);
    });
  }

  /** PUT /whatsapp/{whatsappId}/default: the one default channel of the tenant (partial unique index). */
  async setDefault(auth: AuthContext, id: number): Promise<ChannelDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const current = channelPolicy.authorizeRow(auth, 'update', await findChannel(tx, id, true));
      if (current.isDefault) return this.present(current);
      const previous: ChannelRow[] = (
        await tx.query(
          `UPDATE channels SET "isDefault" = false, "updatedAt" = now() WHERE "tenantId" = $1 AND "isDefault" RETURNING *`,
          [auth.tenantId],
        )
      )[0];
      const [updated]: ChannelRow[] = (
        await tx.query(
          `UPDATE channels SET "isDefault" = true, "updatedAt" = now() WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
          [current.id, auth.tenantId],
        )
      )[0];
      for (const p of previous) await this.announce(emit, p, 'update');
      await this.announce(emit, updated, 'update');
      return this.present(updated);
    });
  }

  /**
   * GET /whatsapp/{whatsappId}/templates: the channel's stored message templates (waba), as the
   * last sync left them. `refresh` syncs first when none is stored yet.
   */
  async templates(auth: AuthContext, id: number, opts: { refresh?: boolean } = {}): Promise<StoredTemplateDto[]> {
    const row = channelPolicy.authorizeRow(auth, 'read', await findChannel(this.deps.dataSource, id));
    this.templateAdapter(row);
    const stored = await storedTemplates(this.deps.dataSource, row.tenantId, row.id);
    if (stored.length === 0 && opts.refresh) return (await this.syncTemplates(auth, id)).templates;
    return stored.map(presentTemplate);
  }

  /**
   * POST /whatsapp/{whatsappId}/templates/sync: reads every template of the business account
   * (Graph API) and stores them: new ones added, known ones updated, the ones Meta no longer
   * lists removed. Admins and supervisors of the tenant.
   */
  async syncTemplates(auth: AuthContext, id: number): Promise<TemplateSyncResult> {
    const row = channelPolicy.authorizeRow(auth, 'read', await findChannel(this.deps.dataSource, id));
    const adapter = this.templateAdapter(row);
    let listed: WabaMessageTemplate[];
    try {
      listed = await adapter.listTemplates();
    } catch (err) {
      if (!(err instanceof ChannelSendError)) throw err;
      if (err.retryable)
        throw new AppError('ERR_CHANNEL_UNAVAILABLE', { message: `O provedor da conexão não respondeu: ${err.message}` });
      throw new AppError('ERR_WABA_INVALID_DATA', { message: `Ops! Dados WABA incorretos: ${err.message}` });
    }
    const now = this.deps.clock.now();
    const counts = await this.deps.dataSource.transaction((tx) => saveSyncedTemplates(tx, row.tenantId, row.id, listed, now));
    const templates = (await storedTemplates(this.deps.dataSource, row.tenantId, row.id)).map(presentTemplate);
    return { templates, counts };
  }

  private templateAdapter(row: ChannelRow) {
    const adapter = this.deps.channels.adapterFor(toChannelRecord(row));
    if (!hasTemplates(adapter)) {
      throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
        message: 'Modelos de mensagem existem apenas em conexões WABA.',
      });
    }
    return adapter;
  }

  /** POST|PUT /whatsappsession/{whatsappId}: (re)starts the session; answers the channel after the attempt. */
  async startSession(auth: AuthContext, id: number): Promise<ChannelDto> {
    const row = channelPolicy.authorizeRow(auth, 'update', await findChannel(this.deps.dataSource, id));
    await this.deps.channels.connect(toChannelRecord(row));
    return this.get(auth, id);
  }

  /** DELETE /whatsappsession/{whatsappId}: ends the session. */
  async endSession(auth: AuthContext, id: number): Promise<ChannelDto> {
    const row = channelPolicy.authorizeRow(auth, 'update', await findChannel(this.deps.dataSource, id));
    const record = toChannelRecord(row);
    await this.deps.channels.adapterFor(record).disconnect();
    this.deps.channels.forget(row.id);
    return this.get(auth, id);
  }

  private present(row: ChannelRow): ChannelDto {
    return presentChannel(row, this.deps.config.publicUrl);
  }

  private async announce(emit: Emit, row: ChannelRow, action: 'create' | 'update'): Promise<void> {
    const payload: ChannelEventPayload = { action, whatsapp: this.present(row) };
    await emit(row.tenantId, SOCKET_EVENTS.whatsappUpdate, payload);
  }
}

async function findChannel(db: Queryable, id: number, forUpdate = false): Promise<ChannelRow | null> {
  const rows: ChannelRow[] = await db.query(`SELECT * FROM channels WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

async function clearDefault(tx: EntityManager, tenantId: number): Promise<void> {
  await tx.query(`UPDATE channels SET "isDefault" = false, "updatedAt" = now() WHERE "tenantId" = $1 AND "isDefault"`, [
    tenantId,
  ]);
}

/** The default queue, user and chatbot flow of a channel must be the tenant's own. */
async function assertReferences(
  db: Queryable,
  tenantId: number,
  input: { queueId?: number | null; userId?: number | null; chatFlowId?: number | null },
): Promise<void> {
  if (input.chatFlowId) {
    const rows: unknown[] = await db.query(`SELECT 1 FROM chat_flows WHERE id = $1 AND "tenantId" = $2`, [
      input.chatFlowId,
      tenantId,
    ]);
    if (rows.length === 0)
      throw new AppError('ERR_NO_CHATFLOW_FOUND', {
        status: 400,
        fields: [{ path: 'chatFlowId', message: 'fluxo não encontrado' }],
      });
  }
  if (input.queueId) {
    const rows: unknown[] = await db.query(`SELECT 1 FROM queues WHERE id = $1 AND "tenantId" = $2`, [input.queueId, tenantId]);
    if (rows.length === 0)
      throw new AppError('ERR_NO_QUEUE_FOUND', { status: 400, fields: [{ path: 'queueId', message: 'fila não encontrada' }] });
  }
  if (input.userId) {
    const rows: unknown[] = await db.query(`SELECT 1 FROM users WHERE id = $1 AND "tenantId" = $2`, [input.userId, tenantId]);
    if (rows.length === 0)
      throw new AppError('ERR_NO_USER_FOUND', { status: 400, fields: [{ path: 'userId', message: 'usuário não encontrado' }] });
  }
}

function isSupervisorProfile(profile: AuthContext['profile']): boolean {
  return (SUPERVISOR_PROFILES as readonly string[]).includes(profile);
}

/** What an agent sees of a channel: its identity and whether it is up, nothing of its setup. */
function forAgents(dto: ChannelDto): ChannelDto {
  return {
    ...dto,
    statusReason: null,
    qrcode: null,
    pairingCode: null,
    webhookUrl: null,
    providerSettings: {},
    storedSecrets: [],
    options: null,
    wabaPhoneNumberId: null,
    wabaBusinessAccountId: null,
    wabaApiVersion: null,
    hasManagerToken: false,
    hasAppSecret: false,
    hasVerifyToken: false,
    hasTelegramToken: false,
    generativeChat: null,
  };
}

/**
 * What `integrations.generativeChat` becomes: the settings as given; the key typed, else the
 * stored one (an empty key field keeps it), none when `clearApiKey`. Read under the row lock.
 */
function generativeChatToStore(
  input: GenerativeChatInput,
  integrations: Record<string, unknown> | undefined,
): { enabled: boolean; baseUrl: string; model: string; apiKey?: string } {
  const storedKey = (integrations?.generativeChat as { apiKey?: unknown } | undefined)?.apiKey;
  const apiKey = input.clearApiKey ? undefined : input.apiKey || (typeof storedKey === 'string' && storedKey ? storedKey : undefined);
  return { enabled: input.enabled, baseUrl: input.baseUrl, model: input.model, ...(apiKey ? { apiKey } : {}) };
}

/** Settings of a generic provider as given: a null clears one (optional settings). */
function pickSettings(input: Record<string, unknown>, keys: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of keys) if (typeof input[k] === 'string' || input[k] === null) out[k] = input[k] as string | null;
  return out;
}

/** The advanced options JSON text (validated by the schema) as an object; '' or null: none. */
function parseOptions(text: string | null | undefined): Record<string, unknown> | null {
  if (text === undefined || text === null || text.trim() === '') return null;
  return JSON.parse(text) as Record<string, unknown>;
}

function pick<K extends string>(input: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) if (typeof input[k] === 'string') out[k] = input[k] as string;
  return out;
}
