/**
 * Where the server is. The web app is served by the server itself, so it calls its own origin;
 * the desktop console loads the same bundle from disk and needs an explicit address, given by
 * the desktop shell, a stored choice, or the build.
 */
export interface ApiBaseUrlSources {
  /** `window.location.protocol` of the page. */
  protocol: string;
  /** Address handed over by the desktop shell (preload), when running in Electron. */
  desktopApiBaseUrl?: string | null;
  /** Address the user saved in this installation (localStorage `apiBaseUrl`). */
  storedApiBaseUrl?: string | null;
  /** VITE_API_BASE_URL at build time. */
  buildApiBaseUrl?: string | null;
}

/** Used by a desktop build that was given no address at all: a server on this machine. */
export const DESKTOP_DEFAULT_API_BASE_URL = 'http://localhost:8080';

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

export function resolveApiBaseUrl(sources: ApiBaseUrlSources): string {
  const servedOverHttp = sources.protocol === 'http:' || sources.protocol === 'https:';
  const explicit = sources.desktopApiBaseUrl || sources.storedApiBaseUrl || sources.buildApiBaseUrl;
  if (servedOverHttp) return trimSlash(sources.buildApiBaseUrl || sources.desktopApiBaseUrl || '');
  return trimSlash(explicit || DESKTOP_DEFAULT_API_BASE_URL);
}

/** The desktop preload's object, read defensively: its full type belongs to desktop/preload. */
function desktopBridge(): { apiBaseUrl?: unknown; config?: { apiBaseUrl?: unknown } } | null {
  if (typeof window === 'undefined') return null;
  const bridge = (window as unknown as { desktop?: unknown }).desktop;
  return bridge && typeof bridge === 'object' ? (bridge as { apiBaseUrl?: unknown; config?: { apiBaseUrl?: unknown } }) : null;
}

/** True inside the Electron console (the preload exposes `window.desktop`). */
export const isDesktop = (): boolean => desktopBridge() !== null;

function readDesktopApiBaseUrl(): string | null {
  const bridge = desktopBridge();
  const value = bridge?.config?.apiBaseUrl ?? bridge?.apiBaseUrl;
  return typeof value === 'string' ? value : null;
}

export function currentApiBaseUrl(): string {
  return resolveApiBaseUrl({
    protocol: typeof location === 'undefined' ? 'http:' : location.protocol,
    desktopApiBaseUrl: readDesktopApiBaseUrl(),
    storedApiBaseUrl: typeof localStorage === 'undefined' ? null : localStorage.getItem('apiBaseUrl'),
    buildApiBaseUrl: import.meta.env?.VITE_API_BASE_URL ?? null,
  });
}

/** Socket.IO needs an absolute origin; '' (same origin) becomes the page's own. */
export function currentSocketUrl(): string {
  const base = currentApiBaseUrl();
  return base || (typeof location === 'undefined' ? '' : location.origin);
}
