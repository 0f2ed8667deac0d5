import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';

/** A raw GET (fetch would decode the body and hide the encoding). */
function get(url: string, acceptEncoding: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web app is served precompressed', () => {
  let server: TestServer;
  const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;

  beforeAll(async () => {
    // A build's output: each text file with its .gz and .br beside it (vite.config.ts, precompress).
    const web = mkdtempSync(path.join(tmpdir(), 'atende-web-'));
    mkdirSync(path.join(web, 'assets'));
    const file = path.join(web, 'assets', 'index-abc.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.gz`, gzipSync(script));
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Atende</title>');
    server = await startTestServer({ WEB_DIST: web });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the .br or .gz file to a browser that accepts it, the plain one otherwise, and says the answer varies with Accept-Encoding', async () => {
    const url = `${server.url}/assets/index-abc.js`;
    const br = await get(url, 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(String(br.headers.vary)).toMatch(/Accept-Encoding/i);

    const gz = await get(url, 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    expect(gz.body.length).toBeLessThan(script.length / 10);

    const plain = await get(url, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/i);
  });
});
