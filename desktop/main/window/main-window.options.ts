import type { BrowserWindowConstructorOptions } from 'electron';
import { formatDesktopArgument } from '@shared/desktop-api';

export interface MainWindowOptionsInput {
  preloadPath: string;
  appVersion: string;
  serverOrigin: string;
  iconPath?: string;
}

/**
 * The console window. Each webPreferences entry is set explicitly even where it is Electron's
 * default, so a future default change or a careless edit shows up in review and in the tests.
 */
export function buildMainWindowOptions(input: MainWindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    // Shown on ready-to-show to avoid a white flash while the bundle loads.
    show: false,
    backgroundColor: '#f6f7f9',
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      additionalArguments: [
        formatDesktopArgument('appVersion', input.appVersion),
        formatDesktopArgument('apiBaseUrl', input.serverOrigin),
      ],
    },
  };
}
