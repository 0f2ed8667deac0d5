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
    expect(res.body.reasons).toEqual([]);
    expect(res.body.sweeps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['messages.outbound-sweep', 'tickets.close-due', 'domain-events.prune']),
    );
  });

  it('is degraded (still 200) when a periodic task is late, and says which', async () => {
    const scope = server.deps.keyPrefix;
    // The hourly retention task last finished a day ago (it does not run at start).
    await server.deps.dataSource.query(
      `INSERT INTO periodic_runs (scope, name, "intervalMs", "lastStartedAt", "lastFinishedAt") VALUES ($1, 'domain-events.prune', 3600000, now() - interval '1 day', now() - interval '1 day')
       ON CONFLICT (scope, name) DO UPDATE SET "lastStartedAt" = EXCLUDED."lastStartedAt", "lastFinishedAt" = EXCLUDED."lastFinishedAt"`,
      [scope],
    );
    try {
      const res = await server.request('GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('degraded');
      expect(res.body.reasons).toEqual(['periodic task late: domain-events.prune']);
      expect(res.body.sweeps.find((s: { name: string }) => s.name === 'domain-events.prune')).toMatchObject({ late: true });
    } finally {
      await server.deps.dataSource.query(`DELETE FROM periodic_runs WHERE scope = $1 AND name = 'domain-events.prune'`, [scope]);
    }
    expect((await server.request('GET', '/health')).body.status).toBe('ok');
  });

  it('answers unknown paths with ERR_NOT_FOUND and a request id', async () => {
    const res = await server.request('GET', '/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NOT_FOUND');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
