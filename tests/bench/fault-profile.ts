/**
 * Fault profile (issue #12, item 7), the long version of the fault tests. Not a test: prints one
 * JSON line per scenario.
 *
 *   npm run bench -- fault-profile
 *   npx tsx tests/bench/fault-profile.ts [redis] [postgres] [worker] [provider]   (a subset)
 *
 * Each scenario starts the real server in child processes (so the load generator does not share
 * their event loop), against a database of its own on DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), with a local Cloud API fake, and breaks one piece of
 * its infrastructure:
 * - redis: a redis-server of its own killed for REDIS_OUTAGE_S (60) while agents reply, resolve
 *   tickets with a farewell message and scheduled messages come due; restarted empty;
 * - postgres: a PostgreSQL cluster of its own (initdb, pg_ctl: binaries in PG_BIN_DIR, run as the
 *   postgres user when root) restarted (-m fast) at the 400th of 1,200 signed webhooks sent at a
 *   steady rate, each retried on an error as Meta does;
 * - worker: a server process SIGKILLed during a provider call, another process left to finish
 *   (the unconfirmed send is decided after the 2-minute lease, for real);
 * - provider: the Cloud API refuses connections for PROVIDER_DOWN_S (60), then answers 503 for
 *   30 s, then is back.
 * Per scenario: messages lost (must be 0), sent twice (0; the worker scenario's in-flight send is
 * the documented unconfirmed exception, counted apart), the slowest request during the fault,
 * the time to recover, the server's CPU time per operation and the machine load (/proc/loadavg).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'pg';
import { DEFAULT_SETTINGS } from '../../shared/settings';
import { FakeGraphApi, inboundPayload, newWamid } from '../fakes/graph-api.fake';
import { MetaWebhookSender, recoveredAt, type WebhookDelivery } from '../fakes/meta-webhook-sender';
import { loginBody } from '../helpers/captcha';
import { DisposablePostgres, postgresUnavailable } from '../helpers/disposable-postgres';
import { DisposableRedis, hasRedisServer } from '../helpers/disposable-redis';
import { freePort } from '../helpers/free-port';
import { createBenchDatabase, runBench } from './support/bench-support';

const REDIS_OUTAGE_S = Number(process.env.REDIS_OUTAGE_S ?? 60);
const PROVIDER_DOWN_S = Number(process.env.PROVIDER_DOWN_S ?? 60);
const APP_SECRET = 'bench-app-secret-0123456789';

// ---------- child: one server process ----------

async function serve(): Promise<void> {
  const { loadConfig } = await import('../../server/src/config');
  const { startServer } = await import('../../server/src/server');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DB_URL!,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
    WABA_GRAPH_BASE_URL: process.env.BENCH_GRAPH_URL!,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'bench-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789',
    WEB_DIST: path.join(dataDir, 'no-web'),
  });
  const server = await startServer(config, { seed: false, redisPrefix: process.env.BENCH_REDIS_PREFIX ?? 'bench-fault' });
  process.send!({ url: server.url });
  process.on('message', async (msg: { stop?: boolean; cpu?: boolean }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    if (!msg.stop) return;
    await server.close();
    process.exit(0);
  });
}

// ---------- parent: helpers ----------

interface ServerChild {
  url: string;
  child: ChildProcess;
  /** CPU time (user + system) of the server process so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    child,
    cpuMs: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve((m.cpu.user + m.cpu.system) / 1000));
        child.send({ cpu: true });
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ stop: true });
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const loadavg = (): number[] =>
  readFileSync('/proc/loadavg', 'utf8')
    .split(' ')
    .slice(0, 3)
    .map(Number);
const round = (n: number) => Math.round(n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

interface Workspace {
  tenantId: number;
  channelId: number;
  userId: number;
  email: string;
  password: string;
  /** Tickets of the agent, open on the channel, one per contact. */
  tickets: { id: number; number: string }[];
}

/** A tenant with an agent, a CONNECTED waba channel on the fake and `tickets` open tickets of the agent. */
async function workspace(dbUrl: string, graph: FakeGraphApi, tickets: number): Promise<Workspace> {
  const { hashPassword } = await import('../../server/src/core/passwords');
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const [tenant] = (await db.query(`INSERT INTO tenants (name, "maxConnections", "maxUsers") VALUES ('Fault bench', 10, 50) RETURNING id`)).rows;
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      await db.query(`INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)`, [tenant.id, key, value]);
    }
    const email = `fault-${randomBytes(3).toString('hex')}@example.com`;
    const password = `Fault-${randomBytes(4).toString('hex')}!1`;
    const [user] = (
      await db.query(`INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Agente', $2, $3, 'admin') RETURNING id`, [
        tenant.id,
        email,
        await hashPassword(password),
      ])
    ).rows;
    await db.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user.id, tenant.id]);
    const [channel] = (
      await db.query(
        `INSERT INTO channels ("tenantId", name, type, status, "isDefault", "providerConfig", secrets, "farewellMessage")
         VALUES ($1, 'WABA', 'waba', 'CONNECTED', true, $2, $3, 'Até logo!') RETURNING id`,
        [
          tenant.id,
          JSON.stringify({ wabaPhoneNumberId: graph.phoneNumberId, wabaBusinessAccountId: graph.businessAccountId, wabaApiVersion: 'v21.0' }),
          JSON.stringify({ wabaManagerToken: graph.token, wabaAppSecret: APP_SECRET, wabaVerifyToken: 'bench-verify' }),
        ],
      )
    ).rows;
    const list: Workspace['tickets'] = [];
    for (let i = 0; i < tickets; i++) {
      const number = `5511980${String(100_000 + i).padStart(6, '0')}`;
      const [contact] = (await db.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, $2, $3) RETURNING id`, [tenant.id, `Cliente ${i}`, number]))
        .rows;
      const [ticket] = (
        await db.query(
          `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", "userId", status, "startedAt")
           VALUES ($1, $2, $3, 'waba', false, $4, 'open', now()) RETURNING id`,
          [tenant.id, contact.id, channel.id, user.id],
        )
      ).rows;
      list.push({ id: ticket.id, number });
    }
    return { tenantId: tenant.id, channelId: channel.id, userId: user.id, email, password, tickets: list };
  } finally {
    await db.end();
  }
}

async function login(url: string, w: Pick<Workspace, 'email' | 'password'>): Promise<string> {
  const res = await fetch(`${url}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await loginBody(url, w)),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Timed {
  status: number;
  ms: number;
  at: number;
  body: any;
}

async function request(url: string, method: string, pathname: string, token: string, body?: unknown): Promise<Timed> {
  const at = performance.now();
  let status = 0;
  let parsed: unknown;
  try {
    const res = await fetch(url + pathname, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    status = res.status;
    const text = await res.text();
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // No answer (status stays 0), or a body that is not JSON.
  }
  return { status, ms: performance.now() - at, at, body: parsed };
}

/** Sends the fake took, per "to:body", with the time of the first one. */
function acceptedCounts(graph: FakeGraphApi): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of graph.acceptedMessages()) {
    const key = `${m.to}:${m.json?.text?.body}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function deliveryReport(graph: FakeGraphApi, expected: string[]) {
  const counts = acceptedCounts(graph);
  return {
    expected: expected.length,
    lost: expected.filter((e) => !counts.has(e)).length,
    sent_twice: [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
  };
}

const slowest = (timed: Timed[]) => round(Math.max(0, ...timed.map((t) => t.ms)));

// ---------- scenarios ----------

async function redisScenario(): Promise<Record<string, unknown>> {
  if (!hasRedisServer()) return { skipped: 'no redis-server binary to kill and restart' };
  const redis = new DisposableRedis(await freePort());
  await redis.start();
  const graph = await new FakeGraphApi().start();
  const bench = await createBenchDatabase('atende_fault_redis');
  const server = await startServerChild({
    BENCH_DB_URL: bench.url,
    BENCH_DATA_DIR: bench.dataDir,
    BENCH_REDIS_URL: redis.url,
    BENCH_GRAPH_URL: graph.url,
  });
  try {
    const w = await workspace(bench.url, graph, 20);
    const token = await login(server.url, w);
    const replyTickets = w.tickets.slice(0, 10);
    const farewellTickets = w.tickets.slice(10, 20);
    const expected: string[] = [];
    const ops: Timed[] = [];

    // Warm up with Redis up: one reply through the job.
    const warm = await request(server.url, 'POST', `/messages/${replyTickets[0].id}`, token, { body: 'aquecimento' });
    expected.push(`${replyTickets[0].number}:aquecimento`);
    await waitUntil(() => acceptedCounts(graph).has(`${replyTickets[0].number}:aquecimento`), 10_000);
    ops.push(warm);

    // Ten messages scheduled to come due 20 s into the outage.
    const scheduledFor = new Date(Date.now() + 25_000);
    for (let i = 0; i < 10; i++) {
      const t = replyTickets[i % replyTickets.length];
      ops.push(await request(server.url, 'POST', '/messagesSchedule/', token, { ticketId: t.id, body: `agendada ${i}`, scheduleDate: scheduledFor.toISOString() }));
      expected.push(`${t.number}:agendada ${i}`);
    }

    const cpuBefore = await server.cpuMs();
    await redis.kill();
    const outageStarted = performance.now();
    const during: Timed[] = [];
    // 40 replies and 10 resolves with a farewell over the first 30 s, a login every 10 s.
    for (let i = 0; i < 50; i++) {
      if (i % 5 === 4) {
        const t = farewellTickets[Math.floor(i / 5)];
        during.push(await request(server.url, 'PUT', `/tickets/${t.id}`, token, { status: 'closed' }));
        expected.push(`${t.number}:Até logo!`);
      } else {
        const t = replyTickets[i % replyTickets.length];
        during.push(await request(server.url, 'POST', `/messages/${t.id}`, token, { body: `durante ${i}` }));
        expected.push(`${t.number}:durante ${i}`);
      }
      if (i % 17 === 0) {
        const started = performance.now();
        await login(server.url, w);
        during.push({ status: 200, ms: performance.now() - started, at: started, body: undefined });
      }
      await sleep(600);
    }
    while (performance.now() - outageStarted < REDIS_OUTAGE_S * 1000) {
      during.push(await request(server.url, 'GET', '/health', token));
      await sleep(5_000);
    }
    const deliveredDuringOutage = deliveryReport(graph, expected);
    const dueBeforeReturn = [...expected];
    await redis.start();
    const returnedAt = performance.now();
    // What was asked during the outage and not done yet: when it is.
    let backlogDoneAt = deliveredDuringOutage.lost === 0 ? returnedAt : 0;
    const backlogWatch = (async () => {
      if (backlogDoneAt) return;
      await waitUntil(() => dueBeforeReturn.every((e) => acceptedCounts(graph).has(e)), 120_000);
      backlogDoneAt = performance.now();
    })();

    // Replies after Redis returned empty: each one's time from the request to the provider.
    const after: { ms: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const t = replyTickets[i % replyTickets.length];
      const key = `${t.number}:depois ${i}`;
      const started = performance.now();
      ops.push(await request(server.url, 'POST', `/messages/${t.id}`, token, { body: `depois ${i}` }));
      expected.push(key);
      await waitUntil(() => acceptedCounts(graph).has(key), 30_000);
      after.push({ ms: performance.now() - started });
    }
    const db = new Client({ connectionString: bench.url });
    await db.connect();
    const closed = async () =>
      Number(
        (
          await db.query(`SELECT count(*) AS n FROM tickets WHERE id = ANY($1::int[]) AND status = 'closed'`, [
            farewellTickets.map((t) => t.id),
          ])
        ).rows[0].n,
      );
    const allDone = () => expected.every((e) => acceptedCounts(graph).has(e));
    await waitUntil(async () => allDone() && (await closed()) === farewellTickets.length, 120_000);
    await backlogWatch;
    const closeLogs = (
      await db.query(`SELECT count(*)::int AS n FROM ticket_logs WHERE "ticketId" = ANY($1::int[]) AND type = 'close'`, [
        farewellTickets.map((t) => t.id),
      ])
    ).rows[0].n;
    const farewellClosed = await closed();
    await db.end();
    const cpu = (await server.cpuMs()) - cpuBefore;
    const operations = during.length + after.length;
    return {
      scenario: 'redis',
      outage_s: REDIS_OUTAGE_S,
      ...deliveryReport(graph, expected),
      farewell_closes: farewellClosed,
      farewell_close_logs: closeLogs,
      scheduled: 10,
      delivered_before_redis_returned: deliveredDuringOutage.expected - deliveredDuringOutage.lost,
      expected_by_then: deliveredDuringOutage.expected,
      requests_during_fault: during.length,
      failed_requests_during_fault: during.filter((t) => t.status < 200 || t.status >= 300).length,
      slowest_request_during_fault_ms: slowest(during),
      // Time after Redis returned until everything asked during the outage was sent (0: all of it
      // was sent during the outage, by the sweeps).
      recovery_ms: round(backlogDoneAt - returnedAt),
      reply_after_return_ms: after.map((a) => round(a.ms)),
      server_cpu_ms_per_operation: Number((cpu / operations).toFixed(2)),
      load_average: loadavg(),
    };
  } finally {
    await server.stop();
    await redis.kill();
    await graph.stop();
    await bench.drop();
  }
}

async function postgresScenario(): Promise<Record<string, unknown>> {
  const unavailable = postgresUnavailable();
  if (unavailable) return { scenario: 'postgres', skipped: unavailable };
  const WEBHOOKS = 1_200;
  const RESTART_AT = 400;
  const INTERVAL_MS = 10;
  const pg = new DisposablePostgres(await freePort());
  await pg.start();
  const graph = await new FakeGraphApi().start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-fault-pg-'));
  const server = await startServerChild({ BENCH_DB_URL: pg.url, BENCH_DATA_DIR: dataDir, BENCH_GRAPH_URL: graph.url });
  try {
    const w = await workspace(pg.url, graph, 0);
    const sender = new MetaWebhookSender(`${server.url}/webhooks/waba/${w.channelId}`, APP_SECRET);
    const contacts = Array.from({ length: 100 }, (_, i) => `5511970${String(100_000 + i).padStart(6, '0')}`);
    const wamids = Array.from({ length: WEBHOOKS }, () => newWamid());
    const cpuBefore = await server.cpuMs();
    const deliveries: Promise<WebhookDelivery>[] = [];
    let restart: Promise<number> | undefined;
    let restartStartedAt = 0;
    const started = performance.now();
    for (let i = 0; i < WEBHOOKS; i++) {
      const wait = started + i * INTERVAL_MS - performance.now();
      if (wait > 0) await sleep(wait);
      if (i === RESTART_AT) {
        restartStartedAt = performance.now();
        restart = pg.restart();
      }
      deliveries.push(
        sender.deliver(
          inboundPayload(graph.phoneNumberId, [{ from: contacts[i % contacts.length], id: wamids[i], message: { type: 'text', text: { body: `mensagem ${i}` } } }]),
        ),
      );
    }
    const restartMs = await restart!;
    const results = await Promise.all(deliveries);
    const cpu = (await server.cpuMs()) - cpuBefore;
    const db = new Client({ connectionString: pg.url });
    await db.connect();
    const stored = (
      await db.query(
        `SELECT count(*)::int AS total, count(DISTINCT "messageId")::int AS distinct_ids FROM messages WHERE "tenantId" = $1 AND "fromMe" = false`,
        [w.tenantId],
      )
    ).rows[0];
    await db.end();
    const attempts = results.flatMap((r) => r.attempts);
    const inFault = attempts.filter((a) => a.startedAt >= restartStartedAt - 1_000);
    return {
      scenario: 'postgres',
      webhooks: WEBHOOKS,
      restart_at: RESTART_AT,
      rate_per_s: 1000 / INTERVAL_MS,
      lost: WEBHOOKS - stored.distinct_ids,
      sent_twice: stored.total - stored.distinct_ids,
      never_accepted: results.filter((r) => !r.delivered).length,
      webhooks_retried: results.filter((r) => r.attempts.length > 1).length,
      error_answers: attempts.filter((a) => a.status !== 0 && (a.status < 200 || a.status >= 300)).map((a) => a.status).filter((s, i, all) => all.indexOf(s) === i),
      no_answer_attempts: attempts.filter((a) => a.status === 0).length,
      slowest_request_during_fault_ms: round(Math.max(...inFault.map((a) => a.answeredAt - a.startedAt))),
      pg_restart_ms: round(restartMs),
      recovery_ms: round(recoveredAt(results, restartStartedAt) - restartStartedAt),
      server_cpu_ms_per_operation: Number((cpu / WEBHOOKS).toFixed(2)),
      load_average: loadavg(),
    };
  } finally {
    await server.stop();
    await graph.stop();
    await pg.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function workerScenario(): Promise<Record<string, unknown>> {
  const graph = await new FakeGraphApi().start();
  const bench = await createBenchDatabase('atende_fault_worker');
  const env = { BENCH_DB_URL: bench.url, BENCH_DATA_DIR: bench.dataDir, BENCH_GRAPH_URL: graph.url, BENCH_REDIS_PREFIX: 'bench-fault' };
  const worker = await startServerChild(env);
  let survivor: ServerChild | undefined;
  try {
    const w = await workspace(bench.url, graph, 4);
    const token = await login(worker.url, w);
    const REPLIES = 20;
    let inFlight = false;
    // The 5th reply's call never answers: the worker dies during it.
    graph.beforeSendAnswer = async (wamid, to) => {
      const body = graph.acceptedMessages().find((m) => m.wamid === wamid)?.json?.text?.body;
      if (body === 'resposta 4' && to === w.tickets[0].number) {
        inFlight = true;
        await new Promise(() => undefined);
      }
    };
    const expected: string[] = [];
    const ids: number[] = [];
    const timed: Timed[] = [];
    for (let i = 0; i < REPLIES; i++) {
      const t = w.tickets[i % 2 === 0 ? 0 : 1 + (i % 3)];
      const res = await request(worker.url, 'POST', `/messages/${t.id}`, token, { body: `resposta ${i}` });
      timed.push(res);
      ids.push(res.body.messages[0].id);
      expected.push(`${t.number}:resposta ${i}`);
      if (i === 8) await waitUntil(() => inFlight, 30_000);
      await sleep(100);
    }
    // The process that takes over is up (it never sends the call in flight: that row is marked as
    // being sent), then the worker dies with the call still open.
    survivor = await startServerChild(env);
    const cpuBefore = await survivor.cpuMs();
    worker.child.kill('SIGKILL');
    const killedAt = performance.now();
    graph.beforeSendAnswer = undefined;
    const db = new Client({ connectionString: bench.url });
    await db.connect();
    const outcomes = async () =>
      (await db.query(`SELECT id, status, unconfirmed FROM messages WHERE id = ANY($1::int[])`, [ids])).rows as {
        id: string;
        status: string;
        unconfirmed: boolean;
      }[];
    await waitUntil(async () => (await outcomes()).filter((r) => r.status === 'pending').length <= 1, 60_000);
    const othersAt = performance.now();
    await waitUntil(async () => (await outcomes()).every((r) => r.status !== 'pending'), 200_000);
    const settledAt = performance.now();
    const final = await outcomes();
    await db.end();
    const cpu = (await survivor.cpuMs()) - cpuBefore;
    const unconfirmed = final.filter((r) => r.unconfirmed);
    const report = deliveryReport(graph, expected);
    return {
      scenario: 'worker',
      replies: REPLIES,
      // The in-flight send reached the provider once and was not resent: the documented exception.
      lost: report.lost,
      sent_twice: report.sent_twice,
      unconfirmed: unconfirmed.length,
      sent: final.filter((r) => r.status === 'sent').length,
      slowest_request_ms: slowest(timed),
      others_sent_after_kill_ms: round(othersAt - killedAt),
      recovery_ms: round(settledAt - killedAt),
      server_cpu_ms_per_operation: Number((cpu / REPLIES).toFixed(2)),
      load_average: loadavg(),
    };
  } finally {
    await survivor?.stop();
    worker.child.kill('SIGKILL');
    await graph.stop();
    await bench.drop();
  }
}

async function providerScenario(): Promise<Record<string, unknown>> {
  const graph = await new FakeGraphApi().start();
  const bench = await createBenchDatabase('atende_fault_provider');
  const server = await startServerChild({
    BENCH_DB_URL: bench.url,
    BENCH_DATA_DIR: bench.dataDir,
    BENCH_GRAPH_URL: graph.url,
    ...(process.env.REDIS_URL ? { BENCH_REDIS_URL: process.env.REDIS_URL, BENCH_REDIS_PREFIX: `bench-fault-${randomBytes(3).toString('hex')}` } : {}),
  });
  try {
    const w = await workspace(bench.url, graph, 10);
    const token = await login(server.url, w);
    const REPLIES = 20;
    const cpuBefore = await server.cpuMs();
    await graph.goDown();
    const downAt = performance.now();
    const expected: string[] = [];
    const timed: Timed[] = [];
    for (let i = 0; i < REPLIES; i++) {
      const t = w.tickets[i % w.tickets.length];
      timed.push(await request(server.url, 'POST', `/messages/${t.id}`, token, { body: `fora ${i}` }));
      expected.push(`${t.number}:fora ${i}`);
      await sleep(500);
    }
    const db = new Client({ connectionString: bench.url });
    await db.connect();
    const channelState = async () => (await db.query(`SELECT status, "statusReason" FROM channels WHERE id = $1`, [w.channelId])).rows[0];
    const failedCount = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM messages WHERE "tenantId" = $1 AND status = 'failed'`, [w.tenantId])).rows[0].n);
    let sawLost: { status: string; statusReason: string } | undefined;
    const watch = async (untilMs: number) => {
      while (performance.now() < untilMs) {
        const state = await channelState();
        if (state.status === 'CONNECTION_LOST') sawLost ??= state;
        timed.push(await request(server.url, 'GET', '/health', token));
        await sleep(2_000);
      }
    };
    await watch(downAt + PROVIDER_DOWN_S * 1000);
    await graph.comeBack();
    graph.failNext({ status: 503 }, { times: 100_000 });
    await watch(performance.now() + 30_000);
    const failedDuring = await failedCount();
    graph.clearFailures();
    const backAt = performance.now();
    await waitUntil(() => expected.every((e) => acceptedCounts(graph).has(e)), 120_000);
    const doneAt = performance.now();
    const connected = await waitUntil(async () => (await channelState()).status === 'CONNECTED', 30_000);
    const failedAfter = await failedCount();
    await db.end();
    const cpu = (await server.cpuMs()) - cpuBefore;
    return {
      scenario: 'provider',
      refused_s: PROVIDER_DOWN_S,
      answering_503_s: 30,
      ...deliveryReport(graph, expected),
      undelivered_marked: failedAfter,
      undelivered_marked_during_outage: failedDuring,
      channel_state_during_outage: sawLost?.status ?? 'CONNECTED',
      channel_reason: sawLost?.statusReason ?? null,
      channel_connected_again: connected,
      slowest_request_during_fault_ms: slowest(timed),
      recovery_ms: round(doneAt - backAt),
      server_cpu_ms_per_operation: Number((cpu / REPLIES).toFixed(2)),
      load_average: loadavg(),
    };
  } finally {
    await server.stop();
    await graph.stop();
    await bench.drop();
  }
}

// ---------- main ----------

const SCENARIOS: Record<string, () => Promise<Record<string, unknown>>> = {
  redis: redisScenario,
  postgres: postgresScenario,
  worker: workerScenario,
  provider: providerScenario,
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(SCENARIOS);
  for (const name of names) {
    const run = SCENARIOS[name];
    if (!run) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    const started = Date.now();
    const result = await run();
    console.log(JSON.stringify({ scenario: name, ...result, seconds: Math.round((Date.now() - started) / 1000) }));
  }
}

runBench(main, serve);
