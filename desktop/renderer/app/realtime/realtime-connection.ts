import { io } from 'socket.io-client';
import { isErrorCode } from '@shared/errors';
import { baseApi, TAG_TYPES } from '../../api/base.api';
import { patchCatalogCache } from '../../api/catalog-realtime';
import { applyContactEvent, applyContactImportProgress } from '../../api/contacts-realtime';
import { syncApi } from '../../api/sync.api';
import { patchAttendanceUser } from '../../api/tickets.api';
import { patchUserInLists, usersApi, type UserProfile } from '../../api/users.api';
import { applyAttendanceEvent } from '../../features/attendance/attendance-realtime';
import { applyChannelEvent } from '../../features/channels/channel-realtime';
import { applyInternalChatEvent, CHAT_VOLATILE_EVENTS } from '../../features/internal-chat/chat-realtime';
import { translate } from '../../i18n/i18n-instance';
import { currentSocketUrl } from '../config/app-config';
import { connectionStatus } from '../connection/connection-status';
import { appStorage } from '../session/app-storage';
import { handleUnauthorized, requestNewToken } from '../session/session-controller';
import { profileChanged } from '../session/session.slice';
import type { AppStore } from '../store';
import { planCacheUpdates } from './event-dispatcher';
import { notifyRealtimeListeners, RESYNC_NOTICE } from './live-refresh';
import { createRealtimeClient, type AppPresence, type RealtimeClient } from './realtime-client';

/** Wires the realtime client to the store: events patch the RTK Query caches. */
let client: RealtimeClient | null = null;
/** The app's idle state, kept across reconnections of the client. */
let presence: AppPresence = 'online';

/** The app's idle state (app/session/presence-tracker.ts), for the server's presence of its user. */
export function setRealtimePresence(next: AppPresence): void {
  presence = next;
  client?.setPresence(next);
}

export function connectRealtime(store: AppStore, tenantId: number): void {
  if (client) return;
  // The token the socket last presented: a refresh is needed only if nobody renewed it since.
  let tokenAtConnect: string | null = null;
  client = createRealtimeClient({
    createSocket: (options) => io(currentSocketUrl(), options),
    getToken: () => (tokenAtConnect = appStorage.readToken()),
    tenantId,
    fetchSince: (seq) =>
      store.dispatch(syncApi.endpoints.getEventsSince.initiate(seq, { forceRefetch: true, subscribe: false })).unwrap(),
    onEvent(event) {
      notifyRealtimeListeners(event);
      if (applyAttendanceEvent(store.dispatch, store.getState, event)) return;
      if (applyChannelEvent(store.dispatch, store.getState, event)) return;
      if (applyInternalChatEvent(store.dispatch, store.getState, event)) return;
      for (const update of planCacheUpdates(event)) {
        if (update.kind === 'invalidate') {
          store.dispatch(baseApi.util.invalidateTags(update.tags));
          continue;
        }
        if (update.kind === 'patchCatalog') {
          patchCatalogCache(store.dispatch, update.catalog, update.payload);
          continue;
        }
        if (update.kind === 'contactEvent') {
          applyContactEvent(store.dispatch, store.getState, update.payload);
          continue;
        }
        if (update.kind === 'contactImportProgress') {
          applyContactImportProgress(store.dispatch, update.payload);
          continue;
        }
        store.dispatch(
          usersApi.util.updateQueryData('getUser', update.userId, (draft) => {
            Object.assign(draft, update.patch as Partial<UserProfile>);
          }),
        );
        patchUserInLists(store.dispatch, store.getState(), update.userId, update.patch);
        patchAttendanceUser(store.dispatch, store.getState(), update.userId, update.patch);
        const session = store.getState().session;
        if (update.userId === session.userId) {
          const { profile, name } = update.patch as Partial<UserProfile>;
          if (profile || name) {
            appStorage.patchUser({ profile, username: name });
            store.dispatch(profileChanged({ profile, username: name }));
          }
        }
      }
    },
    onResyncRequired: () => {
      store.dispatch(baseApi.util.invalidateTags([...TAG_TYPES]));
      notifyRealtimeListeners({ name: RESYNC_NOTICE });
    },
    // ERR_TENANT_INACTIVE, ERR_INVALID_TOKEN...: the server says why, the message follows it.
    // A deactivated tenant's users read 'Sua empresa está inativa!' (spec section 6).
    onTokenInvalid: (code) =>
      handleUnauthorized(
        code === 'ERR_TENANT_INACTIVE'
          ? translate('platformTenants.tenantInactive')
          : translate(isErrorCode(code) ? `errors.${code}` : 'errors.ERR_INVALID_TOKEN'),
      ),
    refreshToken: async () => (await requestNewToken(tokenAtConnect).catch(() => null)) !== null,
    onConnectionChange(connected) {
      connectionStatus.socketChanged(connected);
      if (!connected) return;
      // Screens that showed the desktop's cached copy while offline read the server again.
      if (connectionStatus.takeServedFromCache()) store.dispatch(baseApi.util.invalidateTags(['Ticket', 'Message']));
      // The desktop's cache catches up and its outbox delivers (main decides; issue #15).
      window.desktop?.sync.online().catch(() => undefined);
    },
    // The desktop's cache applies the socket's events in seq order itself (gaps replayed from /sync).
    onEnvelope: (event) => void window.desktop?.sync.envelope(event).catch(() => undefined),
    // The internal chat's typing indicator: live only, no seq.
    volatile: {
      names: CHAT_VOLATILE_EVENTS,
      handle: (name, payload) => void applyInternalChatEvent(store.dispatch, store.getState, { name, payload }),
    },
  });
  client.setPresence(presence);
  client.connect();
}

/** Sends a client event on the app's socket (the internal chat's `chat:typing`); false when offline. */
export function emitRealtime(name: string, payload: unknown): boolean {
  return client?.emit(name, payload) ?? false;
}

export function disconnectRealtime(): void {
  client?.disconnect();
  client = null;
  connectionStatus.socketClosed();
}
