import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, DesktopConfigError, parseServerOrigin, resolveDesktopConfig } from './desktop.config';

describe('parseServerOrigin', () => {
  it('keeps only the origin of an https URL', () => {
    expect(parseServerOrigin('https://app.example.com/api/?x=1')).toBe('https://app.example.com');
  });

  it('accepts http only on loopback', () => {
    expect(parseServerOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    expect(parseServerOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(() => parseServerOrigin('http://app.example.com')).toThrow(DesktopConfigError);
  });

  it('refuses other schemes, credentials and garbage', () => {
    expect(() => parseServerOrigin('ftp://app.example.com')).toThrow(DesktopConfigError);
    expect(() => parseServerOrigin('https://user:pw@app.example.com')).toThrow(/credentials/);
    expect(() => parseServerOrigin('not a url')).toThrow(DesktopConfigError);
  });
});

describe('resolveDesktopConfig', () => {
  it('serves the packaged renderer from app://desktop and derives the socket origin', () => {
    const config = resolveDesktopConfig({ isPackaged: true, env: {}, buildServerUrl: 'https://app.example.com' });
    expect(config).toEqual({
      mode: 'production',
      serverOrigin: 'https://app.example.com',
      serverSocketOrigin: 'wss://app.example.com',
      renderer: { kind: 'bundle', origin: APP_ORIGIN, entryUrl: APP_ENTRY_URL },
    });
  });

  it('lets ATENDE_SERVER_URL override the build-time server', () => {
    const config = resolveDesktopConfig({
      isPackaged: true,
      env: { ATENDE_SERVER_URL: 'https://self-hosted.example.org' },
      buildServerUrl: 'https://app.example.com',
    });
    expect(config.serverOrigin).toBe('https://self-hosted.example.org');
  });

  it('refuses to start a packaged build without a server instead of guessing one', () => {
    expect(() => resolveDesktopConfig({ isPackaged: true, env: {} })).toThrow(/No server configured/);
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    const config = resolveDesktopConfig({
      isPackaged: true,
      env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' },
      buildServerUrl: 'https://app.example.com',
    });
    expect(config.renderer.kind).toBe('bundle');
  });

  it('uses the Vite dev server and the local server in development', () => {
    const config = resolveDesktopConfig({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' } });
    expect(config.mode).toBe('development');
    expect(config.serverOrigin).toBe('http://localhost:8080');
    expect(config.serverSocketOrigin).toBe('ws://localhost:8080');
    expect(config.renderer).toEqual({ kind: 'dev-server', origin: 'http://localhost:5173', entryUrl: 'http://localhost:5173/' });
  });

  it('refuses a dev server that is not on loopback', () => {
    expect(() => resolveDesktopConfig({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://evil.example:5173' } })).toThrow(
      DesktopConfigError,
    );
  });
});
