import { isLoopbackHost } from '../security/origin.matcher';

/**
 * The packaged renderer is served from a privileged custom scheme rather than file://, so the app
 * has a real origin of its own (Electron security checklist: "avoid file://"): CSP 'self',
 * permission checks and the navigation allow-list then compare against one exact origin, and a
 * compromised page cannot read arbitrary files as a file:// page could.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'desktop';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Used only by `electron-vite dev` when no server is configured: the server's default port. */
export const DEVELOPMENT_SERVER_ORIGIN = 'http://localhost:8080';

export type DesktopMode = 'production' | 'development';

export interface RendererLocation {
  /** 'bundle' = out/renderer through app://; 'dev-server' = Vite with hot reload. */
  kind: 'bundle' | 'dev-server';
  origin: string;
  entryUrl: string;
}

export interface DesktopConfig {
  mode: DesktopMode;
  /** API and Socket.IO origin, e.g. https://app.example.com. */
  serverOrigin: string;
  /** The same host for WebSockets (wss:// for https://). */
  serverSocketOrigin: string;
  renderer: RendererLocation;
}

export interface DesktopConfigInput {
  isPackaged: boolean;
  env: Record<string, string | undefined>;
  /** Baked in at build time (MAIN_VITE_SERVER_URL); ATENDE_SERVER_URL at run time wins over it. */
  buildServerUrl?: string;
}

export class DesktopConfigError extends Error {
  override name = 'DesktopConfigError';
}

/**
 * Only https is accepted for the server, except on loopback for local development: tokens and
 * customer conversations must never cross the network in clear.
 */
export function parseServerOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new DesktopConfigError(`Server URL is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.username || url.password) throw new DesktopConfigError('Server URL must not contain credentials');
  const secure = url.protocol === 'https:';
  const localHttp = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (!secure && !localHttp) {
    throw new DesktopConfigError(`Server URL must use https (http is accepted only for localhost): ${url.origin}`);
  }
  return url.origin;
}

export function socketOriginFor(serverOrigin: string): string {
  return serverOrigin.replace(/^http/, 'ws');
}

export function resolveDesktopConfig(input: DesktopConfigInput): DesktopConfig {
  const devServerUrl = input.env.ELECTRON_RENDERER_URL;
  // electron-vite dev sets ELECTRON_RENDERER_URL; a packaged app ignores it so that an environment
  // variable can never point an installed console at a foreign page.
  const useDevServer = !input.isPackaged && !!devServerUrl;
  const mode: DesktopMode = input.isPackaged ? 'production' : 'development';

  const configuredServer = input.env.ATENDE_SERVER_URL || input.buildServerUrl;
  if (!configuredServer && input.isPackaged) {
    throw new DesktopConfigError('No server configured: build with MAIN_VITE_SERVER_URL or set ATENDE_SERVER_URL');
  }
  const serverOrigin = parseServerOrigin(configuredServer || DEVELOPMENT_SERVER_ORIGIN);

  let renderer: RendererLocation = { kind: 'bundle', origin: APP_ORIGIN, entryUrl: APP_ENTRY_URL };
  if (useDevServer) {
    const url = new URL(devServerUrl);
    if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) {
      throw new DesktopConfigError(`ELECTRON_RENDERER_URL must be a loopback http URL: ${devServerUrl}`);
    }
    renderer = { kind: 'dev-server', origin: url.origin, entryUrl: url.href };
  }

  return { mode, serverOrigin, serverSocketOrigin: socketOriginFor(serverOrigin), renderer };
}
