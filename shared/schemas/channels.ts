import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, CATALOG_TEXT_MAX, atLeastOneField, catalogName } from './catalog-fields';

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

const optionalId = z
  .number({ error: 'deve ser um id numérico' })
  .int({ error: 'deve ser um id numérico' })
  .positive({ error: 'deve ser um id numérico' })
  .nullable()
  .optional();

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

/** How a channel behaves, whatever its provider. */
const behaviourFields = {
  queueId: optionalId,
  userId: optionalId,
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
  })
  .superRefine((value, ctx) => {
    if (value.type !== 'waba') return;
    for (const field of WABA_FIELD_NAMES) {
      if (value[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED });
    }
  });

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
  /** Callback URL to configure in the Meta app (waba only). */
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `whatsapp:update` / `whatsapp:delete` payloads. */
export type ChannelEventPayload = { action: 'create' | 'update'; whatsapp: ChannelDto } | { action: 'delete'; id: number };

/** `whatsappSession` payload: the session part of a channel. */
export interface ChannelSessionPayload {
  action: 'update';
  session: Pick<ChannelDto, 'id' | 'name' | 'type' | 'status' | 'statusReason' | 'qrcode' | 'retries' | 'number' | 'updatedAt'>;
}

/** GET /whatsapp/{whatsappId}/templates item (WhatsApp message templates of the business account). */
export interface MessageTemplateDto {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  /** Number of body variables ({{1}}, {{2}} ...). */
  bodyVariables: number;
  components: unknown[];
}
