import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, isolatedDatabase, messageRow, waitFor, type IsolatedDatabase } from './messages.test-support';

/**
 * Per-channel concurrency of the `messages.deliver` job (issue #12, item 4): one tenant's
 * channel whose provider hangs never delays another tenant's reply, under both job drivers. The
 * periodic sweeps are stopped, so only the jobs deliver here.
 */
const drivers: { driver: 'memory' | 'bull'; env: Record<string, string> }[] = [
  { driver: 'memory', env: { REDIS_URL: '' } },
  ...(process.env.REDIS_URL ? [{ driver: 'bull' as const, env: {} }] : []),
];
if (!process.env.REDIS_URL) describe.skip('deliver job concurrency under Bull (skipped: REDIS_URL is not set)', () => undefined);

describe.each(drivers)('deliver job concurrency ($driver driver)', ({ driver, env }) => {
  let server: TestServer;
  let graph: FakeGraphApi;
  let db: IsolatedDatabase;

  beforeAll(async () => {
    graph = await new FakeGraphApi().start();
    db = await isolatedDatabase();
    server = await startTestServer({ WABA_GRAPH_BASE_URL: graph.url, ...(db.url ? { DATABASE_URL: db.url } : {}), ...env });
    await server.deps.periodic.stop();
  }, 120_000);
  afterAll(async () => {
    // The hanging calls end (reset: unconfirmed) and the lane sends the rest before the server stops.
    graph?.clearFailures();
    graph?.releaseHanging();
    await waitFor(
      async () => Number((await server.deps.dataSource.query(`SELECT count(*) AS n FROM messages WHERE status = 'pending'`))[0].n) === 0,
      'the slow channel’s lane to settle',
    ).catch(() => undefined);
    await server?.close();
    await db?.drop();
    await graph?.stop();
  });

  it('a hanging channel holds only its own sends: another tenant’s reply goes out within a couple of seconds', async () => {
    expect(server.deps.jobs.driver).toBe(driver);
    const slow = await createMessagingTenant(server, graph);
    const fast = await createMessagingTenant(server, graph);
    // The slow tenant's provider takes every call and never answers (it would time out after 15 s).
    graph.failNext({ hang: true }, { path: (r) => r.json?.to === slow.contact.number, times: 10 });
    const slowIds: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const res = await server.request('POST', `/messages/${slow.ticketId}`, { token: slow.users.user.token, body: { body: `lenta ${i}` } });
      expect(res.status).toBe(201);
      slowIds.push(res.body.messages[0].id);
    }
    await waitFor(() => graph.requests.some((r) => r.json?.to === slow.contact.number), 'the slow channel’s first call');

    const started = performance.now();
    const res = await server.request('POST', `/messages/${fast.ticketId}`, { token: fast.users.user.token, body: { body: 'rápida' } });
    expect(res.status).toBe(201);
    await waitFor(() => graph.acceptedMessages().some((m) => m.to === fast.contact.number), 'the other tenant’s reply', 5_000);
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(2_500);
    await waitFor(async () => (await messageRow(server, res.body.messages[0].id)).status === 'sent', 'the reply recorded as sent');

    // One call at a time on the hanging channel: its other replies wait in its lane, in order.
    expect(graph.requests.filter((r) => r.json?.to === slow.contact.number)).toHaveLength(1);
    for (const id of slowIds) expect((await messageRow(server, id)).status).toBe('pending');
  }, 60_000);
});
