import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_INVOKE_CHANNELS, DESKTOP_LISTENING_CHANNEL } from '@shared/desktop-api';
import type { SecureTokenStore } from '../tokens/secure-token.store';
import { isTrustedSenderFrame, registerDesktopIpcHandlers } from './desktop-ipc.handlers';
import { FakeIpcMain } from './fake-ipc-main.test-support';

const appEvent = { senderFrame: { url: 'app://desktop/index.html#/tickets', parent: null } };
const foreignEvent = { senderFrame: { url: 'https://evil.example/', parent: null } };
const iframeEvent = { senderFrame: { url: 'app://desktop/index.html', parent: {} } };

function setup() {
  const ipcMain = new FakeIpcMain();
  const tokenStore: SecureTokenStore = {
    save: vi.fn(async () => true),
    load: vi.fn(async () => 'stored-token'),
    clear: vi.fn(async () => undefined),
    isAvailable: () => true,
  };
  const deps = {
    ipcMain,
    appOrigins: () => ['app://desktop'],
    showNotification: vi.fn(),
    setBadgeCount: vi.fn(),
    tokenStore,
    markRendererListening: vi.fn(),
    logger: { warn: vi.fn() },
  };
  const dispose = registerDesktopIpcHandlers(deps);
  return { ipcMain, deps, dispose, tokenStore };
}

describe('isTrustedSenderFrame', () => {
  it("trusts only the app's top-level frame", () => {
    expect(isTrustedSenderFrame(appEvent.senderFrame, ['app://desktop'])).toBe(true);
    expect(isTrustedSenderFrame(foreignEvent.senderFrame, ['app://desktop'])).toBe(false);
    expect(isTrustedSenderFrame(iframeEvent.senderFrame, ['app://desktop'])).toBe(false);
    expect(isTrustedSenderFrame(null, ['app://desktop'])).toBe(false);
  });
});

describe('registerDesktopIpcHandlers', () => {
  it('registers exactly the declared channels', () => {
    const { ipcMain } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.values(DESKTOP_INVOKE_CHANNELS).sort());
    expect([...ipcMain.listeners.keys()]).toEqual([DESKTOP_LISTENING_CHANNEL]);
  });

  it('shows a validated notification', async () => {
    const { ipcMain, deps } = setup();
    await ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.showNotification, appEvent, {
      title: 'Novo',
      body: 'msg',
      ticketId: 3,
      extra: 1,
    });
    expect(deps.showNotification).toHaveBeenCalledWith({ title: 'Novo', body: 'msg', ticketId: 3 });
  });

  it('rejects an invalid notification without showing anything', async () => {
    const { ipcMain, deps } = setup();
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.showNotification, appEvent, { title: '', body: 'x' })).rejects.toThrow(
      /ERR_DESKTOP_INVALID_INPUT: title/,
    );
    expect(deps.showNotification).not.toHaveBeenCalled();
  });

  it('clamps the badge count', async () => {
    const { ipcMain, deps } = setup();
    await ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.setBadgeCount, appEvent, -3);
    await ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.setBadgeCount, appEvent, 12.7);
    expect(deps.setBadgeCount.mock.calls).toEqual([[0], [12]]);
  });

  it('stores, reads and clears the refresh token through the secure store', async () => {
    const { ipcMain, tokenStore } = setup();
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.setRefreshToken, appEvent, 'abc.def')).resolves.toBe(true);
    expect(tokenStore.save).toHaveBeenCalledWith('abc.def');
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.getRefreshToken, appEvent)).resolves.toBe('stored-token');
    await ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.clearRefreshToken, appEvent);
    expect(tokenStore.clear).toHaveBeenCalled();
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.setRefreshToken, appEvent, 'with space')).rejects.toThrow(
      /INVALID_INPUT/,
    );
  });

  it.each([foreignEvent, iframeEvent, { senderFrame: null }])(
    'refuses every channel from an untrusted sender (%j)',
    async (event) => {
      const { ipcMain, deps, tokenStore } = setup();
      for (const channel of Object.values(DESKTOP_INVOKE_CHANNELS)) {
        await expect(ipcMain.invoke(channel, event, { title: 't', body: 'b' })).rejects.toThrow(/ERR_DESKTOP_UNTRUSTED_SENDER/);
      }
      expect(deps.showNotification).not.toHaveBeenCalled();
      expect(tokenStore.load).not.toHaveBeenCalled();
      expect(deps.logger.warn).toHaveBeenCalled();
    },
  );

  it('records listeners only for declared events from the app', () => {
    const { ipcMain, deps } = setup();
    const onListening = ipcMain.listeners.get(DESKTOP_LISTENING_CHANNEL)!;
    onListening(appEvent, 'deepLink');
    onListening(appEvent, 'somethingElse');
    onListening(foreignEvent, 'notificationClick');
    expect(deps.markRendererListening.mock.calls).toEqual([['deepLink']]);
  });

  it('removes everything it registered', () => {
    const { ipcMain, dispose } = setup();
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(ipcMain.listeners.size).toBe(0);
  });
});
