import { io as connectClient } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { corsStartWarning, decideOrigin, parseCorsOrigins } from './origin-policy';

/** CORS, the foreign-origin refusal, Socket.IO's handshake rule and the security headers (issue #11). */
let plain: TestServer;
let configured: TestServer;
let wildcard: TestServer;
beforeAll(async () => {
  [plain, configured, wildcard] = await Promise.all([
    startTestServer(),
    startTestServer({ CORS_ORIGINS: 'https://crm.example.com, https://other.example.com/' }),
    startTestServer({ CORS_ORIGINS: '*', TRUST_PROXY: 'true' }),
  ]);
});
afterAll(async () => Promise.all([plain, configured, wildcard].map((s) => s?.close())));

const FOREIGN = 'http://127.0.0.1:1'; // another port of the same host: same-site, not same-origin
const acao = (headers: Headers) => headers.get('access-control-allow-origin');
const acac = (headers: Headers) => headers.get('access-control-allow-credentials');

describe('CORS by default: same origin and the desktop app only', () => {
  it('answers the server\'s own origin and app://desktop with credentials', async () => {
    for (const origin of [plain.url, 'app://desktop']) {
      const res = await plain.request('GET', '/auth/captcha', { headers: { origin } });
      expect(res.status).toBe(200);
      expect(acao(res.headers)).toBe(origin);
      expect(acac(res.headers)).toBe('true');
    }
  });

  it('gives another port or a sibling host no CORS headers and refuses its state-changing calls', async () => {
    for (const origin of [FOREIGN, 'http://evil.localhost', 'null']) {
      const get = await plain.request('GET', '/auth/captcha', { headers: { origin } });
      expect(acao(get.headers)).toBeNull();
      const preflight = await plain.request('OPTIONS', '/auth/refresh_token', {
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(acao(preflight.headers)).toBeNull();
      // A "simple" POST needs no preflight: without the check it would run with the cookie.
      const refresh = await plain.request('POST', '/auth/refresh_token', {
        headers: { origin, cookie: 'jrt=whatever', 'content-type': 'text/plain' },
        body: '',
      });
      expect(refresh.status).toBe(403);
      expect(refresh.body.error).toBe('ERR_NO_PERMISSION');
    }
    // Without an Origin (server-to-server, webhooks) nothing changes.
    expect((await plain.request('POST', '/auth/refresh_token', { body: {} })).status).toBe(401);
  });

  it('lets CORS_ORIGINS name more origins, with credentials, and only those', async () => {
    for (const origin of ['https://crm.example.com', 'https://other.example.com']) {
      const res = await configured.request('OPTIONS', '/auth/login/', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(acao(res.headers)).toBe(origin);
      expect(acac(res.headers)).toBe('true');
    }
    const other = await configured.request('GET', '/auth/captcha', { headers: { origin: 'https://crm.example.com.evil.net' } });
    expect(acao(other.headers)).toBeNull();
  });

  it("with '*' allows any origin but never with credentials, and says so at start", async () => {
    const res = await wildcard.request('GET', '/auth/captcha', { headers: { origin: FOREIGN } });
    expect(acao(res.headers)).toBe('*');
    expect(acac(res.headers)).toBeNull();
    // The own origin still gets credentials; so does it behind the proxy (X-Forwarded-Host).
    const own = await wildcard.request('GET', '/auth/captcha', {
      headers: { origin: 'https://app.example.com', 'x-forwarded-host': 'app.example.com' },
    });
    expect(acao(own.headers)).toBe('https://app.example.com');
    expect(acac(own.headers)).toBe('true');
    expect(corsStartWarning(parseCorsOrigins('*'))).toContain("'*'");
    expect(corsStartWarning(parseCorsOrigins('https://a.example.com'))).toBeNull();
  });

  it('compares the own origin by host and port', () => {
    expect(decideOrigin('http://example.com', 'example.com:80', [])).toEqual({ kind: 'allowed', credentials: true });
    expect(decideOrigin('https://example.com:8443', 'example.com', [])).toEqual({ kind: 'refused' });
    expect(decideOrigin('file://', 'example.com', [])).toEqual({ kind: 'refused' });
    expect(decideOrigin(undefined, 'example.com', [])).toEqual({ kind: 'none' });
  });
});

describe('Socket.IO follows the same origin rule', () => {
  const handshake = (url: string, origin: string) =>
    new Promise<'connected' | 'refused'>((resolve) => {
      const socket = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin } });
      socket.on('connect', () => {
        socket.disconnect();
        resolve('connected');
      });
      socket.on('connect_error', () => {
        socket.disconnect();
        resolve('refused');
      });
    });

  it('accepts the own origin and the desktop app, refuses a foreign one unless CORS_ORIGINS names it', async () => {
    expect(await handshake(plain.url, plain.url)).toBe('connected');
    expect(await handshake(plain.url, 'app://desktop')).toBe('connected');
    expect(await handshake(plain.url, FOREIGN)).toBe('refused');
    expect(await handshake(configured.url, 'https://crm.example.com')).toBe('connected');
  });
});

describe('security headers', () => {
  it('sends a strict CSP, no framing, nosniff and a referrer policy on every answer; HSTS only over https', async () => {
    const res = await plain.request('GET', '/auth/captcha');
    const csp = res.headers.get('content-security-policy')!;
    const host = new URL(plain.url).host;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://${host} wss://${host}`);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain('report-uri /csp-report');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const https = await wildcard.request('GET', '/auth/captcha', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000');
    // Errors carry them too.
    expect((await plain.request('GET', '/contacts')).headers.get('x-frame-options')).toBe('DENY');
  });

  it('takes CSP reports at POST /csp-report: logged, size-limited, rate-limited', async () => {
    const report = { 'csp-report': { 'document-uri': `${plain.url}/`, 'violated-directive': 'script-src', 'blocked-uri': 'inline' } };
    const post = (body: string, ip: string) =>
      wildcard.request('POST', '/csp-report', { body, headers: { 'content-type': 'application/csp-report', 'x-forwarded-for': ip } });
    expect((await post(JSON.stringify(report), '203.0.113.1')).status).toBe(204);
    expect((await post('x'.repeat(20_000), '203.0.113.2')).status).toBe(413);
    expect((await post('not json', '203.0.113.3')).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await post(JSON.stringify(report), '203.0.113.4')).status);
    expect(statuses.slice(0, 30).every((s) => s === 204)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
