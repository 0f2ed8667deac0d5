import type { DesktopApi } from '@shared/desktop-api';
import { baseApi } from '../api/base.api';
import { connectionStatus } from '../app/connection/connection-status';
import { showToast } from '../app/feedback/toaster';
import { setLogoutHook } from '../app/session/session-controller';
import type { AppStore } from '../app/store';
import { translate } from '../i18n/i18n-instance';
import { markAccountSettled } from './account-ready';
import { outboxStore } from './outbox-store';
import { nextCatchingUp, sessionCalls, type CacheCall, type SessionView } from './session-bridge';

/**
 * The desktop console's side of the local cache, its sync and its outbox (issue #15). main.tsx
 * loads this module only when `window.desktop` exists, so the web app never fetches it.
 *
 * - The session opens the account's cache in main (`cache.begin`) on login or a stored session,
 *   hands refreshed tokens over (`setAccessToken`), closes it when the session ends and wipes it
 *   on an explicit logout (the logout hook; the layout asks first when unsent actions would go).
 * - The sync's status and the outbox feed the offline banner and the thread's pending bubbles.
 * - A server purge (`desktop:purge`): main emptied the cache, the outbox with it, and syncs it
 *   again; the pending bubbles go and the agent is told (and how many unsent actions were lost).
 */
export function installDesktopOffline(store: AppStore, desktop: DesktopApi): () => void {
  const view = (): SessionView => {
    const { token, userId, tenantId } = store.getState().session;
    return { token, userId, tenantId };
  };
  let current: SessionView = { token: null, userId: null, tenantId: null };
  // Calls to main in order: a refreshed token never overtakes the begin it belongs to.
  let chain: Promise<unknown> = Promise.resolve();
  let accountOpen = false;

  const refreshOutbox = async () => {
    const items = await desktop.outbox.list().catch(() => null);
    if (items) outboxStore.replaceAll(items);
    connectionStatus.desktopChanged({ queued: outboxStore.waitingCount() });
  };

  const run = (call: CacheCall) => {
    chain = chain.then(async () => {
      try {
        if (call.kind === 'begin') {
          const account = await desktop.cache.begin(call.token);
          accountOpen = account !== null;
          if (accountOpen) {
            const status = await desktop.sync.status().catch(() => null);
            if (status) connectionStatus.desktopChanged({ sync: status });
            await refreshOutbox();
          }
        } else if (call.kind === 'setAccessToken') {
          if (accountOpen) await desktop.cache.setAccessToken(call.token);
        } else {
          accountOpen = false;
          outboxStore.clear();
          connectionStatus.desktopChanged({ sync: null, queued: 0, servedFromCache: false, catchingUp: false });
          await desktop.cache.end({ wipe: false });
        }
      } catch (error) {
        // ERR_DESKTOP_ACCOUNT_UNVERIFIED and the like: the console runs online only, as in the browser.
        if (call.kind === 'begin') accountOpen = false;
        console.warn('desktop cache:', error instanceof Error ? error.message : error);
      } finally {
        if (call.kind === 'begin') markAccountSettled();
      }
    });
  };

  const onSession = () => {
    const next = view();
    if (next.token === current.token && next.userId === current.userId && next.tenantId === current.tenantId) return;
    const calls = sessionCalls(current, next);
    current = next;
    for (const call of calls) run(call);
  };
  const unsubscribeStore = store.subscribe(onSession);
  onSession();
  // No session at start-up: nothing to wait for.
  if (!current.token) markAccountSettled();

  setLogoutHook(async () => {
    chain = chain.then(async () => {
      accountOpen = false;
      outboxStore.clear();
      connectionStatus.desktopChanged({ sync: null, queued: 0, servedFromCache: false, catchingUp: false });
      await desktop.cache.end({ wipe: true }).catch(() => undefined);
    });
    await chain;
    // The session's end that follows finds the cache closed already.
    current = { token: null, userId: null, tenantId: null };
  });

  const unsubscribeStatus = desktop.sync.onStatus((status) => {
    const catchingUp = nextCatchingUp(connectionStatus.get().desktop?.catchingUp ?? false, status.state);
    connectionStatus.desktopChanged({ sync: status, catchingUp });
  });
  const unsubscribeOutbox = desktop.outbox.onChange((change) => {
    outboxStore.apply(change);
    connectionStatus.desktopChanged({ queued: outboxStore.waitingCount() });
    // Delivered: the thread reads the server's message (same clientId), which replaces the bubble.
    if (change.type !== 'discarded' && change.item.state === 'done' && change.item.kind === 'message')
      store.dispatch(baseApi.util.invalidateTags(['Message']));
  });
  const unsubscribePurge = desktop.cache.onPurged((purge) => {
    outboxStore.clear();
    connectionStatus.desktopChanged({ queued: 0 });
    void refreshOutbox();
    const lost =
      purge.lostOutboxItems > 0 ? ` ${translate('connection.cachePurgedUnsent', { count: purge.lostOutboxItems })}` : '';
    showToast(`${translate('connection.cachePurged')}${lost}`, 'warning');
  });
  // The browser's network came back: main syncs and delivers without waiting for the socket.
  const online = () => {
    if (accountOpen) void desktop.sync.online().catch(() => undefined);
  };
  window.addEventListener('online', online);

  return () => {
    unsubscribeStore();
    unsubscribeStatus();
    unsubscribeOutbox();
    unsubscribePurge();
    window.removeEventListener('online', online);
    setLogoutHook(null);
  };
}

/** Unsent outbox items of the open account (the logout's confirmation). */
export async function unsentOutboxCount(desktop: DesktopApi): Promise<number> {
  const items = await desktop.outbox.list({ states: ['queued', 'sending', 'conflict', 'failed'] }).catch(() => null);
  return items ? items.length : outboxStore.unsentCount();
}
