import { ChannelSendError, type ChannelGroupsApi, type ChannelRecord } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { adapterOrNone } from '../messaging/channel-registry';

/** A channel whose provider administers groups, with that API. */
export interface GroupChannel {
  channel: ChannelRecord;
  groups: ChannelGroupsApi;
}

/** The refusal for a channel type without groups (Cloud API, Telegram, Instagram …). */
export function groupsUnsupported(channel: Pick<ChannelRecord, 'name' | 'type'>): AppError {
  return new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
    message: `A conexão "${channel.name}" (tipo ${channel.type}) não suporta grupos do WhatsApp; use uma conexão por QR code (Baileys).`,
  });
}

/**
 * The tenant's channel (ERR_NO_WAPP_FOUND for another tenant's) and its groups API, or
 * ERR_CHANNEL_OPERATION_UNSUPPORTED (400) when its provider has none.
 */
export async function loadGroupChannel(deps: Pick<AppDeps, 'channels'>, tenantId: number, whatsappId: number): Promise<GroupChannel> {
  const channel = await deps.channels.load(tenantId, whatsappId);
  const groups = adapterOrNone(deps.channels, channel)?.groups;
  if (!groups) throw groupsUnsupported(channel);
  return { channel, groups };
}

/** A provider group call the user waits for: a refusal is a 400 with WhatsApp's reason, a lost connection a 503. */
export async function callGroups<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw providerRefusal(err);
  }
}

export function providerRefusal(err: unknown): unknown {
  if (err instanceof ChannelSendError) {
    return err.retryable
      ? new AppError('ERR_CHANNEL_UNAVAILABLE', { message: `${err.message} Tente novamente em alguns segundos.` })
      : new AppError('ERR_WAPP_GROUP_REFUSED', { message: err.message });
  }
  return err;
}

/** The message of a failure, for a mass operation's result list. */
export function failureText(err: unknown): string {
  const mapped = providerRefusal(err);
  if (mapped instanceof AppError) return mapped.message;
  return err instanceof Error ? err.message : String(err);
}
