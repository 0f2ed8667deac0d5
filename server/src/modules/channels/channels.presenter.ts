import type { ChannelDto, ChannelSessionPayload } from '@shared/schemas/channels';
import type { ChannelRow } from '../../channels/channel-row';

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
    webhookUrl: isWaba ? `${publicUrl.replace(/\/+$/, '')}/webhooks/waba/${row.id}` : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
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
    retries: row.retries,
    number: row.number,
    updatedAt: iso(row.updatedAt),
  };
}
