import type { DesktopSyncStatus } from '@shared/desktop-api';

/**
 * What the console knows about its connection, for the offline banner (issue #15): the browser's
 * own online flag, the realtime socket, and on the desktop the local cache's sync, the outbox and
 * whether a screen is showing data read from the cache. A tiny external store (part of the main
 * script: the web app shows the banner too); the desktop's part is filled in by the lazily loaded
 * desktop module (desktop-offline/), so the web app never loads it.
 */
export interface DesktopConnectionPart {
  sync: DesktopSyncStatus | null;
  /** Outbox items waiting to go (queued or sending). */
  queued: number;
  /** A query was answered from the local cache since the connection was last up. */
  servedFromCache: boolean;
  /** The sync was offline (or failed) since the last time it was idle: a later 'syncing' is a catch-up. */
  catchingUp: boolean;
}

export interface ConnectionSnapshot {
  browserOnline: boolean;
  /** null while no socket exists (signed out). */
  socketConnected: boolean | null;
  /** When the socket lost its connection (epoch ms); null while connected or absent. */
  socketDownSince: number | null;
  desktop: DesktopConnectionPart | null;
}

export type BannerState =
  | { kind: 'hidden' }
  | { kind: 'offline'; retryAt: string | null; fromCache: boolean; queued: number }
  | { kind: 'error'; message: string | null; retryAt: string | null; fromCache: boolean; queued: number }
  | { kind: 'syncing'; queued: number }
  | { kind: 'pending'; queued: number };

/** A socket down for less than this is a blip (a server restart, a network change): no banner. */
export const SOCKET_GRACE_MS = 5000;

/** The banner for a snapshot at `now` (pure: the component re-renders it on a timer and on changes). */
export function bannerState(snapshot: ConnectionSnapshot, now: number, graceMs = SOCKET_GRACE_MS): BannerState {
  const desktop = snapshot.desktop;
  const queued = desktop?.queued ?? 0;
  const fromCache = desktop?.servedFromCache ?? false;
  const sync = desktop?.sync ?? null;
  const socketDown = snapshot.socketConnected === false && snapshot.socketDownSince !== null && now - snapshot.socketDownSince >= graceMs;
  if (!snapshot.browserOnline || socketDown || sync?.state === 'offline')
    return { kind: 'offline', retryAt: sync?.state === 'offline' ? sync.nextRetryAt : null, fromCache, queued };
  if (sync?.state === 'error')
    return { kind: 'error', message: sync.error?.message ?? null, retryAt: sync.nextRetryAt, fromCache, queued };
  if (sync?.state === 'syncing' && desktop?.catchingUp) return { kind: 'syncing', queued };
  if (queued > 0) return { kind: 'pending', queued };
  return { kind: 'hidden' };
}

/** When the banner may change by itself (the socket's grace period ending); null: only on a change. */
export function nextBannerCheck(snapshot: ConnectionSnapshot, now: number, graceMs = SOCKET_GRACE_MS): number | null {
  if (snapshot.socketConnected !== false || snapshot.socketDownSince === null) return null;
  const due = snapshot.socketDownSince + graceMs - now;
  return due > 0 ? due : null;
}

const initial = (): ConnectionSnapshot => ({
  browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
  socketConnected: null,
  socketDownSince: null,
  desktop: null,
});

let snapshot: ConnectionSnapshot = initial();
const listeners = new Set<() => void>();

function update(patch: Partial<ConnectionSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

export const connectionStatus = {
  get: (): ConnectionSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  browserOnlineChanged(online: boolean): void {
    if (snapshot.browserOnline !== online) update({ browserOnline: online });
  },
  socketChanged(connected: boolean, now = Date.now()): void {
    if (connected) update({ socketConnected: true, socketDownSince: null });
    else if (snapshot.socketConnected !== false) update({ socketConnected: false, socketDownSince: now });
  },
  /** Signed out: no socket, nothing to warn about. */
  socketClosed(): void {
    update({ socketConnected: null, socketDownSince: null });
  },
  desktopChanged(patch: Partial<DesktopConnectionPart>): void {
    const current = snapshot.desktop ?? { sync: null, queued: 0, servedFromCache: false, catchingUp: false };
    update({ desktop: { ...current, ...patch } });
  },
  /** Tells whether a screen showed cached data, and forgets it (the caller refetches). */
  takeServedFromCache(): boolean {
    if (!snapshot.desktop?.servedFromCache) return false;
    update({ desktop: { ...snapshot.desktop, servedFromCache: false } });
    return true;
  },
  /** Tests only. */
  reset(): void {
    snapshot = initial();
    for (const listener of listeners) listener();
  },
};
