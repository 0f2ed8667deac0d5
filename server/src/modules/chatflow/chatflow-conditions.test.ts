import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  normalizeText,
  renderFlowVariables,
  renderMenu,
  valueAtPath,
} from './chatflow-conditions';
import { GuardedHttpError, guardedRequest, isBlockedAddress } from './guarded-http';

describe('texts', () => {
  it('normalizes accents, case and spaces; renders menus, flow variables and JSON paths', () => {
    expect(normalizeText('  Olá,   ORÇAMENTO ')).toBe('ola, orcamento');
    expect(renderMenu('Escolha', ['A', 'B'])).toBe('Escolha\n\n1 - A\n2 - B');
    expect(renderFlowVariables('{{number}} #{{ticketId}} {{var.x}} {{var.none}} {{name}}', { number: '55', ticketId: 7, variables: { x: 'y' } })).toBe(
      '55 #7 y  {{name}}',
    );
    // In URLs the values are encoded: a variable cannot add a path, a query or another host.
    expect(renderFlowVariables('https://api.example.com/o/{{var.x}}', { number: '', ticketId: 1, variables: { x: '../a?b=1#@evil' } }, encodeURIComponent)).toBe(
      'https://api.example.com/o/..%2Fa%3Fb%3D1%23%40evil',
    );
    expect(valueAtPath({ a: { b: [{ c: 1 }] } }, 'a.b.0.c')).toBe(1);
    expect(valueAtPath({ a: 1 }, 'a.b')).toBeUndefined();
  });
});

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.0.10', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
  ])('%s blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it('refuses loopback unless allowed, caps the size, bounds the time and never follows redirects', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/big') return void res.end('x'.repeat(2000));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const base = { timeoutMs: 500, maxBytes: 1000 };
    const reason = (p: Promise<unknown>) => p.then(() => 'ok', (e: GuardedHttpError) => e.reason);
    try {
      expect(await reason(guardedRequest({ ...base, url: `http://127.0.0.1:${port}/`, allowHosts: [] }))).toBe('blocked');
      expect(await reason(guardedRequest({ ...base, url: `http://localhost:${port}/`, allowHosts: [] }))).toBe('blocked');
      expect(await reason(guardedRequest({ ...base, url: `file:///etc/passwd`, allowHosts: [] }))).toBe('url');
      const ok = await guardedRequest({ ...base, url: `http://127.0.0.1:${port}/`, allowHosts: ['127.0.0.1'] });
      expect(JSON.parse(ok.body.toString())).toEqual({ ok: true });
      expect(await reason(guardedRequest({ ...base, url: `http://127.0.0.1:${port}/`, allowHosts: [`127.0.0.1:${port}`] }))).toBe('ok');
      expect(await reason(guardedRequest({ ...base, url: `http://127.0.0.1:${port}/big`, allowHosts: ['127.0.0.1'] }))).toBe('tooLarge');
      expect(await reason(guardedRequest({ ...base, url: `http://127.0.0.1:${port}/slow`, allowHosts: ['127.0.0.1'] }))).toBe('timeout');
      expect(await reason(guardedRequest({ ...base, url: `http://127.0.0.1:${port}/redirect`, allowHosts: ['127.0.0.1'] }))).toBe('status');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
