/**
 * Electron main process entry: wires the pure policy modules beside it to Electron. Decisions
 * (what may load, navigate, ask permissions, reach IPC) live in those modules and their tests;
 * this file only connects events to them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, Menu, Notification, Tray, app, dialog, ipcMain, nativeImage, protocol, safeStorage, session, shell } from 'electron';
import { startAccountServices, type AccountServices } from './account/account-services';
import { createAccountSession, type AccountSession } from './account/account-session';
import { loadOrCreateCacheKey } from './cache/cache-key';
import { APP_HOST, APP_SCHEME, resolveDesktopConfig, type DesktopConfig } from './config/desktop.config';
import { findDeepLinkInArgv, parseDeepLink, protocolClientRegistration } from './deep-links/deep-link.parser';
import { createRendererEventRouter } from './deep-links/renderer-event.queue';
import { registerDesktopIpcHandlers } from './ipc/desktop-ipc.handlers';
import { createNotificationService } from './notifications/notification.service';
import { createAppProtocolHandler } from './protocol/app-protocol.handler';
import { buildContentSecurityPolicy, shouldApplyCsp, withContentSecurityPolicy } from './security/content-security.policy';
import { openExternalSafely } from './security/external-link.opener';
import { decideNavigation, decideRedirect, decideWindowOpen } from './security/navigation.policy';
import { decidePermissionCheck, decidePermissionRequest } from './security/permission.policy';
import { createSecureTokenStore } from './tokens/secure-token.store';
import { DEFAULT_DESKTOP_PREFERENCES, loadDesktopPreferences, saveDesktopPreferences, type DesktopPreferences } from './preferences/desktop-preferences';
import { createTrayService, type TrayService } from './tray/tray.service';
import { decideAutoUpdate, startAutoUpdates } from './updates/auto-update.service';
import { buildMainWindowOptions } from './window/main-window.options';

const APP_USER_MODEL_ID = 'com.atende.desktop';
const outDir = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(outDir, '../preload/index.cjs');
const rendererDir = path.join(outDir, '../renderer');

const log = {
  info: (message: string) => console.info(`[desktop] ${message}`),
  warn: (message: string) => console.warn(`[desktop] ${message}`),
  error: (message: string) => console.error(`[desktop] ${message}`),
};

// Must happen before `ready`: the scheme gets a real, secure origin (needed for module scripts,
// fetch, notifications and getUserMedia) instead of file://'s opaque one. corsEnabled lets
// Chromium fetch Vite's `<script type="module" crossorigin>` bundles from this scheme; only the
// console's own pages ever run in this session (navigation allow-list), so no foreign page can
// use it to read app:// files.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
]);
// Every renderer is sandboxed, including any created by code that forgets the window option.
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;

const rendererEvents = createRendererEventRouter({
  send: (channel, payload) => {
    if (!mainWindow || mainWindow.isDestroyed()) return false;
    mainWindow.webContents.send(channel, payload);
    return true;
  },
});

/** Set once the app is ready: from then on a missing window can be (re)created. */
let readyConfig: DesktopConfig | null = null;

/** Brings the console forward, reopening it when macOS kept the app running without windows. */
function focusMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (readyConfig) mainWindow = createMainWindow(readyConfig);
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function handleDeepLink(raw: string | null): void {
  if (!raw) return;
  const link = parseDeepLink(raw);
  if (!link) {
    log.warn('ignored malformed deep link');
    return;
  }
  rendererEvents.dispatch('deepLink', link);
  focusMainWindow();
}

function appOriginsOf(config: DesktopConfig): readonly string[] {
  return [config.renderer.origin];
}

function hardenWebContents(config: DesktopConfig): void {
  const origins = appOriginsOf(config);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideWindowOpen(url, origins);
      if (decision.action === 'open-external') void openExternalSafely(decision.url, shell);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event) => {
      const decision = decideNavigation(event.url, origins);
      if (decision.action === 'allow') return;
      event.preventDefault();
      if (decision.action === 'open-external') void openExternalSafely(decision.url, shell);
    });
    contents.on('will-redirect', (event) => {
      if (decideRedirect(event.url, origins).action !== 'allow') event.preventDefault();
    });
  });
}

function configureSession(config: DesktopConfig): void {
  const origins = appOriginsOf(config);
  const csp = buildContentSecurityPolicy(config);
  const ses = session.defaultSession;

  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({ rootDir: rendererDir, host: APP_HOST, contentSecurityPolicy: () => csp }),
  );
  // The header route covers the Vite dev server in development and is a second layer for app://.
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (!shouldApplyCsp(details.url, origins)) {
      callback({});
      return;
    }
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, csp) });
  });
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(decidePermissionRequest(permission, { ...details, mediaTypes }, origins));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    decidePermissionCheck(permission, requestingOrigin, details, origins),
  );
}

function createMainWindow(config: DesktopConfig): BrowserWindow {
  const window = new BrowserWindow(
    buildMainWindowOptions({ preloadPath, appVersion: app.getVersion(), serverOrigin: config.serverOrigin }),
  );
  window.once('ready-to-show', () => window.show());
  window.webContents.on('did-start-navigation', (details) => {
    // A full load or reload drops the page's listeners; queued events wait for the new ones.
    if (details.isMainFrame && !details.isSameDocument) rendererEvents.reset();
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(config.renderer.entryUrl);
  return window;
}

let tray: TrayService | null = null;
/** This machine's console preferences (do not disturb), read once the app is ready. */
let preferences: DesktopPreferences = { ...DEFAULT_DESKTOP_PREFERENCES };
const preferencesPath = () => path.join(app.getPath('userData'), 'preferences.json');

/** The tray icon (packaged: resources/tray.png, see electron-builder.yml; development: build/icon.png). */
function createTray(): TrayService | null {
  const iconPath = app.isPackaged ? path.join(process.resourcesPath, 'tray.png') : path.join(outDir, '../../build/icon.png');
  const icon = nativeImage.createFromPath(iconPath);
  if (icon.isEmpty()) {
    log.warn(`no tray icon at ${iconPath}`);
    return null;
  }
  // A desktop without a tray (some Linux sessions) still gets the console.
  try {
    return startTray(icon);
  } catch (error) {
    log.warn(`no tray: ${String(error)}`);
    return null;
  }
}

function startTray(icon: Electron.NativeImage): TrayService {
  return createTrayService({
    createTray: () => new Tray(icon.resize({ width: process.platform === 'darwin' ? 16 : 22 })),
    buildMenu: (items) => Menu.buildFromTemplate(items),
    platform: process.platform,
    loginItem: { get: () => app.getLoginItemSettings(), set: (settings) => app.setLoginItemSettings(settings) },
    doNotDisturb: {
      get: () => preferences.doNotDisturb,
      set: (on) => {
        preferences = { ...preferences, doNotDisturb: on };
        void saveDesktopPreferences(preferencesPath(), preferences).catch((error: unknown) => log.warn(`preferences not saved: ${String(error)}`));
      },
    },
    openConsole: focusMainWindow,
    quit: () => app.quit(),
    locale: app.getLocale(),
  });
}

/** The open account's sync and outbox (issue #15); null while no account is open. */
let accountServices: AccountServices | null = null;

/**
 * The local cache: one encrypted database per server, tenant and user, opened for the account
 * the server confirms (account-session.ts), with its sync and outbox running while it is open.
 */
function createLocalCache(config: DesktopConfig): AccountSession {
  const directory = path.join(app.getPath('userData'), 'cache');
  const account: AccountSession = createAccountSession({
    serverOrigin: config.serverOrigin,
    cacheDirectory: directory,
    loadKey: () => loadOrCreateCacheKey({ safeStorage, filePath: path.join(directory, 'cache-key.bin'), platform: process.platform }),
    onOpen: (open) => {
      const services = startAccountServices(open, {
        serverOrigin: config.serverOrigin,
        logger: { info: (message) => log.info(message), warn: (message, meta) => log.warn(`${message} ${JSON.stringify(meta ?? {})}`) },
        onSyncStatus: (status) => rendererEvents.dispatch('syncStatus', status),
        onOutboxChange: (change) => rendererEvents.dispatch('outboxChange', change),
        mediaBudgetBytes: preferences.mediaBudgetBytes ?? undefined,
        // A server purge (desktop:purge): the cache is emptied and reopened, new services start on it.
        purge: () => account.purge(open),
        onPurged: (purge) => rendererEvents.dispatch('cachePurged', purge),
      });
      accountServices = services;
      return async () => {
        if (accountServices === services) accountServices = null;
        await services.stop();
      };
    },
  });
  // Quitting keeps the cache (that is the point of it); only logout, a switch and a server purge wipe it.
  app.on('will-quit', () => void account.end({ wipe: false }));
  return account;
}

function registerIpc(config: DesktopConfig): void {
  const notifications = createNotificationService({
    isSupported: () => Notification.isSupported(),
    createNotification: (options) => new Notification(options),
    isMuted: () => preferences.doNotDisturb,
    onClick: (click) => {
      focusMainWindow();
      if (click.ticketId !== undefined) rendererEvents.dispatch('notificationClick', { ticketId: click.ticketId });
      // An internal-chat message: its conversation opens like an `atende://chat-privado` link.
      if (click.chat) {
        const { kind, id } = click.chat;
        rendererEvents.dispatch('deepLink', { path: '/chat-privado', query: { kind, id: String(id) } });
      }
    },
  });
  const tokenStore = createSecureTokenStore({
    safeStorage,
    filePath: path.join(app.getPath('userData'), 'refresh-token.bin'),
    platform: process.platform,
  });
  const account = createLocalCache(config);
  registerDesktopIpcHandlers({
    ipcMain,
    account,
    services: () => accountServices,
    appOrigins: () => appOriginsOf(config),
    showNotification: (request) => {
      if (notifications.show(request) === 'unsupported') log.warn('notifications are not supported on this system');
    },
    setBadgeCount: (count) => {
      // A no-op on Windows (no dock badge there) and on Linux launchers without Unity support:
      // the tray's tooltip carries the count there.
      app.setBadgeCount(count);
      tray?.setUnread(count);
    },
    tokenStore,
    markRendererListening: (name) => rendererEvents.markListening(name),
    logger: { warn: (message, meta) => log.warn(`${message} ${JSON.stringify(meta ?? {})}`) },
    onMediaBudgetChanged: (bytes) => {
      preferences = { ...preferences, mediaBudgetBytes: bytes };
      void saveDesktopPreferences(preferencesPath(), preferences).catch((error: unknown) => log.warn(`preferences not saved: ${String(error)}`));
    },
  });
}

async function startUpdates(): Promise<void> {
  const decision = decideAutoUpdate({
    isPackaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    isMacAppStore: process.mas === true,
  });
  if (!decision.enabled) {
    log.info(`auto-update off: ${decision.reason}`);
    return;
  }
  // Loaded only when it will run: electron-updater reads app-update.yml at construction.
  const updaterModule = await import('electron-updater');
  startAutoUpdates({ updater: updaterModule.autoUpdater, logger: log });
}

function registerProtocolClient(): void {
  const registration = protocolClientRegistration({
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    argv: process.argv,
    resolvePath: (p) => path.resolve(p),
  });
  if (registration.executable) {
    app.setAsDefaultProtocolClient(registration.scheme, registration.executable, registration.args);
  } else {
    app.setAsDefaultProtocolClient(registration.scheme);
  }
}

function main(): void {
  // One console per user session: a second launch (often from a deep link) hands its arguments
  // to the running instance and exits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  let config: DesktopConfig;
  try {
    config = resolveDesktopConfig({
      isPackaged: app.isPackaged,
      env: process.env,
      buildServerUrl: import.meta.env.MAIN_VITE_SERVER_URL,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void app.whenReady().then(() => {
      dialog.showErrorBox('Atende', message);
      app.exit(1);
    });
    return;
  }

  // macOS delivers links through open-url, possibly before `ready` on a cold start.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    handleDeepLink(url);
  });
  app.on('second-instance', (_event, argv) => {
    focusMainWindow();
    handleDeepLink(findDeepLinkInArgv(argv));
  });
  hardenWebContents(config);
  registerProtocolClient();

  void app.whenReady().then(async () => {
    if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
    preferences = await loadDesktopPreferences(preferencesPath()).catch(() => ({ ...DEFAULT_DESKTOP_PREFERENCES }));
    configureSession(config);
    registerIpc(config);
    readyConfig = config;
    mainWindow = createMainWindow(config);
    tray = createTray();
    handleDeepLink(findDeepLinkInArgv(process.argv));
    void startUpdates().catch((error: unknown) => log.error(`auto-update not started: ${String(error)}`));

    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) focusMainWindow();
    });
  });

  app.on('window-all-closed', () => {
    // macOS apps stay in the dock without windows; elsewhere closing the console quits it.
    if (process.platform !== 'darwin') app.quit();
  });
}

main();
