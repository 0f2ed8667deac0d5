import { SOCKET_EVENTS } from '@shared/events';
import type { ChannelDto, ChannelSessionPayload } from '@shared/schemas/channels';

/**
 * How channel events change the cached channel list (pure, so it is tested without a store).
 * The list is kept in the server's order: lower(name), then id.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function compareChannels(a: Pick<ChannelDto, 'name' | 'id'>, b: Pick<ChannelDto, 'name' | 'id'>): number {
  const byName = a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return byName !== 0 ? byName : a.id - b.id;
}

/** Inserts or replaces a channel; a new default clears the flag of the others. */
export function upsertChannel(list: ChannelDto[], channel: ChannelDto): ChannelDto[] {
  const rest = list.filter((c) => c.id !== channel.id);
  const others = channel.isDefault ? rest.map((c) => (c.isDefault ? { ...c, isDefault: false } : c)) : rest;
  return [...others, channel].sort(compareChannels);
}

export function removeChannel(list: ChannelDto[], id: number): ChannelDto[] {
  return list.filter((c) => c.id !== id);
}

/** Applies a session change; null when the channel is not in the list (refetch instead). */
export function patchSession(list: ChannelDto[], session: ChannelSessionPayload['session']): ChannelDto[] | null {
  if (!list.some((c) => c.id === session.id)) return null;
  return list.map((c) => (c.id === session.id ? { ...c, ...session } : c));
}

/** A live event about channels, as the screen uses it. */
export type ChannelEvent =
  | { kind: 'upsert'; channel: ChannelDto }
  | { kind: 'delete'; id: number }
  | { kind: 'session'; session: ChannelSessionPayload['session'] }
  /** History import progress (`importMessages`), shown on the channel's card. */
  | { kind: 'importSync'; channelId: number | null; done: number | null; total: number | null; payload: unknown }
  /** Phone battery low (`change_battery`), shown on the channel's card. */
  | { kind: 'battery'; channelId: number | null; level: number | null; plugged: boolean | null; payload: unknown };

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The channel id an event about one channel names, wherever the payload keeps it. */
function channelIdOf(payload: Record<string, unknown>): number | null {
  for (const source of [payload, payload.session, payload.status, payload.batteryInfo, payload.whatsapp]) {
    if (!isRecord(source)) continue;
    const id = numberOf(source.whatsappId) ?? numberOf(source.channelId) ?? (source === payload ? null : numberOf(source.id));
    if (id !== null) return id;
  }
  return numberOf(payload.id);
}

export function channelEventOf(name: string, raw: unknown): ChannelEvent | null {
  const payload = isRecord(raw) ? raw : {};
  switch (name) {
    case SOCKET_EVENTS.whatsappUpdate:
      return isRecord(payload.whatsapp) && typeof payload.whatsapp.id === 'number'
        ? { kind: 'upsert', channel: payload.whatsapp as unknown as ChannelDto }
        : null;
    case SOCKET_EVENTS.whatsappDelete: {
      const id = numberOf(payload.id) ?? numberOf(payload.whatsappId);
      return id === null ? null : { kind: 'delete', id };
    }
    case SOCKET_EVENTS.whatsappSession:
      return isRecord(payload.session) && typeof payload.session.id === 'number'
        ? { kind: 'session', session: payload.session as unknown as ChannelSessionPayload['session'] }
        : null;
    case SOCKET_EVENTS.importSync: {
      const status = isRecord(payload.status) ? payload.status : payload;
      return {
        kind: 'importSync',
        channelId: channelIdOf(payload),
        done: numberOf(status.this) ?? numberOf(status.done) ?? numberOf(status.imported),
        total: numberOf(status.all) ?? numberOf(status.total),
        payload: raw,
      };
    }
    case SOCKET_EVENTS.batteryLow: {
      const info = isRecord(payload.batteryInfo) ? payload.batteryInfo : payload;
      return {
        kind: 'battery',
        channelId: channelIdOf(payload),
        level: numberOf(info.battery) ?? numberOf(info.level),
        plugged: typeof info.plugged === 'boolean' ? info.plugged : null,
        payload: raw,
      };
    }
    default:
      return null;
  }
}

/**
 * The new list after an event, or null when the cache cannot follow it (refetch). Events that do
 * not change the list (import, battery) leave it as it is.
 */
export function applyChannelEventToList(list: ChannelDto[], event: ChannelEvent): ChannelDto[] | null {
  switch (event.kind) {
    case 'upsert':
      return upsertChannel(list, event.channel);
    case 'delete':
      return removeChannel(list, event.id);
    case 'session':
      return patchSession(list, event.session);
    default:
      return list;
  }
}
