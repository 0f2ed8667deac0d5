import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { DisposableRedis, hasRedisServer } from '../../../../tests/helpers/disposable-redis';
import { freePort } from '../../../../tests/helpers/free-port';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createContact, createMessagingTenant, createTicket, isolatedDatabase, waitFor, type IsolatedDatabase } from './messages.test-support';

/**
 * Fault suite, short profile (issue #12): a Redis of its own (so the rest of the suite's Redis is
 * untouched) is killed while agents reply, resolve tickets with a farewell message and scheduled
 * messages come due, then restarted empty. Every request is answered within 5 s (none waits on
 * Redis), and every reply, farewell, farewell close and scheduled message is done exactly once:
 * by the periodic sweeps while Redis is gone (they claim their runs through PostgreSQL) and by
 * the jobs again once Redis is back. The server's clock runs with the wall clock plus a shift
 * the test adds, so the 30 s farewell countdown and the schedule come due without waiting.
 * tests/bench/fault-profile.ts runs the same with a 60 s outage.
 */
const available = hasRedisServer();
const SLOWEST_ALLOWED_MS = 5_000;

describe.skipIf(!available)(
  available
    ? 'Redis lost while agents reply, farewell closes and scheduled messages are due'
    : 'Redis lost while agents reply (skipped: no redis-server binary to kill and restart)',
  () => {
    let redis: DisposableRedis;
    let graph: FakeGraphApi;
    let db: IsolatedDatabase;
    let server: TestServer;
    let shiftMs = 0;
    const clock: Clock = { now: () => new Date(Date.now() + shiftMs) };

    beforeAll(async () => {
      redis = new DisposableRedis(await freePort());
      await redis.start();
      graph = await new FakeGraphApi().start();
      db = await isolatedDatabase();
      server = await startTestServer(
        { WABA_GRAPH_BASE_URL: graph.url, REDIS_URL: redis.url, ...(db.url ? { DATABASE_URL: db.url } : {}) },
        { clock },
      );
    });
    afterAll(async () => {
      await redis?.start().catch(() => undefined);
      await server?.close();
      await db?.drop();
      await graph?.stop();
      await redis?.kill();
    });

    it('answers every request within 5 s and does every reply, farewell close and scheduled message exactly once', async () => {
      expect(server.deps.jobs.driver).toBe('bull');
      const t = await createMessagingTenant(server, graph);
      const token = t.users.user.token;
      await server.deps.dataSource.query(`UPDATE channels SET "farewellMessage" = 'Até logo!' WHERE id = $1`, [t.channelId]);
      const farewellTickets: { id: number; number: string }[] = [];
      for (let i = 0; i < 3; i++) {
        const contact = await createContact(server, t.tenant.id);
        farewellTickets.push({
          id: await createTicket(server, { tenantId: t.tenant.id, contactId: contact.id, channelId: t.channelId, userId: t.users.user.id }),
          number: contact.number,
        });
      }
      const accepted = () => graph.acceptedMessages().map((m) => `${m.to}:${m.json.text?.body}`);
      const timings: { what: string; ms: number; status: number }[] = [];
      const timed = async (what: string, method: string, url: string, body?: unknown) => {
        const started = performance.now();
        const res = await server.request(method, url, { token, body });
        timings.push({ what, ms: performance.now() - started, status: res.status });
        return res;
      };

      // Two messages scheduled for 90 s from now: they come due during the outage.
      for (const n of [1, 2]) {
        const res = await timed('schedule', 'POST', '/messagesSchedule/', {
          ticketId: t.ticketId,
          body: `agendada ${n}`,
          scheduleDate: new Date(clock.now().getTime() + 90_000).toISOString(),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      expect((await timed('reply', 'POST', `/messages/${t.ticketId}`, { body: 'antes da queda' })).status).toBe(201);
      await waitFor(() => accepted().includes(`${t.contact.number}:antes da queda`), 'the reply sent with Redis up');

      await redis.kill();
      const outageStarted = timings.length;
      for (let i = 1; i <= 4; i++) expect((await timed('reply', 'POST', `/messages/${t.ticketId}`, { body: `durante ${i}` })).status).toBe(201);
      for (const ticket of farewellTickets) {
        const res = await timed('resolve', 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ closeReason: 'farewell' });
      }
      // A login also counts hits in Redis (rate limits): it must not wait either.
      const loginStarted = performance.now();
      await server.login(await server.createUser(t.tenant.id, { profile: 'user' }));
      timings.push({ what: 'login', ms: performance.now() - loginStarted, status: 200 });
      // The farewell countdown (30 s) and the schedule (90 s) are over.
      shiftMs += 120_000;
      const health = await server.request('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'degraded', redis: 'down' });
      expect(health.body.reasons).toContain('redis unreachable: jobs wait for the periodic sweeps');

      // The sweeps (PostgreSQL only) do it all while Redis is still down.
      const expected = [
        ...[1, 2, 3, 4].map((i) => `${t.contact.number}:durante ${i}`),
        ...farewellTickets.map((f) => `${f.number}:Até logo!`),
        `${t.contact.number}:agendada 1`,
        `${t.contact.number}:agendada 2`,
      ];
      await waitFor(() => expected.every((e) => accepted().includes(e)), 'replies, farewells and scheduled messages during the outage', 30_000);
      const closedDuring = async () =>
        (await server.deps.dataSource.query(`SELECT id FROM tickets WHERE id = ANY($1::int[]) AND status = 'closed'`, [
          farewellTickets.map((f) => f.id),
        ])) as unknown[];
      await waitFor(async () => (await closedDuring()).length === farewellTickets.length, 'the farewell closes during the outage', 30_000);

      await redis.start();
      expect((await timed('reply', 'POST', `/messages/${t.ticketId}`, { body: 'depois da volta' })).status).toBe(201);
      await waitFor(() => accepted().includes(`${t.contact.number}:depois da volta`), 'the reply sent after Redis returned empty', 20_000);
      await waitFor(async () => (await server.request('GET', '/health')).body.redis === 'up', 'health sees Redis back');

      const during = timings.slice(outageStarted);
      expect(during.every((r) => r.status < 300)).toBe(true);
      expect(Math.max(...during.map((r) => r.ms)), JSON.stringify(during)).toBeLessThan(SLOWEST_ALLOWED_MS);
      // Exactly once each: every send, and every close (one close log per ticket).
      const counts = new Map<string, number>();
      for (const a of accepted()) counts.set(a, (counts.get(a) ?? 0) + 1);
      expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      expect(counts.size).toBe(expected.length + 2);
      const closes = (await server.deps.dataSource.query(
        `SELECT "ticketId", count(*)::int AS n FROM ticket_logs WHERE "ticketId" = ANY($1::int[]) AND type = 'close' GROUP BY "ticketId"`,
        [farewellTickets.map((f) => f.id)],
      )) as { n: number }[];
      expect(closes.map((c) => c.n)).toEqual([1, 1, 1]);
    }, 120_000);
  },
);
