import { Callout } from '@blueprintjs/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { bannerState, connectionStatus, nextBannerCheck } from './connection-status';

const clockTime = (iso: string): string => {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/**
 * The bar at the top of the signed-in screens when the console is offline (issue #15): the
 * browser says so, the socket has been down for a few seconds, or (desktop) the cache's sync
 * cannot reach the server; on the desktop also while it catches up and while the outbox holds
 * actions waiting to go.
 */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const snapshot = useSyncExternalStore(connectionStatus.subscribe, connectionStatus.get);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const online = () => connectionStatus.browserOnlineChanged(true);
    const offline = () => connectionStatus.browserOnlineChanged(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    connectionStatus.browserOnlineChanged(navigator.onLine !== false);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, []);

  // The socket's grace period ends without any event: look again then.
  useEffect(() => {
    setNow(Date.now());
    const due = nextBannerCheck(snapshot, Date.now());
    if (due === null) return;
    const timer = setTimeout(() => setNow(Date.now()), due + 50);
    return () => clearTimeout(timer);
  }, [snapshot]);

  const state = bannerState(snapshot, now);
  if (state.kind === 'hidden') return null;
  const parts: string[] = [];
  let intent: 'warning' | 'danger' | 'primary' = 'warning';
  if (state.kind === 'offline' || state.kind === 'error') {
    intent = state.kind === 'error' ? 'danger' : 'warning';
    parts.push(state.kind === 'offline' ? t('connection.offline') : t('connection.syncError', { message: state.message ?? '' }));
    if (state.retryAt) parts.push(t('connection.retryAt', { time: clockTime(state.retryAt) }));
    if (state.fromCache) parts.push(t('connection.fromCache'));
  } else if (state.kind === 'syncing') {
    intent = 'primary';
    parts.push(t('connection.syncing'));
  }
  if (state.queued > 0) parts.push(t('connection.queued', { count: state.queued }));
  if (state.kind === 'pending') intent = 'primary';
  return (
    <Callout compact intent={intent} icon={state.kind === 'syncing' ? 'refresh' : state.kind === 'pending' ? 'send-message' : 'offline'} className="connection-banner" data-testid="connection-banner" data-state={state.kind}>
      {parts.join(' ')}
    </Callout>
  );
}
