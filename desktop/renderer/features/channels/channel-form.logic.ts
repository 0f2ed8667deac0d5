import {
  AUTO_DISTRIBUTION_VALUES,
  CHANNEL_TYPE_VALUES,
  CreateChannelSchema,
  INVALID_JSON_MESSAGE,
  PROVIDER_FIELDS,
  TELEGRAM_TOKEN_REQUIRED_MESSAGE,
  UpdateChannelSchema,
  evolutionInstanceName,
  type ChannelDto,
  type GenerativeChatInput,
} from '@shared/schemas/channels';

/**
 * The channel form without React: which provider fields a type shows, whether a secret is
 * stored, the advanced-options JSON check, and the form -> request body mapping (create: every
 * filled field; edit: only what changed, secrets only when typed). The shared zod schemas run
 * here too, so the browser says what the server would refuse before sending.
 */

export type ChannelType = ChannelDto['type'];
export type AutoDistribution = (typeof AUTO_DISTRIBUTION_VALUES)[number];

export const CHANNEL_TYPES: readonly ChannelType[] = CHANNEL_TYPE_VALUES;

/** Types paired by reading a QR code (or typing a pairing code) on the phone. */
export const QR_CHANNEL_TYPES: readonly ChannelType[] = ['baileys', 'whatsapp', 'evo', 'wuzapi', 'meow'];

export const isQrChannel = (type: ChannelType): boolean => QR_CHANNEL_TYPES.includes(type);

/** How an input is drawn: secrets are write-only password inputs. */
export type ProviderFieldInput = 'text' | 'digits' | 'url' | 'secret';

export interface ProviderField {
  name: string;
  secret: boolean;
  required: boolean;
  input: ProviderFieldInput;
}

const WABA_FIELDS: ProviderField[] = [
  { name: 'wabaPhoneNumberId', secret: false, required: true, input: 'digits' },
  { name: 'wabaBusinessAccountId', secret: false, required: true, input: 'digits' },
  { name: 'wabaApiVersion', secret: false, required: true, input: 'text' },
  { name: 'wabaManagerToken', secret: true, required: true, input: 'secret' },
  { name: 'wabaAppSecret', secret: true, required: true, input: 'secret' },
  { name: 'wabaVerifyToken', secret: true, required: true, input: 'secret' },
];

const TELEGRAM_FIELDS: ProviderField[] = [{ name: 'tokenTelegram', secret: true, required: true, input: 'secret' }];

const URL_FIELDS = new Set(['evolutionUrl', 'wuzapiUrl', 'meowUrl', 'proxyUrl']);
const DIGIT_FIELDS = new Set(['fbPageId', 'instagramBusinessId', 'pairingNumber']);

/** The provider fields of one type, in display order: settings first, then secrets. */
export function providerFieldsFor(type: ChannelType): ProviderField[] {
  if (type === 'waba') return WABA_FIELDS;
  if (type === 'telegram') return TELEGRAM_FIELDS;
  const spec = (PROVIDER_FIELDS as Record<string, { config: object; secrets: object; optional: readonly string[] }>)[type];
  if (!spec) return [];
  const field = (name: string, secret: boolean): ProviderField => ({
    name,
    secret,
    required: !spec.optional.includes(name),
    input: secret ? 'secret' : URL_FIELDS.has(name) ? 'url' : DIGIT_FIELDS.has(name) ? 'digits' : 'text',
  });
  return [...Object.keys(spec.config).map((n) => field(n, false)), ...Object.keys(spec.secrets).map((n) => field(n, true))];
}

/** Every provider field name of every type (for the label keys). */
export function allProviderFieldNames(): string[] {
  return [...new Set(CHANNEL_TYPES.flatMap((type) => providerFieldsFor(type).map((f) => f.name)))];
}

const WABA_SECRET_FLAGS: Record<string, keyof ChannelDto> = {
  wabaManagerToken: 'hasManagerToken',
  wabaAppSecret: 'hasAppSecret',
  wabaVerifyToken: 'hasVerifyToken',
  tokenTelegram: 'hasTelegramToken',
};

/** Whether the server holds a value for this write-only field (its input then says "stored"). */
export function isSecretStored(channel: ChannelDto | null, name: string): boolean {
  if (!channel) return false;
  const flag = WABA_SECRET_FLAGS[name];
  if (flag && channel[flag] === true) return true;
  return (channel.storedSecrets ?? []).includes(name);
}

/** The stored value of a provider setting (never a secret). */
export function providerSettingOf(channel: ChannelDto | null, name: string): string {
  if (!channel) return '';
  if (name === 'wabaPhoneNumberId' || name === 'wabaBusinessAccountId' || name === 'wabaApiVersion') return channel[name] ?? '';
  return channel.providerSettings?.[name] ?? '';
}

/** Spec section 5: advanced options must be a JSON object ('' clears them). */
export function validateOptionsJson(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return INVALID_JSON_MESSAGE;
    return null;
  } catch {
    return INVALID_JSON_MESSAGE;
  }
}

export interface ChannelFormState {
  type: ChannelType;
  name: string;
  /** Provider settings and secrets as typed (secrets start empty). */
  provider: Record<string, string>;
  queueId: number | null;
  userId: number | null;
  chatFlowId: number | null;
  farewellMessage: string;
  birthdayMessage: string;
  /** '' or a whole hour 0-23. */
  birthdayHour: string;
  closingKeyword: string;
  autoDistribution: AutoDistribution;
  isDefault: boolean;
  options: string;
}

export function initialChannelForm(channel: ChannelDto | null, type: ChannelType = channel?.type ?? 'waba'): ChannelFormState {
  const provider: Record<string, string> = {};
  for (const field of providerFieldsFor(type)) provider[field.name] = field.secret ? '' : providerSettingOf(channel, field.name);
  if (!channel && type === 'waba') provider.wabaApiVersion = 'v21.0';
  return {
    type,
    name: channel?.name ?? '',
    provider,
    queueId: channel?.queueId ?? null,
    userId: channel?.userId ?? null,
    chatFlowId: channel?.chatFlowId ?? null,
    farewellMessage: channel?.farewellMessage ?? '',
    birthdayMessage: channel?.birthdayMessage ?? '',
    birthdayHour: channel?.birthdayHour === null || channel?.birthdayHour === undefined ? '' : String(channel.birthdayHour),
    closingKeyword: channel?.closingKeyword ?? '',
    autoDistribution: channel?.autoDistribution ?? 'none',
    isDefault: channel?.isDefault ?? false,
    options: channel?.options ?? '',
  };
}

/** A new type keeps the shared fields and starts its own provider fields empty. */
export function changeFormType(form: ChannelFormState, type: ChannelType): ChannelFormState {
  const fresh = initialChannelForm(null, type);
  return { ...form, type, provider: fresh.provider };
}

/** What the server will name an Evolution channel (spaces and special characters stripped). */
export function evolutionNamePreview(name: string): string {
  return evolutionInstanceName(name.trim());
}

export type FieldErrors = Record<string, string>;

export const BIRTHDAY_HOUR_MESSAGE = 'deve ser uma hora de 0 a 23';

function birthdayHourOf(text: string): number | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d{1,2}$/.test(trimmed)) return 'invalid';
  const hour = Number(trimmed);
  return hour >= 0 && hour <= 23 ? hour : 'invalid';
}

/** The zod issues of a body, one text per top-level field (the first one). */
function schemaErrors(schema: typeof CreateChannelSchema | typeof UpdateChannelSchema, body: Record<string, unknown>): FieldErrors {
  const result = schema.safeParse(body);
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Checks that need no schema: the Telegram token, the options JSON, the hour, the Evolution name. */
function localErrors(form: ChannelFormState, mode: 'create' | 'edit', channel: ChannelDto | null): FieldErrors {
  const errors: FieldErrors = {};
  if (form.type === 'telegram' && (form.provider.tokenTelegram ?? '').trim() === '' && !(mode === 'edit' && isSecretStored(channel, 'tokenTelegram'))) {
    errors.tokenTelegram = TELEGRAM_TOKEN_REQUIRED_MESSAGE;
  }
  const options = validateOptionsJson(form.options);
  if (options) errors.options = options;
  if (birthdayHourOf(form.birthdayHour) === 'invalid') errors.birthdayHour = BIRTHDAY_HOUR_MESSAGE;
  if (mode === 'create' && form.type === 'evo' && form.name.trim() !== '' && evolutionNamePreview(form.name) === '') {
    errors.name = 'deve conter letras ou números (espaços e caracteres especiais são removidos)';
  }
  return errors;
}

const textOrNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());

export interface BodyResult<B> {
  body: B;
  errors: FieldErrors;
}

/** POST /whatsapp body: the type, the name, its provider fields that were filled, behaviour. */
export function buildCreateBody(form: ChannelFormState): BodyResult<Record<string, unknown>> {
  const body: Record<string, unknown> = { type: form.type, name: form.name.trim() };
  for (const field of providerFieldsFor(form.type)) {
    const value = (form.provider[field.name] ?? '').trim();
    if (value !== '') body[field.name] = value;
  }
  if (form.queueId !== null) body.queueId = form.queueId;
  if (form.userId !== null) body.userId = form.userId;
  if (form.chatFlowId !== null) body.chatFlowId = form.chatFlowId;
  for (const key of ['farewellMessage', 'birthdayMessage', 'closingKeyword'] as const) {
    const value = textOrNull(form[key]);
    if (value !== null) body[key] = value;
  }
  const hour = birthdayHourOf(form.birthdayHour);
  if (typeof hour === 'number') body.birthdayHour = hour;
  if (form.autoDistribution !== 'none') body.autoDistribution = form.autoDistribution;
  if (form.isDefault) body.isDefault = true;
  if (form.options.trim() !== '') body.options = form.options.trim();
  const errors = { ...schemaErrors(CreateChannelSchema, body), ...localErrors(form, 'create', null) };
  // The server says "é obrigatório" for the Telegram token too; ours is the spec's sentence.
  return { body, errors };
}

/**
 * PUT /whatsapp/{id} body: only what changed (a changed provider setting makes the server check
 * the session again), secrets only when typed (empty keeps the stored one). The name of an
 * Evolution channel is never sent. `body` is null when nothing changed.
 */
export function buildUpdateBody(channel: ChannelDto, form: ChannelFormState): BodyResult<Record<string, unknown> | null> {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  if (channel.type !== 'evo' && form.name.trim() !== channel.name) body.name = form.name.trim();
  for (const field of providerFieldsFor(channel.type)) {
    const value = (form.provider[field.name] ?? '').trim();
    if (field.secret) {
      if (value !== '') body[field.name] = value;
      continue;
    }
    if (value === providerSettingOf(channel, field.name)) continue;
    if (value === '' && field.required) errors[field.name] = 'é obrigatório';
    else body[field.name] = value === '' ? null : value;
  }
  if (form.queueId !== channel.queueId) body.queueId = form.queueId;
  if (form.userId !== channel.userId) body.userId = form.userId;
  if (form.chatFlowId !== (channel.chatFlowId ?? null)) body.chatFlowId = form.chatFlowId;
  for (const key of ['farewellMessage', 'birthdayMessage', 'closingKeyword'] as const) {
    const value = textOrNull(form[key]);
    if (value !== (channel[key] ?? null)) body[key] = value;
  }
  const hour = birthdayHourOf(form.birthdayHour);
  if (hour !== 'invalid' && hour !== channel.birthdayHour) body.birthdayHour = hour;
  if (form.autoDistribution !== channel.autoDistribution) body.autoDistribution = form.autoDistribution;
  if (form.isDefault && !channel.isDefault) body.isDefault = true;
  const options = textOrNull(form.options);
  if (options !== (channel.options ?? null)) body.options = options;
  Object.assign(errors, localErrors(form, 'edit', channel));
  if (Object.keys(body).length > 0) Object.assign(errors, { ...schemaErrors(UpdateChannelSchema, body), ...errors });
  return { body: Object.keys(body).length > 0 ? body : null, errors };
}

/**
 * The "Chat generativo (IA)" section (issue #14): a react-hook-form form validated with the shared
 * GenerativeChatSchema. The key field starts empty (the server never sends the key back).
 */
export interface GenerativeChatValues {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** Typed key; '' keeps the stored one. */
  apiKey: string;
  /** Remove the stored key on save. */
  clearApiKey: boolean;
}

export function initialGenerativeChatValues(channel: ChannelDto | null): GenerativeChatValues {
  const stored = channel?.generativeChat ?? null;
  return {
    enabled: stored?.enabled ?? false,
    baseUrl: stored?.baseUrl ?? '',
    model: stored?.model ?? '',
    apiKey: '',
    clearApiKey: false,
  };
}

/**
 * The `generativeChat` of PUT /whatsapp/{id} for the parsed section, or undefined when it
 * changes nothing (the rest of the channel may still be saved). The key goes only when typed.
 */
export function generativeChatBody(channel: ChannelDto, parsed: GenerativeChatInput): Record<string, unknown> | undefined {
  const stored = channel.generativeChat ?? null;
  const apiKey = parsed.apiKey?.trim() ?? '';
  const keyChange = apiKey !== '' || (parsed.clearApiKey === true && stored?.hasApiKey === true);
  const same = stored
    ? stored.enabled === parsed.enabled && stored.baseUrl === parsed.baseUrl && stored.model === parsed.model
    : !parsed.enabled && parsed.baseUrl === '' && parsed.model === '';
  if (same && !keyChange) return undefined;
  return {
    enabled: parsed.enabled,
    baseUrl: parsed.baseUrl,
    model: parsed.model,
    ...(apiKey !== '' ? { apiKey } : {}),
    ...(parsed.clearApiKey && apiKey === '' ? { clearApiKey: true } : {}),
  };
}

/** Server field errors of the section (`generativeChat.model` -> `model`). */
export function generativeChatErrors(fields: Record<string, string>): Partial<Record<keyof GenerativeChatValues, string>> {
  const out: Partial<Record<keyof GenerativeChatValues, string>> = {};
  for (const [path, message] of Object.entries(fields)) {
    const match = /^generativeChat\.(enabled|baseUrl|model|apiKey|clearApiKey)$/.exec(path);
    if (match) out[match[1] as keyof GenerativeChatValues] = message;
  }
  return out;
}
