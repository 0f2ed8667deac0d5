import type { DesktopConfig } from '../config/desktop.config';
import { isOneOfOrigins } from './origin.matcher';

export type CspDirectives = Record<string, string[]>;

/**
 * The renderer's Content-Security-Policy. Scripts come only from the app itself; the network is
 * limited to the configured server (REST, Socket.IO, media). 'unsafe-inline' for styles is a
 * deliberate concession: Blueprint and React set inline styles, and style injection without
 * script execution is a far smaller risk than the scripts this policy blocks.
 */
export function buildCspDirectives(
  config: Pick<DesktopConfig, 'mode' | 'serverOrigin' | 'serverSocketOrigin' | 'renderer'>,
): CspDirectives {
  const server = config.serverOrigin;
  const directives: CspDirectives = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', server],
    'media-src': ["'self'", 'blob:', server],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", server, config.serverSocketOrigin],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
  if (config.mode === 'development' && config.renderer.kind === 'dev-server') {
    // Vite's React refresh preamble is an inline script and HMR talks over a WebSocket to the
    // dev server; neither exists in a packaged build, which keeps the strict policy above.
    directives['script-src'].push("'unsafe-inline'");
    directives['connect-src'].push(config.renderer.origin.replace(/^http/, 'ws'));
  }
  return directives;
}

export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...new Set(sources)].join(' '))
    .join('; ');
}

export function buildContentSecurityPolicy(config: Parameters<typeof buildCspDirectives>[0]): string {
  return serializeCsp(buildCspDirectives(config));
}

export type ResponseHeaders = Record<string, string[] | string>;

/**
 * Returns the headers with our policy as the only CSP: an existing header (any spelling) is
 * replaced, not merged, so a response can never loosen the policy by sending its own.
 */
export function withContentSecurityPolicy(headers: ResponseHeaders | undefined, csp: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue;
    result[name] = Array.isArray(value) ? value : [value];
  }
  result['Content-Security-Policy'] = [csp];
  result['X-Content-Type-Options'] = ['nosniff'];
  return result;
}

/** The policy is attached to responses of the app's own pages, never to the server's API replies. */
export function shouldApplyCsp(url: string, appOrigins: readonly string[]): boolean {
  return isOneOfOrigins(url, appOrigins);
}
