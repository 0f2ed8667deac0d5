import { describe, expect, it } from 'vitest';
import { readDesktopArgument } from '@shared/desktop-api';
import { buildMainWindowOptions } from './main-window.options';

const options = buildMainWindowOptions({
  preloadPath: '/app/out/preload/index.cjs',
  appVersion: '1.2.3',
  serverOrigin: 'https://app.example.com',
});
const prefs = options.webPreferences!;

describe('buildMainWindowOptions', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and the risky features off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('loads the CommonJS preload and hands it the version and server', () => {
    expect(prefs.preload).toBe('/app/out/preload/index.cjs');
    expect(readDesktopArgument(prefs.additionalArguments!, 'appVersion')).toBe('1.2.3');
    expect(readDesktopArgument(prefs.additionalArguments!, 'apiBaseUrl')).toBe('https://app.example.com');
  });

  it('waits for ready-to-show', () => {
    expect(options.show).toBe(false);
  });
});
