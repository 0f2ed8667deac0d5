import type { DomainEventEnvelope } from '@shared/events';
import { channelsApi } from '../../api/channels.api';
import type { AppDispatch, RootState } from '../../app/store';
import { applyChannelEventToList, channelEventOf, type ChannelEvent } from './channel-cache';

/**
 * Channel events from the socket (docs/api.md, Socket.IO): `whatsapp:update` / `whatsapp:delete`
 * and `whatsappSession` patch the cached channel list in place (status, QR code, pairing code
 * without a reload); the history import (`importMessages`) and battery (`change_battery`)
 * notices go to the screen that listens. Returns true when the event was a channel event.
 */
type ChannelNoticeListener = (event: Extract<ChannelEvent, { kind: 'importSync' | 'battery' }>) => void;
const listeners = new Set<ChannelNoticeListener>();

export function subscribeChannelNotices(listener: ChannelNoticeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function applyChannelEvent(
  dispatch: AppDispatch,
  getState: () => RootState,
  event: Pick<DomainEventEnvelope, 'name' | 'payload'>,
): boolean {
  const channelEvent = channelEventOf(event.name, event.payload);
  if (!channelEvent) return false;
  if (channelEvent.kind === 'importSync' || channelEvent.kind === 'battery') {
    for (const listener of listeners) listener(channelEvent);
    return true;
  }
  const entry = channelsApi.endpoints.listChannels.select()(getState());
  const cached = entry.data;
  // A list read still in flight may predate this event (a create's refetch read OPENING just
  // before CONNECTED was committed): its answer would overwrite the patch below with the older
  // state for good. Invalidating now makes RTK Query read the list again once it settles.
  if (entry.status === 'pending') dispatch(channelsApi.util.invalidateTags(['Channel']));
  if (cached) {
    let unfit = false;
    dispatch(
      channelsApi.util.updateQueryData('listChannels', undefined, (draft) => {
        const next = applyChannelEventToList(draft, channelEvent);
        if (next === null) unfit = true;
        else return next;
      }),
    );
    if (unfit) dispatch(channelsApi.util.invalidateTags(['Channel']));
  }
  return true;
}
