import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('GET /health', () => {
  it('answers ok with the database reachable', async () => {
    const res = await server.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.jobs).toBe(process.env.REDIS_URL ? 'bull' : 'memory');
  });

  it('answers unknown paths with ERR_NOT_FOUND and a request id', async () => {
    const res = await server.request('GET', '/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NOT_FOUND');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
