import { describe, expect, it } from 'vitest';
import type { DesktopSyncStatus } from '@shared/desktop-api';
import { bannerState, nextBannerCheck, SOCKET_GRACE_MS, type ConnectionSnapshot, type DesktopConnectionPart } from './connection-status';

const online: ConnectionSnapshot = { browserOnline: true, socketConnected: true, socketDownSince: null, desktop: null };
const sync = (state: DesktopSyncStatus['state'], extra: Partial<DesktopSyncStatus> = {}): DesktopSyncStatus => ({
  state,
  lastSeq: 10,
  lastSyncedAt: null,
  error: null,
  nextRetryAt: null,
  ...extra,
});
const desktop = (part: Partial<DesktopConnectionPart>): DesktopConnectionPart => ({
  sync: sync('idle'),
  queued: 0,
  servedFromCache: false,
  catchingUp: false,
  ...part,
});

describe('the offline banner', () => {
  it('web: hidden while online; offline when the browser says so', () => {
    expect(bannerState(online, 0)).toEqual({ kind: 'hidden' });
    expect(bannerState({ ...online, browserOnline: false }, 0)).toEqual({ kind: 'offline', retryAt: null, fromCache: false, queued: 0 });
  });

  it('a socket down for a blip shows nothing; past the grace period it is offline', () => {
    const down = { ...online, socketConnected: false, socketDownSince: 1000 };
    expect(bannerState(down, 1000 + SOCKET_GRACE_MS - 1).kind).toBe('hidden');
    expect(bannerState(down, 1000 + SOCKET_GRACE_MS).kind).toBe('offline');
    expect(nextBannerCheck(down, 2000)).toBe(SOCKET_GRACE_MS - 1000);
    expect(nextBannerCheck(down, 1000 + SOCKET_GRACE_MS)).toBeNull();
    expect(nextBannerCheck(online, 0)).toBeNull();
    // No socket at all (signed out) is not "disconnected".
    expect(bannerState({ ...online, socketConnected: null }, 1e9).kind).toBe('hidden');
  });

  it("desktop: the sync's offline state with its next retry, the cache's data and the queue", () => {
    const snapshot = { ...online, desktop: desktop({ sync: sync('offline', { nextRetryAt: '2026-11-26T10:00:05Z' }), queued: 2, servedFromCache: true }) };
    expect(bannerState(snapshot, 0)).toEqual({ kind: 'offline', retryAt: '2026-11-26T10:00:05Z', fromCache: true, queued: 2 });
  });

  it('desktop: a failed sync says why and when it tries again', () => {
    const failed = sync('error', { error: { code: 'ERR_X', message: 'Servidor indisponível', httpStatus: 503 }, nextRetryAt: 'T' });
    expect(bannerState({ ...online, desktop: desktop({ sync: failed }) }, 0)).toEqual({
      kind: 'error',
      message: 'Servidor indisponível',
      retryAt: 'T',
      fromCache: false,
      queued: 0,
    });
  });

  it('desktop: syncing shows only as a catch-up after being offline; then the queue count; then nothing', () => {
    expect(bannerState({ ...online, desktop: desktop({ sync: sync('syncing') }) }, 0).kind).toBe('hidden');
    expect(bannerState({ ...online, desktop: desktop({ sync: sync('syncing'), catchingUp: true, queued: 1 }) }, 0)).toEqual({ kind: 'syncing', queued: 1 });
    expect(bannerState({ ...online, desktop: desktop({ queued: 3 }) }, 0)).toEqual({ kind: 'pending', queued: 3 });
    expect(bannerState({ ...online, desktop: desktop({}) }, 0)).toEqual({ kind: 'hidden' });
  });
});
