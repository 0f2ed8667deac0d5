import { readFile as readFileFromDisk } from 'node:fs/promises';
import path from 'node:path';

/**
 * Serves the built renderer (out/renderer) on the privileged `app://desktop/` origin. Read-only,
 * GET/HEAD only, confined to the bundle folder; every response carries the CSP so the policy holds
 * even before (or without) the session's header hook.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request URL to a file inside rootDir, or null when the URL is for another host, cannot
 * be decoded, or would escape the folder (`..`, encoded separators, NUL bytes).
 */
export function resolveAppAssetPath(rootDir: string, requestUrl: string, expectedHost: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.host.toLowerCase() !== expectedHost.toLowerCase()) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const segments = pathname.split('/').filter((segment) => segment.length > 0);
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  const root = path.resolve(rootDir);
  const resolved = path.resolve(root, relative);
  if (!resolved.startsWith(root + path.sep)) return null;
  return resolved;
}

export interface AppProtocolHandlerOptions {
  rootDir: string;
  host: string;
  /** Called per response so a configuration change never serves a stale policy. */
  contentSecurityPolicy: () => string;
  readFile?: (filePath: string) => Promise<Uint8Array<ArrayBuffer>>;
}

export function createAppProtocolHandler(options: AppProtocolHandlerOptions): (request: Request) => Promise<Response> {
  // fs returns Buffers over a plain (never shared) ArrayBuffer, which is what Response accepts.
  const readFile = options.readFile ?? ((filePath: string) => readFileFromDisk(filePath) as Promise<Uint8Array<ArrayBuffer>>);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
    }
    const filePath = resolveAppAssetPath(options.rootDir, request.url, options.host);
    if (!filePath) return new Response(null, { status: 404 });
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readFile(filePath);
    } catch {
      // Missing file, a directory, or unreadable: all the same to the page.
      return new Response(null, { status: 404 });
    }
    const headers = {
      'Content-Type': contentTypeFor(filePath),
      'Content-Security-Policy': options.contentSecurityPolicy(),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    };
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
