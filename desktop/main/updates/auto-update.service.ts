/**
 * electron-updater wiring. The feed is the `publish` entry of electron-builder.yml, which
 * electron-builder writes into the packaged app as app-update.yml; nothing here names a URL.
 */

export type AutoUpdateDecision =
  | { enabled: true }
  | { enabled: false; reason: 'not-packaged' | 'disabled-by-policy' | 'managed-by-package-manager' | 'app-store-build' };

export interface AutoUpdateContext {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** process.mas: Mac App Store builds are updated by the store. */
  isMacAppStore?: boolean;
}

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);

export function decideAutoUpdate(context: AutoUpdateContext): AutoUpdateDecision {
  // An unpackaged run has no app-update.yml and no signature to verify an update against.
  if (!context.isPackaged) return { enabled: false, reason: 'not-packaged' };
  if (context.isMacAppStore) return { enabled: false, reason: 'app-store-build' };
  // IT departments that roll out versions themselves switch self-updating off per machine.
  if (TRUTHY.has((context.env.ATENDE_DISABLE_AUTO_UPDATE ?? '').trim().toLowerCase())) {
    return { enabled: false, reason: 'disabled-by-policy' };
  }
  // On Linux only the AppImage updates itself; a .deb belongs to apt and the administrator.
  if (context.platform === 'linux' && !context.env.APPIMAGE) return { enabled: false, reason: 'managed-by-package-manager' };
  return { enabled: true };
}

/** The parts of electron-updater's AppUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  allowPrerelease: boolean;
  logger: unknown;
  checkForUpdatesAndNotify(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface AutoUpdateOptions {
  updater: UpdaterLike;
  logger: UpdateLogger;
  intervalMs?: number;
  timers?: { setInterval: (fn: () => void, ms: number) => unknown; clearInterval: (handle: any) => void };
}

export const DEFAULT_UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

/**
 * Checks at start and then periodically (agents leave the console open for days). Downloads in
 * the background and installs on quit, so a call in progress is never cut by a restart. Failures
 * (offline, feed down) are logged, never thrown: an update problem must not take the console down.
 */
export function startAutoUpdates(options: AutoUpdateOptions): () => void {
  const { updater, logger } = options;
  const timers: NonNullable<AutoUpdateOptions['timers']> = options.timers ?? { setInterval, clearInterval };
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.allowDowngrade = false;
  updater.allowPrerelease = false;
  updater.logger = logger;
  updater.on('error', (error) => logger.error(`auto-update failed: ${error.message}`));

  const check = () => {
    updater.checkForUpdatesAndNotify().catch((error: unknown) => {
      logger.warn(`auto-update check failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  check();
  const handle = timers.setInterval(check, options.intervalMs ?? DEFAULT_UPDATE_CHECK_INTERVAL_MS);
  return () => timers.clearInterval(handle);
}
