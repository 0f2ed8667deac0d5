import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor, createAppProtocolHandler, resolveAppAssetPath } from './app-protocol.handler';

let root: string;
let outside: string;

beforeAll(async () => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'app-protocol-'));
  root = path.join(base, 'renderer');
  outside = path.join(base, 'secret.txt');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Atende</title>');
  await writeFile(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(outside, 'do not serve');
});

afterAll(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

describe('resolveAppAssetPath', () => {
  it('maps / and paths inside the bundle', () => {
    expect(resolveAppAssetPath(root, 'app://desktop/', 'desktop')).toBe(path.join(root, 'index.html'));
    expect(resolveAppAssetPath(root, 'app://desktop/assets/index-abc.js?v=1#x', 'desktop')).toBe(
      path.join(root, 'assets', 'index-abc.js'),
    );
  });

  it.each([
    'app://desktop/..%2fsecret.txt',
    'app://desktop/assets/..%2f..%2fsecret.txt',
    'app://desktop/%2e%2e/secret.txt',
    'app://desktop/assets%5c..%5c..%5csecret.txt',
    'app://desktop/index.html%00.png',
    'app://desktop/%E0%A4%A',
    'app://other-host/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    const resolved = resolveAppAssetPath(root, url, 'desktop');
    expect(resolved === null || resolved.startsWith(root + path.sep)).toBe(true);
    expect(resolved).not.toBe(outside);
  });

  it('returns null for encoded traversal rather than a path', () => {
    expect(resolveAppAssetPath(root, 'app://desktop/assets/..%2f..%2fsecret.txt', 'desktop')).toBeNull();
    expect(resolveAppAssetPath(root, 'app://other-host/index.html', 'desktop')).toBeNull();
  });
});

describe('contentTypeFor', () => {
  it('serves module scripts with a JavaScript MIME type (Chromium refuses others)', () => {
    expect(contentTypeFor('a/index.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('a/INDEX.HTML')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('a/blob.unknown')).toBe('application/octet-stream');
  });
});

describe('createAppProtocolHandler', () => {
  const handler = () =>
    createAppProtocolHandler({ rootDir: root, host: 'desktop', contentSecurityPolicy: () => "default-src 'self'" });

  it('serves index.html with the CSP and nosniff', async () => {
    const response = await handler()(new Request('app://desktop/index.html'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Atende</title>');
  });

  it('answers HEAD without a body', async () => {
    const response = await handler()(new Request('app://desktop/assets/index-abc.js', { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers 404 for missing files, directories and escapes', async () => {
    for (const url of ['app://desktop/missing.js', 'app://desktop/assets', 'app://desktop/..%2fsecret.txt']) {
      expect((await handler()(new Request(url))).status).toBe(404);
    }
  });

  it('refuses writes', async () => {
    const response = await handler()(new Request('app://desktop/index.html', { method: 'POST', body: 'x' }));
    expect(response.status).toBe(405);
  });
});
