import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_UPDATE_CHECK_INTERVAL_MS, decideAutoUpdate, startAutoUpdates, type UpdaterLike } from './auto-update.service';

describe('decideAutoUpdate', () => {
  const packaged = { isPackaged: true, platform: 'win32' as const, env: {} };

  it('runs only in packaged builds', () => {
    expect(decideAutoUpdate({ ...packaged, isPackaged: false })).toEqual({ enabled: false, reason: 'not-packaged' });
    expect(decideAutoUpdate(packaged)).toEqual({ enabled: true });
    expect(decideAutoUpdate({ ...packaged, platform: 'darwin' })).toEqual({ enabled: true });
  });

  it('honours the IT policy switch', () => {
    for (const value of ['1', 'true', 'YES', ' on ']) {
      expect(decideAutoUpdate({ ...packaged, env: { ATENDE_DISABLE_AUTO_UPDATE: value } })).toEqual({
        enabled: false,
        reason: 'disabled-by-policy',
      });
    }
    expect(decideAutoUpdate({ ...packaged, env: { ATENDE_DISABLE_AUTO_UPDATE: '0' } })).toEqual({ enabled: true });
  });

  it('updates the Linux AppImage but leaves .deb installs to the package manager', () => {
    expect(decideAutoUpdate({ ...packaged, platform: 'linux', env: { APPIMAGE: '/home/a/Atende.AppImage' } })).toEqual({
      enabled: true,
    });
    expect(decideAutoUpdate({ ...packaged, platform: 'linux', env: {} })).toEqual({
      enabled: false,
      reason: 'managed-by-package-manager',
    });
  });

  it('leaves Mac App Store builds to the store', () => {
    expect(decideAutoUpdate({ ...packaged, platform: 'darwin', isMacAppStore: true })).toEqual({
      enabled: false,
      reason: 'app-store-build',
    });
  });
});

function fakeUpdater(check: () => Promise<unknown>) {
  const listeners: Record<string, (error: Error) => void> = {};
  const updater: UpdaterLike = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowDowngrade: true,
    allowPrerelease: true,
    logger: null,
    checkForUpdatesAndNotify: vi.fn(check),
    on: (event, listener) => {
      listeners[event] = listener;
    },
  };
  return { updater, listeners };
}

describe('startAutoUpdates', () => {
  const logger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

  it('configures safe defaults, checks now and then periodically', () => {
    const { updater } = fakeUpdater(async () => null);
    const scheduled: Array<[() => void, number]> = [];
    const timers = { setInterval: (fn: () => void, ms: number) => scheduled.push([fn, ms]), clearInterval: vi.fn() };
    const stop = startAutoUpdates({ updater, logger: logger(), timers });
    expect(updater).toMatchObject({
      autoDownload: true,
      autoInstallOnAppQuit: true,
      allowDowngrade: false,
      allowPrerelease: false,
    });
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
    expect(scheduled[0][1]).toBe(DEFAULT_UPDATE_CHECK_INTERVAL_MS);
    scheduled[0][0]();
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(2);
    stop();
    expect(timers.clearInterval).toHaveBeenCalledWith(1);
  });

  it('logs failures instead of throwing', async () => {
    const { updater, listeners } = fakeUpdater(async () => {
      throw new Error('net::ERR_INTERNET_DISCONNECTED');
    });
    const log = logger();
    startAutoUpdates({ updater, logger: log, timers: { setInterval: () => 0, clearInterval: () => undefined } });
    await vi.waitFor(() => expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('ERR_INTERNET_DISCONNECTED')));
    listeners.error(new Error('bad signature'));
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('bad signature'));
  });
});
