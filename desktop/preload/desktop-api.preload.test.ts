import { describe, expect, it, vi } from 'vitest';
import {
  DESKTOP_EVENT_CHANNELS,
  DESKTOP_INVOKE_CHANNELS,
  DESKTOP_LISTENING_CHANNEL,
  formatDesktopArgument,
} from '@shared/desktop-api';
import { createDesktopApi, readBridgeArguments, type IpcRendererLike } from './desktop-api.preload';

type Listener = (event: unknown, ...args: unknown[]) => void;

class FakeIpcRenderer implements IpcRendererLike {
  invoked: Array<[string, unknown[]]> = [];
  sent: Array<[string, unknown[]]> = [];
  listeners = new Map<string, Set<Listener>>();
  reply: unknown = undefined;
  invoke = vi.fn(async (channel: string, ...args: unknown[]) => {
    this.invoked.push([channel, args]);
    return this.reply;
  });
  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, args]);
  }
  on(channel: string, listener: Listener) {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(listener);
  }
  removeListener(channel: string, listener: Listener) {
    this.listeners.get(channel)?.delete(listener);
  }
  emit(channel: string, payload: unknown) {
    const senderEvent = { sender: { send: () => 'must not leak' } };
    for (const listener of this.listeners.get(channel) ?? []) listener(senderEvent, payload);
  }
}

function setup() {
  const ipc = new FakeIpcRenderer();
  const api = createDesktopApi({
    ipcRenderer: ipc,
    appVersion: '1.4.0',
    platform: 'win32',
    apiBaseUrl: 'https://app.example.com',
  });
  return { ipc, api };
}

describe('createDesktopApi', () => {
  it('exposes the static facts', () => {
    const { api } = setup();
    expect(api.appVersion).toBe('1.4.0');
    expect(api.platform).toBe('win32');
    expect(api.apiBaseUrl).toBe('https://app.example.com');
  });

  it('exposes exactly the documented members and no generic IPC', () => {
    const { api } = setup();
    expect(Object.keys(api).sort()).toEqual(
      [
        'apiBaseUrl',
        'appVersion',
        'cache',
        'media',
        'notify',
        'onDeepLink',
        'onNotificationClick',
        'outbox',
        'platform',
        'refreshToken',
        'setBadgeCount',
        'sync',
      ].sort(),
    );
    expect(Object.keys(api.refreshToken).sort()).toEqual(['clear', 'get', 'set']);
    expect(Object.keys(api.cache).sort()).toEqual(['begin', 'end', 'onPurged', 'search', 'setAccessToken', 'thread', 'tickets']);
    expect(Object.keys(api.sync).sort()).toEqual(['envelope', 'loadOlder', 'onStatus', 'online', 'status']);
    expect(Object.keys(api.outbox).sort()).toEqual(['discard', 'enqueue', 'list', 'onChange', 'retry']);
    expect(Object.keys(api.media).sort()).toEqual(['get', 'setBudget', 'usage']);
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('ipcRenderer');
  });

  it('notify sends only the documented fields on the notification channel', async () => {
    const { api, ipc } = setup();
    const request = { title: 'Maria', body: 'Olá', ticketId: 9, icon: 'file:///x' } as never;
    await api.notify(request);
    expect(ipc.invoked).toEqual([[DESKTOP_INVOKE_CHANNELS.showNotification, [{ title: 'Maria', body: 'Olá', ticketId: 9 }]]]);
  });

  it('notify copies an internal-chat conversation by its two fields only', async () => {
    const { api, ipc } = setup();
    await api.notify({ title: 'Ana', body: 'oi', chat: { kind: 'team', id: 7, sneaky: 'x' } } as never);
    const sent = (ipc.invoked[0][1] as unknown[])[0];
    expect(sent).toEqual({ title: 'Ana', body: 'oi', chat: { kind: 'team', id: 7 } });
    expect((sent as { chat: object }).chat).not.toHaveProperty('sneaky');
  });

  it('notify rejects when main refuses', async () => {
    const { api, ipc } = setup();
    ipc.invoke.mockRejectedValueOnce(new Error('ERR_DESKTOP_INVALID_INPUT: title must be a non-empty string'));
    await expect(api.notify({ title: '', body: '' })).rejects.toThrow(/INVALID_INPUT/);
  });

  it('setBadgeCount uses its own channel', async () => {
    const { api, ipc } = setup();
    await api.setBadgeCount(4);
    expect(ipc.invoked).toEqual([[DESKTOP_INVOKE_CHANNELS.setBadgeCount, [4]]]);
  });

  it('refreshToken maps to the three token channels and normalises replies', async () => {
    const { api, ipc } = setup();
    ipc.reply = 'tok';
    await expect(api.refreshToken.get()).resolves.toBe('tok');
    ipc.reply = { not: 'a string' };
    await expect(api.refreshToken.get()).resolves.toBeNull();
    ipc.reply = true;
    await expect(api.refreshToken.set('abc')).resolves.toBe(true);
    ipc.reply = 'yes';
    await expect(api.refreshToken.set('abc')).resolves.toBe(false);
    await api.refreshToken.clear();
    expect(ipc.invoked.map(([channel]) => channel)).toEqual([
      DESKTOP_INVOKE_CHANNELS.getRefreshToken,
      DESKTOP_INVOKE_CHANNELS.getRefreshToken,
      DESKTOP_INVOKE_CHANNELS.setRefreshToken,
      DESKTOP_INVOKE_CHANNELS.setRefreshToken,
      DESKTOP_INVOKE_CHANNELS.clearRefreshToken,
    ]);
  });

  it('onDeepLink delivers the payload only, announces the listener, and unsubscribes', () => {
    const { api, ipc } = setup();
    const received: unknown[] = [];
    const unsubscribe = api.onDeepLink((link) => received.push(link));
    expect(ipc.sent).toEqual([[DESKTOP_LISTENING_CHANNEL, ['deepLink']]]);

    ipc.emit(DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/3', query: {} });
    expect(received).toEqual([{ path: '/tickets/3', query: {} }]);

    unsubscribe();
    unsubscribe();
    ipc.emit(DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/4', query: {} });
    expect(received).toHaveLength(1);
    expect(ipc.listeners.get(DESKTOP_EVENT_CHANNELS.deepLink)?.size).toBe(0);
  });

  it('drops malformed pushes', () => {
    const { api, ipc } = setup();
    const links = vi.fn();
    const clicks = vi.fn();
    api.onDeepLink(links);
    api.onNotificationClick(clicks);
    ipc.emit(DESKTOP_EVENT_CHANNELS.deepLink, 'atende://tickets/1');
    ipc.emit(DESKTOP_EVENT_CHANNELS.notificationClick, { ticketId: '1' });
    expect(links).not.toHaveBeenCalled();
    expect(clicks).not.toHaveBeenCalled();
    ipc.emit(DESKTOP_EVENT_CHANNELS.notificationClick, { ticketId: 12 });
    expect(clicks).toHaveBeenCalledWith({ ticketId: 12 });
  });

  it('cache.onPurged announces the listener and passes only a well-formed purge notice', () => {
    const { api, ipc } = setup();
    const purges = vi.fn();
    api.cache.onPurged(purges);
    expect(ipc.sent).toEqual([[DESKTOP_LISTENING_CHANNEL, ['cachePurged']]]);
    for (const bad of [
      null,
      { reason: 'admin' },
      { reason: 'x', lostOutboxItems: 0 },
      { reason: 'self', lostOutboxItems: -1 },
      { reason: 'self', lostOutboxItems: '2' },
    ]) {
      ipc.emit(DESKTOP_EVENT_CHANNELS.cachePurged, bad);
    }
    expect(purges).not.toHaveBeenCalled();
    ipc.emit(DESKTOP_EVENT_CHANNELS.cachePurged, { reason: 'admin', lostOutboxItems: 2 });
    expect(purges).toHaveBeenCalledWith({ reason: 'admin', lostOutboxItems: 2 });
  });

  it('refuses a listener that is not a function', () => {
    const { api } = setup();
    expect(() => api.onDeepLink('x' as never)).toThrow(TypeError);
  });

  it('maps unknown platforms to a supported one', () => {
    const api = createDesktopApi({ ipcRenderer: new FakeIpcRenderer(), appVersion: '1', platform: 'freebsd', apiBaseUrl: '' });
    expect(api.platform).toBe('linux');
  });
});

describe('readBridgeArguments', () => {
  it('reads the switches main passed', () => {
    const argv = [
      'electron',
      formatDesktopArgument('appVersion', '2.0.1-beta.1'),
      formatDesktopArgument('apiBaseUrl', 'https://app.example.com'),
    ];
    expect(readBridgeArguments(argv)).toEqual({ appVersion: '2.0.1-beta.1', apiBaseUrl: 'https://app.example.com' });
    expect(readBridgeArguments(['x', formatDesktopArgument('apiBaseUrl', 'http://localhost:8080')]).apiBaseUrl).toBe(
      'http://localhost:8080',
    );
  });

  it('falls back when a switch is missing or malformed', () => {
    expect(readBridgeArguments([])).toEqual({ appVersion: 'unknown', apiBaseUrl: '' });
    const argv = [
      formatDesktopArgument('appVersion', '<img onerror=x>'),
      formatDesktopArgument('apiBaseUrl', 'javascript:alert(1)'),
    ];
    expect(readBridgeArguments(argv)).toEqual({ appVersion: 'unknown', apiBaseUrl: '' });
  });
});
