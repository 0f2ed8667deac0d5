import type { Middleware } from 'koa';

/** Where browsers POST Content-Security-Policy violation reports (http/csp-report.ts). */
export const CSP_REPORT_PATH = '/csp-report';

/**
 * The web app's Content-Security-Policy. Scripts only from the server itself (the Vite build
 * has no inline script); the network only to the server (REST, media, and Socket.IO over
 * ws/wss of the same host). Two deliberate concessions: inline styles (Blueprint, popper and
 * React set style attributes; style injection cannot run code), and `https:` images (contact
 * pictures are the channels' own CDN addresses, which change). `report-uri` rather than
 * report-to: it reports at once and also on plain-http LAN origins, where the Reporting API
 * sends nothing.
 */
export function contentSecurityPolicy(host: string): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", `ws://${host}`, `wss://${host}`],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'report-uri': [CSP_REPORT_PATH],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** HSTS for a year, only on HTTPS (behind a proxy: X-Forwarded-Proto with TRUST_PROXY). */
const HSTS = 'max-age=31536000';

/**
 * Headers of every answer: the CSP (harmless on JSON, and it covers every HTML page the static
 * server may send), no framing anywhere (frame-ancestors + X-Frame-Options for older browsers),
 * no MIME sniffing, no referrer leaving the app, HSTS over HTTPS.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', contentSecurityPolicy(ctx.host));
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (ctx.secure) ctx.set('Strict-Transport-Security', HSTS);
    await next();
  };
}
