import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DESKTOP_EVENT_CHANNELS,
  DESKTOP_INVOKE_CHANNELS,
  DESKTOP_LISTENING_CHANNEL,
  readDesktopArgument,
} from '@shared/desktop-api';

/**
 * Loads the real entry (index.ts) against a recording fake of the 'electron' module: the Electron
 * binary cannot run here, so this proves the wiring - which policy is attached to which hook -
 * rather than Chromium's behaviour (see the manual checklist in the hand-over note).
 */
const fake = vi.hoisted(() => {
  type Listener = (...args: any[]) => any;
  class Emitter {
    listeners = new Map<string, Listener[]>();
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, listener: Listener) {
      return this.on(event, listener);
    }
    emit(event: string, ...args: any[]) {
      for (const listener of this.listeners.get(event) ?? []) listener(...args);
    }
  }

  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    requestSingleInstanceLock: vi.fn(() => true),
    enableSandbox: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: vi.fn(() => Promise.resolve()),
    setAppUserModelId: vi.fn(),
    setAsDefaultProtocolClient: vi.fn(),
    getVersion: () => '1.2.3',
    getPath: () => '/tmp/atende-wiring-test-user-data',
    setBadgeCount: vi.fn(),
    getLocale: () => 'pt-BR',
    getLoginItemSettings: () => ({ openAtLogin: false }),
    setLoginItemSettings: vi.fn(),
  });

  class Tray extends Emitter {
    static created: Tray[] = [];
    setToolTip = vi.fn();
    setContextMenu = vi.fn();
    setTitle = vi.fn();
    destroy = vi.fn();
    constructor(readonly image: unknown) {
      super();
      Tray.created.push(this);
    }
  }
  const nativeImage = {
    createFromPath: vi.fn((file: string) => ({ file, isEmpty: () => false, resize: () => ({ file }) })),
  };

  class FakeWebContents extends Emitter {
    send = vi.fn();
    windowOpenHandler: Listener | null = null;
    setWindowOpenHandler(handler: Listener) {
      this.windowOpenHandler = handler;
    }
  }

  class BrowserWindow extends Emitter {
    static created: BrowserWindow[] = [];
    static getAllWindows = () => BrowserWindow.created;
    webContents = new FakeWebContents();
    loadURL = vi.fn(async () => undefined);
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    constructor(readonly options: any) {
      super();
      BrowserWindow.created.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
  }

  class Notification extends Emitter {
    static isSupported = () => true;
    static shown: Notification[] = [];
    constructor(readonly options: any) {
      super();
    }
    show() {
      Notification.shown.push(this);
    }
  }

  return {
    app,
    BrowserWindow,
    Notification,
    Tray,
    Menu: { buildFromTemplate: (items: unknown[]) => items },
    nativeImage,
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: vi.fn() },
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
      },
    },
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn() },
    shell: { openExternal: vi.fn(async () => undefined) },
    dialog: { showErrorBox: vi.fn() },
  };
});

vi.mock('electron', () => fake);

const appEvent = { senderFrame: { url: 'app://desktop/index.html', parent: null } };
const ipcHandler = (channel: string) => fake.ipcMain.handle.mock.calls.find(([name]) => name === channel)![1];
const ipcListener = (channel: string) => fake.ipcMain.on.mock.calls.find(([name]) => name === channel)![1];

beforeAll(async () => {
  process.env.ATENDE_SERVER_URL = 'https://app.example.com';
  // Electron sets it in a packaged app (the tray icon is read from there).
  (process as { resourcesPath?: string }).resourcesPath = '/opt/Atende/resources';
  process.argv.push('atende://tickets/77');
  await import('./index');
  // The whenReady() continuation reads the preferences file first (real I/O, slower under load):
  // wait for its last step, the 'activate' listener.
  await vi.waitFor(() => expect(fake.app.listeners.get('activate')?.length).toBe(1), { timeout: 10_000 });
});

describe('main process wiring', () => {
  it('registers app:// as a privileged standard, secure scheme and sandboxes every renderer', () => {
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(fake.app.enableSandbox).toHaveBeenCalled();
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(fake.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('atende');
  });

  it('serves the renderer through the app protocol with the CSP', async () => {
    const [scheme, handler] = fake.protocol.handle.mock.calls[0];
    expect(scheme).toBe('app');
    const response: Response = await handler(new Request('app://desktop/../../etc/passwd'));
    expect(response.status).toBe(404);
  });

  it('puts the CSP on app pages only', () => {
    const [listener] = fake.session.defaultSession.webRequest.onHeadersReceived.mock.calls[0];
    const callback = vi.fn();
    listener({ url: 'app://desktop/index.html', responseHeaders: { 'content-security-policy': ['script-src *'] } }, callback);
    const headers = callback.mock.calls[0][0].responseHeaders;
    expect(headers['Content-Security-Policy'][0]).toContain("script-src 'self';");
    expect(headers['Content-Security-Policy'][0]).toContain("connect-src 'self' https://app.example.com wss://app.example.com");
    expect(headers).not.toHaveProperty('content-security-policy');

    listener({ url: 'https://app.example.com/tickets', responseHeaders: {} }, callback);
    expect(callback.mock.calls[1][0]).toEqual({});
  });

  it('routes permission requests and checks through the policy', () => {
    const [request] = fake.session.defaultSession.setPermissionRequestHandler.mock.calls[0];
    const granted = vi.fn();
    request({}, 'media', granted, { requestingUrl: 'app://desktop/index.html', isMainFrame: true, mediaTypes: ['audio'] });
    request({}, 'media', granted, { requestingUrl: 'app://desktop/index.html', isMainFrame: true, mediaTypes: ['video'] });
    request({}, 'geolocation', granted, { requestingUrl: 'app://desktop/index.html', isMainFrame: true });
    expect(granted.mock.calls).toEqual([[true], [false], [false]]);
    const [check] = fake.session.defaultSession.setPermissionCheckHandler.mock.calls[0];
    expect(check({}, 'notifications', 'app://desktop', { isMainFrame: true })).toBe(true);
    expect(check({}, 'notifications', 'https://evil.example', { isMainFrame: true })).toBe(false);
  });

  it('creates the hardened window with the preload and loads app://desktop', () => {
    const [window] = fake.BrowserWindow.created;
    const prefs = window.options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(prefs.preload).toMatch(/preload[\\/]index\.cjs$/);
    expect(readDesktopArgument(prefs.additionalArguments, 'apiBaseUrl')).toBe('https://app.example.com');
    expect(readDesktopArgument(prefs.additionalArguments, 'appVersion')).toBe('1.2.3');
    expect(window.loadURL).toHaveBeenCalledWith('app://desktop/index.html');
  });

  it('denies new windows and foreign navigation, opening web links externally', () => {
    const contents = fake.BrowserWindow.created[0].webContents;
    expect(contents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.shell.openExternal.mock.calls).toEqual([['https://example.com/']]);

    const navigate = (url: string) => {
      const event = { url, preventDefault: vi.fn() };
      contents.emit('will-navigate', event);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('app://desktop/index.html#/tickets')).toBe(false);
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('javascript:alert(1)')).toBe(true);

    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('registers the declared IPC channels only', () => {
    expect(fake.ipcMain.handle.mock.calls.map(([channel]) => channel).sort()).toEqual(
      Object.values(DESKTOP_INVOKE_CHANNELS).sort(),
    );
  });

  it('holds the cold-start deep link until the renderer listens, then delivers it', () => {
    const contents = fake.BrowserWindow.created[0].webContents;
    expect(contents.send).not.toHaveBeenCalled();
    ipcListener(DESKTOP_LISTENING_CHANNEL)(appEvent, 'deepLink');
    expect(contents.send).toHaveBeenCalledWith(DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/77', query: {} });
  });

  it("forwards a second instance's link to the running window", () => {
    const contents = fake.BrowserWindow.created[0].webContents;
    fake.app.emit('second-instance', {}, ['/opt/Atende/atende', 'atende://tickets/78'], '/');
    expect(contents.send).toHaveBeenLastCalledWith(DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/78', query: {} });
  });

  it('shows a notification and reports the ticket when it is clicked', async () => {
    const contents = fake.BrowserWindow.created[0].webContents;
    await ipcHandler(DESKTOP_INVOKE_CHANNELS.showNotification)(appEvent, { title: 'Maria', body: 'Olá', ticketId: 5 });
    const [notification] = fake.Notification.shown;
    expect(notification.options).toEqual({ title: 'Maria', body: 'Olá' });
    ipcListener(DESKTOP_LISTENING_CHANNEL)(appEvent, 'notificationClick');
    notification.emit('click');
    expect(contents.send).toHaveBeenLastCalledWith(DESKTOP_EVENT_CHANNELS.notificationClick, { ticketId: 5 });
  });

  it('clamps the badge and refuses to persist a token without a secure store', async () => {
    await ipcHandler(DESKTOP_INVOKE_CHANNELS.setBadgeCount)(appEvent, 123456);
    expect(fake.app.setBadgeCount).toHaveBeenLastCalledWith(9999);
    // The tray carries the count where there is no dock badge (Windows, most Linux desktops).
    expect(fake.Tray.created).toHaveLength(1);
    expect(fake.nativeImage.createFromPath).toHaveBeenCalledWith('/opt/Atende/resources/tray.png');
    expect(fake.Tray.created[0].setToolTip).toHaveBeenLastCalledWith('Atende: 9999 mensagens não lidas');
    await expect(ipcHandler(DESKTOP_INVOKE_CHANNELS.setRefreshToken)(appEvent, 'abc')).resolves.toBe(false);
  });

  it('reopens the console for a macOS link after its window was closed', () => {
    fake.BrowserWindow.created[0].emit('closed');
    const event = { preventDefault: vi.fn() };
    fake.app.emit('open-url', event, 'atende://tickets/79');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(fake.BrowserWindow.created).toHaveLength(2);
    const reopened = fake.BrowserWindow.created[1];
    expect(reopened.loadURL).toHaveBeenCalledWith('app://desktop/index.html');
    // The new page has not subscribed yet: the link waits for it instead of being lost.
    reopened.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    ipcListener(DESKTOP_LISTENING_CHANNEL)(appEvent, 'deepLink');
    expect(reopened.webContents.send).toHaveBeenCalledWith(DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/79', query: {} });
  });
});
