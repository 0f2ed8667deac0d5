import { providerFieldNames, type ChannelDto, type ChannelSessionPayload, type GenerativeChatDto } from '@shared/schemas/channels';
import type { ChannelRow } from '../../channels/channel-row';

/** Types whose provider calls a URL we give it (the others: telegram registers its own, baileys has none). */
const WEBHOOK_TYPES = new Set(['waba', 'instagram', 'messenger', 'hub', 'evo', 'wuzapi', 'meow']);

const iso = (value: Date | string): string => new Date(value).toISOString();
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const stored = (value: unknown): boolean => typeof value === 'string' && value.length > 0;

/**
 * The one shape a channel leaves the server in. Secrets (tokens, app secret, verify token) are
 * reduced to "is one stored"; nothing else of `secrets` is ever read here.
 */
export function presentChannel(row: ChannelRow, publicUrl: string): ChannelDto {
  const config = row.providerConfig ?? {};
  const secrets = row.secrets ?? {};
  const isWaba = row.type === 'waba';
  const generic = providerFieldNames(row.type);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    statusReason: row.statusReason ?? null,
    qrcode: row.qrcode,
    hasTelegramToken: stored(secrets.tokenTelegram),
    retries: row.retries,
    number: row.number,
    isDefault: row.isDefault,
    queueId: row.queueId,
    userId: row.userId,
    chatFlowId: row.chatFlowId,
    farewellMessage: row.farewellMessage,
    birthdayMessage: row.birthdayMessage,
    birthdayHour: row.birthdayHour,
    closingKeyword: row.closingKeyword,
    autoDistribution: row.autoDistribution,
    wabaPhoneNumberId: isWaba ? text(config.wabaPhoneNumberId) : null,
    wabaBusinessAccountId: isWaba ? text(config.wabaBusinessAccountId) : null,
    wabaApiVersion: isWaba ? text(config.wabaApiVersion) : null,
    hasManagerToken: stored(secrets.wabaManagerToken),
    hasAppSecret: stored(secrets.wabaAppSecret),
    hasVerifyToken: stored(secrets.wabaVerifyToken),
    webhookUrl: WEBHOOK_TYPES.has(row.type) ? `${publicUrl.replace(/\/+$/, '')}/webhooks/${row.type}/${row.id}` : null,
    providerSettings: Object.fromEntries(generic.config.map((k) => [k, text(config[k])])),
    storedSecrets: generic.secrets.filter((k) => stored(secrets[k])),
    options: config.options && typeof config.options === 'object' ? JSON.stringify(config.options) : null,
    generativeChat: presentGenerativeChat(row.integrations),
    pairingCode: row.pairingCode ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** `integrations.generativeChat` without its key: whether one is stored, never its value. */
export function presentGenerativeChat(integrations: Record<string, unknown> | undefined | null): GenerativeChatDto | null {
  const config = integrations?.generativeChat;
  if (!config || typeof config !== 'object') return null;
  const c = config as Record<string, unknown>;
  return {
    enabled: c.enabled !== false,
    baseUrl: typeof c.baseUrl === 'string' ? c.baseUrl : '',
    model: typeof c.model === 'string' ? c.model : '',
    hasApiKey: stored(c.apiKey),
  };
}

export function presentSession(row: ChannelRow): ChannelSessionPayload['session'] {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    statusReason: row.statusReason ?? null,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode ?? null,
    retries: row.retries,
    number: row.number,
    updatedAt: iso(row.updatedAt),
  };
}
