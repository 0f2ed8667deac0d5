import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, CATALOG_TEXT_MAX, atLeastOneField, catalogName } from './catalog-fields';
import { recordId, recordIdSchema } from './record-id';

/**
 * Channels ("whatsapp" connections of the anchor API, spec sections 3 and 5): request bodies
 * shared with the React client, and answers. Provider secrets are write-only: an answer says
 * whether one is stored (`hasManagerToken`), never its value.
 */

export const CHANNEL_TYPE_VALUES = [
  'waba',
  'baileys',
  'whatsapp',
  'meow',
  'evo',
  'wuzapi',
  'telegram',
  'hub',
  'instagram',
  'messenger',
] as const;
export const AUTO_DISTRIBUTION_VALUES = ['none', 'random', 'balanced'] as const;
export const SESSION_STATUS_VALUES = ['qrcode', 'OPENING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT', 'CONNECTION_LOST'] as const;

const REQUIRED = 'é obrigatório';

const optionalText = (max: number) =>
  z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(max, { error: `no máximo ${max} caracteres` })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

const optionalId = recordId.nullable().optional();

/** Graph API object ids (phone number id, WhatsApp Business Account id) are decimal digits. */
const graphId = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .regex(/^\d{5,25}$/, { error: 'deve conter apenas dígitos' });

const secret = (max: number) =>
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED })
    .max(max, { error: `no máximo ${max} caracteres` });

/** The WhatsApp Cloud API fields of a `waba` channel. */
export const wabaFields = {
  wabaPhoneNumberId: graphId,
  wabaBusinessAccountId: graphId,
  /** Graph API version, e.g. v21.0. */
  wabaApiVersion: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED })
    .regex(/^v\d{1,3}\.\d{1,2}$/, { error: 'deve ter o formato vNN.N (ex.: v21.0)' }),
  wabaManagerToken: secret(2048),
  wabaAppSecret: secret(256),
  wabaVerifyToken: secret(256),
};

export const WABA_FIELD_NAMES = Object.keys(wabaFields) as (keyof typeof wabaFields)[];

/** The bot token of a `telegram` channel (from @BotFather: `<digits>:<35 characters>`). */
export const TELEGRAM_TOKEN_REQUIRED_MESSAGE = 'É necessário informar o token para o Telegram.';
const tokenTelegram = z.string({ error: TELEGRAM_TOKEN_REQUIRED_MESSAGE }).trim().max(256, { error: 'no máximo 256 caracteres' });

/** An http(s) URL of a self-hosted gateway (Evolution, Wuzapi, Meow); no trailing slash kept. */
const gatewayUrl = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .max(500, { error: 'no máximo 500 caracteres' })
  .regex(/^https?:\/\/[^\s/$.?#][^\s]*$/i, { error: 'deve ser um endereço http(s)' })
  .transform((v) => v.replace(/\/+$/, ''));

const optionalDigits = z
  .string({ error: 'deve conter apenas dígitos' })
  .trim()
  .regex(/^\d{8,15}$/, { error: 'deve ter de 8 a 15 dígitos, com o código do país' })
  .nullable()
  .optional();

const optionalProxy = z
  .string({ error: 'deve ser um endereço de proxy' })
  .trim()
  .regex(/^(https?|socks[45]?):\/\/\S+$/i, { error: 'deve ser um endereço de proxy (http://, https:// ou socks5://)' })
  .nullable()
  .optional();

/**
 * Provider fields of the channel types other than waba and telegram (which keep their own
 * fields above). `config` fields are settings stored in `providerConfig` and shown back;
 * `secrets` are write-only (an answer says which are stored, never their value). A field is
 * required on creation for its type unless it is listed in `optional`. The same name means the
 * same rule in every type that has it.
 */
export const PROVIDER_FIELDS = {
  instagram: {
    config: { fbPageId: graphId, instagramBusinessId: graphId },
    secrets: { fbPageAccessToken: secret(2048), fbAppSecret: secret(256), fbVerifyToken: secret(256) },
    optional: [],
  },
  messenger: {
    config: { fbPageId: graphId },
    secrets: { fbPageAccessToken: secret(2048), fbAppSecret: secret(256), fbVerifyToken: secret(256) },
    optional: [],
  },
  hub: {
    config: { hubChannelId: secret(200) },
    secrets: { hubToken: secret(2048) },
    optional: [],
  },
  evo: {
    config: { evolutionUrl: gatewayUrl },
    secrets: { evolutionApiKey: secret(2048) },
    optional: [],
  },
  wuzapi: {
    config: { wuzapiUrl: gatewayUrl },
    secrets: { wuzapiToken: secret(2048) },
    optional: [],
  },
  meow: {
    config: { meowUrl: gatewayUrl },
    secrets: { meowToken: secret(2048) },
    optional: [],
  },
  baileys: {
    config: { pairingNumber: optionalDigits, proxyUrl: optionalProxy },
    secrets: {},
    optional: ['pairingNumber', 'proxyUrl'],
  },
  whatsapp: {
    config: { pairingNumber: optionalDigits, proxyUrl: optionalProxy },
    secrets: {},
    optional: ['pairingNumber', 'proxyUrl'],
  },
} as const satisfies Record<
  string,
  { config: Record<string, z.ZodType>; secrets: Record<string, z.ZodType>; optional: readonly string[] }
>;

export type GenericProviderType = keyof typeof PROVIDER_FIELDS;

/** Every generic provider field with its rule (the union over types). */
const providerFieldShape: Record<string, z.ZodType> = Object.assign(
  {},
  ...Object.values(PROVIDER_FIELDS).flatMap((p) => [p.config, p.secrets]),
);

/** Names of the config (shown) and secret (write-only) fields of a generic provider type. */
export function providerFieldNames(type: string): { config: string[]; secrets: string[]; optional: readonly string[] } {
  const spec = (PROVIDER_FIELDS as Record<string, (typeof PROVIDER_FIELDS)[GenericProviderType]>)[type];
  if (!spec) return { config: [], secrets: [], optional: [] };
  return { config: Object.keys(spec.config), secrets: Object.keys(spec.secrets), optional: spec.optional };
}

export const GENERIC_PROVIDER_FIELD_NAMES = Object.keys(providerFieldShape);
export const SECRET_PROVIDER_FIELD_NAMES = [...new Set(Object.values(PROVIDER_FIELDS).flatMap((p) => Object.keys(p.secrets)))];

/** Spec section 5: JSON configurations must be valid. */
export const INVALID_JSON_MESSAGE = 'Invalid JSON format';

/**
 * Advanced provider options as JSON text (an object), e.g. extra Baileys socket or Evolution
 * instance settings; '' or null clears them.
 */
const providerOptions = z
  .string({ error: INVALID_JSON_MESSAGE })
  .max(20_000, { error: 'no máximo 20000 caracteres' })
  .nullable()
  .optional()
  .superRefine((v, ctx) => {
    if (v === undefined || v === null || v.trim() === '') return;
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    } catch {
      ctx.addIssue({ code: 'custom', message: INVALID_JSON_MESSAGE });
    }
  });

/** Spec section 5: an Evolution channel's name loses spaces and special characters. */
export function evolutionInstanceName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]/g, '');
}
export const EVOLUTION_NAME_LOCKED_MESSAGE = 'O nome de uma conexão Evolution não pode ser alterado depois de criada.';

/** How a channel behaves, whatever its provider. */
const behaviourFields = {
  queueId: optionalId,
  userId: optionalId,
  /** The chatbot flow a new ticket of this channel starts (issue #14; the engine runs it while it is active). */
  chatFlowId: optionalId,
  farewellMessage: optionalText(CATALOG_TEXT_MAX),
  birthdayMessage: optionalText(CATALOG_TEXT_MAX),
  /** Whole hours (spec section 9). */
  birthdayHour: z
    .number({ error: 'deve ser uma hora de 0 a 23' })
    .int({ error: 'deve ser uma hora de 0 a 23' })
    .min(0, { error: 'deve ser uma hora de 0 a 23' })
    .max(23, { error: 'deve ser uma hora de 0 a 23' })
    .nullable()
    .optional(),
  closingKeyword: optionalText(100),
  autoDistribution: z.enum(AUTO_DISTRIBUTION_VALUES, { error: 'deve ser none, random ou balanced' }).optional(),
  isDefault: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
};

/**
 * POST /whatsapp body. Provider fields are checked for the type that needs them (a `waba`
 * channel needs every `waba*` field); whether the type can be created at all is the server's
 * answer (ERR_CHANNEL_TYPE_UNSUPPORTED until its provider exists).
 */
export const CreateChannelSchema = z
  .object({
    type: z.enum(CHANNEL_TYPE_VALUES, { error: `deve ser um destes: ${CHANNEL_TYPE_VALUES.join(', ')}` }),
    name: catalogName,
    ...behaviourFields,
    wabaPhoneNumberId: wabaFields.wabaPhoneNumberId.optional(),
    wabaBusinessAccountId: wabaFields.wabaBusinessAccountId.optional(),
    wabaApiVersion: wabaFields.wabaApiVersion.optional(),
    wabaManagerToken: wabaFields.wabaManagerToken.optional(),
    wabaAppSecret: wabaFields.wabaAppSecret.optional(),
    wabaVerifyToken: wabaFields.wabaVerifyToken.optional(),
    /** Required for `telegram` (checked by the server: 'É necessário informar o token para o Telegram.'). */
    tokenTelegram: tokenTelegram.optional(),
    /** Advanced options as JSON text ('Invalid JSON format' otherwise). */
    options: providerOptions,
    ...optionalShape(providerFieldShape),
  })
  .superRefine((value, ctx) => {
    const fields = value as Record<string, unknown>;
    if (value.type === 'waba') {
      for (const field of WABA_FIELD_NAMES) {
        if (value[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED });
      }
    }
    const own = providerFieldNames(value.type);
    const ownNames = new Set([...own.config, ...own.secrets]);
    for (const field of ownNames) {
      if (!own.optional.includes(field) && (fields[field] === undefined || fields[field] === null)) {
        ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED });
      }
    }
    for (const field of GENERIC_PROVIDER_FIELD_NAMES) {
      if (!ownNames.has(field) && fields[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `não se aplica a conexões ${value.type}` });
      }
    }
  });

function optionalShape(shape: Record<string, z.ZodType>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()]));
}

/** Update: a secret sent empty keeps the stored one; a setting is written as given. */
function updateShape(): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(providerFieldShape).map(([k, v]) => [
      k,
      SECRET_PROVIDER_FIELD_NAMES.includes(k) ? keepWhenEmpty(v as z.ZodType<string>) : v.optional(),
    ]),
  );
}

/** Spec section 5 style texts of the generative chat settings (issue #14). */
export const GENERATIVE_CHAT_REQUIRED_MESSAGE = 'é obrigatório quando o chat generativo está ativo';
export const GENERATIVE_CHAT_KEY_CONFLICT_MESSAGE = 'informe uma nova chave ou remova a atual, não as duas coisas';
const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/**
 * A channel's OpenAI-compatible endpoint for the chatbot's generative chat step (issue #14),
 * stored in `channels.integrations.generativeChat`. The one rule for PUT /whatsapp/{id}
 * (`generativeChat`) and the channel form. `apiKey` is write-only: absent or '' keeps the stored
 * key, `clearApiKey: true` removes it; an answer only says `hasApiKey` (sent back, it is ignored).
 * While enabled, the base URL and the model are required.
 */
export const GenerativeChatSchema = z
  .object({
    enabled: z.boolean({ error: 'deve ser verdadeiro ou falso' }).default(true),
    baseUrl: z
      .string({ error: 'deve ser um texto' })
      .trim()
      .max(500, { error: 'no máximo 500 caracteres' })
      .refine((v) => v === '' || HTTP_URL.test(v), { error: 'deve ser um endereço http(s)' })
      .transform((v) => v.replace(/\/+$/, ''))
      .default(''),
    model: z.string({ error: 'deve ser um texto' }).trim().max(200, { error: 'no máximo 200 caracteres' }).default(''),
    apiKey: z.string({ error: 'deve ser um texto' }).trim().max(2048, { error: 'no máximo 2048 caracteres' }).optional(),
    clearApiKey: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
    /** Read-only (ChannelDto echoed back): ignored. */
    hasApiKey: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.enabled) {
      if (value.baseUrl === '') ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: GENERATIVE_CHAT_REQUIRED_MESSAGE });
      if (value.model === '') ctx.addIssue({ code: 'custom', path: ['model'], message: GENERATIVE_CHAT_REQUIRED_MESSAGE });
    }
    if (value.clearApiKey && value.apiKey) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: GENERATIVE_CHAT_KEY_CONFLICT_MESSAGE });
    }
  });

export type GenerativeChatInput = z.infer<typeof GenerativeChatSchema>;

/** What an answer shows of the generative chat settings (never the key). */
export interface GenerativeChatDto {
  enabled: boolean;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
}

/**
 * PUT /whatsapp/{whatsappId} body: any subset. A secret that is absent (or empty, as a form
 * that never shows stored secrets sends it) keeps the stored one. The type cannot change.
 */
export const UpdateChannelSchema = z
  .object({
    name: catalogName.optional(),
    ...behaviourFields,
    wabaPhoneNumberId: graphId.optional(),
    wabaBusinessAccountId: graphId.optional(),
    wabaApiVersion: wabaFields.wabaApiVersion.optional(),
    wabaManagerToken: keepWhenEmpty(wabaFields.wabaManagerToken),
    wabaAppSecret: keepWhenEmpty(wabaFields.wabaAppSecret),
    wabaVerifyToken: keepWhenEmpty(wabaFields.wabaVerifyToken),
    tokenTelegram: keepWhenEmpty(tokenTelegram),
    options: providerOptions,
    /** The chatbot's generative chat endpoint (issue #14); null removes it. */
    generativeChat: GenerativeChatSchema.nullable().optional(),
    ...updateShape(),
  })
  .refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

function keepWhenEmpty(schema: z.ZodType<string>) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
}

export type CreateChannelInput = z.infer<typeof CreateChannelSchema>;

export type UpdateChannelInput = z.infer<typeof UpdateChannelSchema>;

/** A channel as every answer and event shows it (never a token or secret). */
export interface ChannelDto {
  id: number;
  name: string;
  type: (typeof CHANNEL_TYPE_VALUES)[number];
  status: (typeof SESSION_STATUS_VALUES)[number];
  /** Why the session is in that state (e.g. the provider refused the credentials). */
  statusReason: string | null;
  qrcode: string | null;
  /** Whether a Telegram bot token is stored (telegram channels; absent on older servers). */
  hasTelegramToken?: boolean;
  retries: number;
  number: string | null;
  isDefault: boolean;
  queueId: number | null;
  userId: number | null;
  chatFlowId: number | null;
  farewellMessage: string | null;
  birthdayMessage: string | null;
  birthdayHour: number | null;
  closingKeyword: string | null;
  autoDistribution: (typeof AUTO_DISTRIBUTION_VALUES)[number];
  wabaPhoneNumberId: string | null;
  wabaBusinessAccountId: string | null;
  wabaApiVersion: string | null;
  hasManagerToken: boolean;
  hasAppSecret: boolean;
  hasVerifyToken: boolean;
  /**
   * Callback URL to configure at the provider (waba, instagram, messenger, hub and the
   * gateways); null where the server registers it itself (telegram) or there is none (baileys).
   */
  webhookUrl: string | null;
  /** Non-secret provider settings of the generic types (fbPageId, evolutionUrl, pairingNumber ...). */
  providerSettings: Record<string, string | null>;
  /** Names of the write-only provider secrets stored (fbPageAccessToken, evolutionApiKey ...). */
  storedSecrets: string[];
  /** Advanced options as JSON text, or null. */
  options: string | null;
  /** The chatbot's generative chat endpoint (key reduced to `hasApiKey`); null when not set (absent on older servers). */
  generativeChat?: GenerativeChatDto | null;
  /** Pairing code while a QR-code channel waits for it to be typed on the phone. */
  pairingCode: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `whatsapp:update` / `whatsapp:delete` payloads. */
export type ChannelEventPayload = { action: 'create' | 'update'; whatsapp: ChannelDto } | { action: 'delete'; id: number };

/** `whatsappSession` payload: the session part of a channel. */
export interface ChannelSessionPayload {
  action: 'update';
  session: Pick<
    ChannelDto,
    'id' | 'name' | 'type' | 'status' | 'statusReason' | 'qrcode' | 'pairingCode' | 'retries' | 'number' | 'updatedAt'
  >;
}


/** POST /admin/channels body (superadmin): a channel for the given tenant, within its plan. */
export const AdminCreateChannelSchema = z.intersection(
  z.object({
    tenantId: recordIdSchema('deve ser o id de uma empresa'),
  }),
  CreateChannelSchema,
);

export type AdminCreateChannelInput = z.infer<typeof AdminCreateChannelSchema>;

/** GET /admin/channels item: a channel of any tenant, with its tenant's name. */
export interface AdminChannelDto extends ChannelDto {
  tenantId: number;
  tenantName: string;
}
