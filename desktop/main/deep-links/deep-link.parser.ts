import { DEEP_LINK_SCHEME, DESKTOP_LIMITS, type DeepLink } from '@shared/desktop-api';
import { hasControlCharacters } from '../security/control-characters';

/**
 * `atende://` links arrive from outside (browser pages, e-mails, other apps), so they are parsed
 * strictly and reduced to a path and simple query pairs before the renderer ever sees them.
 */

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.~-]{0,127}$/;
const QUERY_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_SEGMENTS = 8;
const MAX_QUERY_PAIRS = 20;
const MAX_QUERY_VALUE = 512;

export function parseDeepLink(raw: unknown, scheme: string = DEEP_LINK_SCHEME): DeepLink | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > DESKTOP_LIMITS.deepLinkMax) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol.toLowerCase() !== `${scheme}:`) return null;
  if (url.username || url.password || url.port) return null;

  // `atende://tickets/42` parses with host "tickets"; `atende:///tickets/42` with an empty host.
  // Both mean the same route.
  let segments: string[];
  try {
    segments = [url.hostname, ...url.pathname.split('/')].filter((segment) => segment.length > 0).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments.length === 0 || segments.length > MAX_SEGMENTS) return null;
  if (!segments.every((segment) => SEGMENT.test(segment))) return null;

  const query: Record<string, string> = {};
  let pairs = 0;
  for (const [key, value] of url.searchParams) {
    pairs += 1;
    if (pairs > MAX_QUERY_PAIRS) return null;
    if (!QUERY_KEY.test(key) || value.length > MAX_QUERY_VALUE || hasControlCharacters(value, false)) return null;
    query[key] = value;
  }
  return { path: `/${segments.join('/')}`, query };
}

/** Windows and Linux deliver the link as a command-line argument (cold start or second instance). */
export function findDeepLinkInArgv(argv: readonly string[], scheme: string = DEEP_LINK_SCHEME): string | null {
  const prefix = `${scheme}:`;
  return argv.find((arg) => arg.toLowerCase().startsWith(prefix)) ?? null;
}

export interface ProtocolClientRegistration {
  scheme: string;
  /** Only for an unpackaged run: the Electron binary plus the app path, so the OS relaunches this checkout. */
  executable?: string;
  args?: string[];
}

/**
 * Arguments for app.setAsDefaultProtocolClient. A packaged app registers itself; `electron .`
 * in development must name the app folder, otherwise the OS would launch a bare Electron.
 */
export function protocolClientRegistration(input: {
  defaultApp: boolean;
  execPath: string;
  argv: readonly string[];
  resolvePath: (p: string) => string;
  scheme?: string;
}): ProtocolClientRegistration {
  const scheme = input.scheme ?? DEEP_LINK_SCHEME;
  if (input.defaultApp && input.argv.length >= 2) {
    return { scheme, executable: input.execPath, args: [input.resolvePath(input.argv[1])] };
  }
  return { scheme };
}
