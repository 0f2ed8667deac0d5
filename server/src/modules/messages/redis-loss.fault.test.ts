import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { freePort } from '../../../../tests/helpers/free-port';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, isolatedDatabase, sentTo, waitFor, type IsolatedDatabase } from './messages.test-support';

/**
 * Fault suite, short profile (issue #12): a Redis of its own (so the rest of the suite's Redis is
 * untouched) is killed while an agent replies, then restarted empty. Replies must be answered
 * at once and delivered exactly once, by the periodic sweep while Redis is gone (it claims its
 * runs through PostgreSQL) and by the jobs again once Redis is back.
 */
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

class DisposableRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    // No persistence: a restart comes back empty, as after a failover or a flush.
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitFor(() => spawnSync('redis-cli', ['-p', String(this.port), 'ping']).stdout?.toString().trim() === 'PONG', 'redis up');
  }
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }
}

describe.skipIf(!hasRedisServer)(hasRedisServer ? 'Redis lost while agents reply' : 'Redis lost while agents reply (skipped: no redis-server binary to kill and restart)', () => {
  let redis: DisposableRedis;
  let graph: FakeGraphApi;
  let db: IsolatedDatabase;
  let server: TestServer;

  beforeAll(async () => {
    redis = new DisposableRedis(await freePort());
    await redis.start();
    graph = await new FakeGraphApi().start();
    db = await isolatedDatabase();
    server = await startTestServer({
      WABA_GRAPH_BASE_URL: graph.url,
      REDIS_URL: redis.url,
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    });
  });
  afterAll(async () => {
    await redis?.start().catch(() => undefined);
    await server?.close();
    await db?.drop();
    await graph?.stop();
    await redis?.kill();
  });

  it('answers every reply at once and delivers each exactly once, during the outage and after Redis returns empty', async () => {
    expect(server.deps.jobs.driver).toBe('bull');
    const t = await createMessagingTenant(server, graph);
    const send = async (body: string) => {
      const started = performance.now();
      const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body } });
      return { res, ms: performance.now() - started };
    };
    const bodies = (): string[] => sentTo(graph, t.contact.number).map((m) => m.text?.body);

    const before = await send('antes da queda');
    expect(before.res.status).toBe(201);
    await waitFor(() => bodies().includes('antes da queda'), 'the reply sent with Redis up');

    await redis.kill();
    const during: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const { res, ms } = await send(`durante ${i}`);
      expect(res.status).toBe(201);
      during.push(ms);
    }
    // The answer never waits for Redis (the enqueue gives up after its deadline).
    expect(Math.max(...during)).toBeLessThan(5_000);
    const health = await server.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', redis: 'down' });
    expect(health.body.reasons).toContain('redis unreachable: jobs wait for the periodic sweeps');
    // The sweep (PostgreSQL only) delivers them while Redis is still down.
    await waitFor(() => [1, 2, 3, 4].every((i) => bodies().includes(`durante ${i}`)), 'replies sent during the outage', 20_000);

    await redis.start();
    const after = await send('depois da volta');
    expect(after.res.status).toBe(201);
    await waitFor(() => bodies().includes('depois da volta'), 'the reply sent after Redis returned empty', 20_000);

    await waitFor(async () => (await server.request('GET', '/health')).body.redis === 'up', 'health sees Redis back');
    // Exactly once each.
    const counts = new Map<string, number>();
    for (const b of bodies()) counts.set(b, (counts.get(b) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBe(6);
  }, 90_000);
});
