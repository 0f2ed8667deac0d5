/**
 * Dashboard statistics benchmark (issue #13). Not a test: prints JSON lines.
 *
 *   npx tsx tests/bench/statistics.ts [ticketsInBigTenant] [requests]   (default 100000 30)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process (migrations included) and seeds, with INSERT
 * ... SELECT generate_series, 10 tenants: one of 100,000 tickets and 1,000,000 messages spread
 * over the last 365 days (10 queues, 30 agents, 3 channels) and nine of a tenth of that, with the
 * facts live recording writes for them (ticket_metric_events, its day counts and the tickets'
 * summary columns: opening, assignment, waiting, first reply, every message, transfers,
 * resolutions, ratings). Then it calls
 * every dashboard statistics route for the last 30 days and for the last 365 days, as the big
 * tenant's administrator and as a supervisor of 2 queues, sequentially, and prints per call:
 * p50/p95/p99 latency (ms), the CPU time per call of this process (HTTP + Node) and of the
 * PostgreSQL backends serving it, and the machine's load. Targets: p95 < 100 ms (30 days) and
 * < 300 ms (a year). BENCH_EXPLAIN=1 also prints EXPLAIN (ANALYZE, BUFFERS) of each call's
 * statistics statement for the year. For tuning: BENCH_KEEP=1 keeps the database (its name is
 * printed), BENCH_DATABASE=<name> measures an existing one without seeding it again.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATISTICS_PATHS } from '../../shared/schemas/statistics';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { startServer } from '../../server/src/server';
import { loginBody } from '../helpers/captcha';
import { BENCH_BASE_URL, createBenchDatabase, latencyStats, type BenchDatabase } from './support/bench-support';

const BIG = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 100_000;
const REQUESTS = Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 30;
const SMALL = Math.max(1, Math.round(BIG / 10));
const MESSAGES_PER_TICKET = 10;
const TENANTS = 10;
const QUEUES = 10;
const AGENTS = 30;
const WARMUP = 5;
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';

const CALLS = {
  ticketsTimes: STATISTICS_PATHS.ticketsTimes,
  ticketsChannels: STATISTICS_PATHS.ticketsChannels,
  ticketsEvolutionByPeriod: STATISTICS_PATHS.ticketsEvolutionByPeriod,
  ticketsEvolutionChannels: STATISTICS_PATHS.ticketsEvolutionChannels,
  ticketsQueue: STATISTICS_PATHS.ticketsQueue,
  ticketsHours: STATISTICS_PATHS.ticketsHours,
  perUsers: STATISTICS_PATHS.perUsers,
  countMessages: STATISTICS_PATHS.countMessages,
};

type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

/**
 * One tenant: queues, agents, an admin, a supervisor of two queues, three channels, `tickets`
 * contacts each with one ticket, 10 messages per ticket, and the facts of all of it.
 */
async function seedTenant(q: Query, name: string, tickets: number, hash: string) {
  const [tenant] = await q(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name]);
  const t = tenant.id as number;
  const queues = (
    await q(`INSERT INTO queues ("tenantId", name) SELECT $1, 'Fila ' || g FROM generate_series(1, $2) g RETURNING id`, [t, QUEUES])
  ).map((r) => r.id as number);
  const agents = (
    await q(
      `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues)
       SELECT $1::int, 'Agente ' || g, 'agent' || g || '-' || $1::int || '@bench.example.com', $2, 'user',
              jsonb_build_array(($3::int[])[1 + (g % $4::int)])
         FROM generate_series(0, $5::int - 1) g RETURNING id`,
      [t, hash, queues, QUEUES, AGENTS],
    )
  ).map((r) => r.id as number);
  const [admin] = await q(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Admin', $2, $3, 'admin') RETURNING email`,
    [t, `admin-${t}@bench.example.com`, hash],
  );
  const [supervisor] = await q(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues) VALUES ($1, 'Supervisor', $2, $3, 'super', $4) RETURNING email`,
    [t, `super-${t}@bench.example.com`, hash, JSON.stringify(queues.slice(0, 2))],
  );
  await q(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [t]);
  const channels = (
    await q(
      `INSERT INTO channels ("tenantId", name, type, "isDefault")
       VALUES ($1, 'WhatsApp', 'waba', true), ($1, 'Telegram', 'telegram', false), ($1, 'Instagram', 'instagram', false) RETURNING id`,
      [t],
    )
  ).map((r) => r.id as number);

  await q(
    `INSERT INTO contacts ("tenantId", name, number, "createdAt")
     SELECT $1::int, 'Contato ' || g, '55' || (11000000000 + $1::bigint * 10000000 + g)::text, now() - random() * interval '365 days'
       FROM generate_series(1, $2::int) g`,
    [t, tickets],
  );
  // One ticket per contact, opened up to a day after the contact: 30% started by an agent (no
  // waiting, no first response), 70% closed, 20% open, 10% pending; waiting skewed to minutes.
  // Each agent works in one queue (three agents per queue), as the seeded users are set up.
  await q(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "queueId", "userId", status, protocol, "isActiveDemand",
                          "createdAt", "updatedAt", "lastMessageAt", "closedAt", "startedAt", "firstOpenedAt", "waitingSeconds",
                          "firstReplyAt", "firstResponseSeconds", "resolutionSeconds")
     SELECT $1::int, c.id, ch.id, ch.type, ($2::int[])[1 + c.id % $3::int],
            CASE WHEN s.status = 'pending' THEN NULL ELSE ($4::int[])[1 + c.id % $3::int + $3::int * ((c.id / $3::int) % ($5::int / $3::int))] END,
            s.status, 'B' || c.id, s.active, s.created, s.created, s.created + interval '20 minutes',
            CASE WHEN s.status = 'closed' THEN s.created + make_interval(secs => s.resolution) END,
            CASE WHEN s.status <> 'pending' THEN s.created + make_interval(secs => COALESCE(s.waiting, 0)) END,
            CASE WHEN s.status <> 'pending' THEN s.created + make_interval(secs => COALESCE(s.waiting, 0)) END,
            CASE WHEN s.status <> 'pending' THEN s.waiting END,
            CASE WHEN s.status <> 'pending' THEN s.created + make_interval(secs => COALESCE(s.response, 0)) END,
            CASE WHEN s.status <> 'pending' THEN s.response END,
            CASE WHEN s.status = 'closed' THEN s.resolution END
       FROM contacts c
       JOIN channels ch ON ch.id = ($6::int[])[1 + c.id % 3]
      CROSS JOIN LATERAL (
        SELECT x.active, x.status, LEAST(c."createdAt" + x.after, now() - interval '1 hour') AS created,
               CASE WHEN x.active THEN NULL ELSE x.waiting END AS waiting,
               CASE WHEN x.active THEN NULL ELSE x.waiting + x.answer END AS response,
               x.waiting + x.answer + x.solve AS resolution
          FROM (SELECT random() < 0.3 AS active,
                       CASE WHEN r < 0.7 THEN 'closed' WHEN r < 0.9 THEN 'open' ELSE 'pending' END AS status,
                       random() * interval '1 day' AS after,
                       floor(power(random(), 2) * 7200)::int AS waiting,
                       floor(random() * 1800)::int AS answer,
                       floor(random() * 86400)::int AS solve
                  FROM (SELECT random() + c.id * 0 AS r) rr) x
      ) s
      WHERE c."tenantId" = $1::int`,
    [t, queues, QUEUES, agents, AGENTS, channels],
  );
  // Ten messages per ticket, customer and agent in turn, two minutes apart.
  await q(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", status, ack, read, "createdAt", "updatedAt")
     SELECT t."tenantId", t.id, t."contactId", CASE WHEN k % 2 = 0 THEN 'Resposta ' ELSE 'Pergunta ' END || k,
            k % 2 = 0, CASE WHEN k % 2 = 0 THEN t."userId" END, t."whatsappId",
            CASE WHEN k % 2 = 0 THEN 'sent' ELSE 'received' END, CASE WHEN k % 2 = 0 THEN 1 ELSE 0 END, true,
            t."createdAt" + k * interval '2 minutes', t."createdAt" + k * interval '2 minutes'
       FROM tickets t CROSS JOIN generate_series(1, $2::int) k
      WHERE t."tenantId" = $1::int`,
    [t, MESSAGES_PER_TICKET],
  );

  // The facts, as the write paths record them.
  const insertFacts = (select: string, params: unknown[] = [t]) =>
    q(
      `INSERT INTO ticket_metric_events ("tenantId", "ticketId", kind, at, "queueId", "userId", "whatsappId", channel, "contactId",
                                         "fromQueueId", "fromUserId", value) ${select}`,
      params,
    );
  const base = `t."tenantId", t.id`;
  const where = `FROM tickets t WHERE t."tenantId" = $1::int`;
  await insertFacts(
    `SELECT ${base}, 'opened', t."createdAt", t."queueId", CASE WHEN t."isActiveDemand" THEN t."userId" END, t."whatsappId", t.channel, t."contactId", NULL, NULL, NULL ${where}`,
  );
  await insertFacts(
    `SELECT ${base}, 'assigned', COALESCE(t."firstOpenedAt", t."createdAt"), t."queueId", t."userId", t."whatsappId", t.channel, t."contactId",
            NULL, NULL, NULL
      ${where} AND t."userId" IS NOT NULL`,
  );
  await insertFacts(
    `SELECT ${base}, 'started', t."firstOpenedAt", t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL, NULL, t."waitingSeconds"
      ${where} AND t."waitingSeconds" IS NOT NULL`,
  );
  await insertFacts(
    `SELECT ${base}, 'firstReply', t."firstReplyAt", t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL, NULL, t."firstResponseSeconds"
      ${where} AND t."firstReplyAt" IS NOT NULL`,
  );
  await insertFacts(
    `SELECT ${base}, 'transfer', t."firstOpenedAt" + interval '1 minute', t."queueId", t."userId", t."whatsappId", t.channel, t."contactId",
            ($2::int[])[1 + (t.id + 3) % array_length($2::int[], 1)], NULL, NULL
      ${where} AND t."firstOpenedAt" IS NOT NULL AND t.id % 10 = 0`,
    [t, queues],
  );
  await insertFacts(
    `SELECT ${base}, CASE WHEN m."fromMe" THEN 'reply' ELSE 'messageIn' END, m."createdAt", t."queueId", t."userId", t."whatsappId", t.channel,
            t."contactId", NULL, NULL, NULL
       FROM messages m JOIN tickets t ON t.id = m."ticketId" WHERE m."tenantId" = $1::int`,
  );
  await insertFacts(
    `SELECT ${base}, 'autoMessage', t."closedAt", t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL, NULL, NULL
      ${where} AND t."closedAt" IS NOT NULL AND t.id % 5 = 0`,
  );
  await insertFacts(
    `SELECT ${base}, 'resolved', t."closedAt", t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL, NULL, t."resolutionSeconds"
      ${where} AND t."closedAt" IS NOT NULL`,
  );
  await insertFacts(
    `SELECT ${base}, 'rating', t."closedAt" + interval '5 minutes', t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL, NULL,
            (t.id * 7) % 6
      ${where} AND t."closedAt" IS NOT NULL AND t.id % 3 = 0`,
  );
  await q(
    `INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", n)
     SELECT "tenantId", kind, (at AT TIME ZONE 'UTC')::date, "queueId", CASE WHEN kind = 'reply' THEN "userId" END, count(*)
       FROM ticket_metric_events WHERE "tenantId" = $1 AND kind IN ('messageIn', 'reply', 'autoMessage')
      GROUP BY 1, 2, 3, 4, 5`,
    [t],
  );
  return { tenantId: t, adminEmail: admin.email as string, supervisorEmail: supervisor.email as string };
}

/** A database kept by an earlier run (BENCH_KEEP=1), measured again without seeding. */
function existingDatabase(name: string): BenchDatabase {
  const url = new URL(BENCH_BASE_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atende-bench-'));
  return { name, url: url.toString(), dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** utime + stime of a process, in ms (Linux /proc; 0 where it cannot be read). */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function machine() {
  let loadavg: string;
  try {
    loadavg = readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    loadavg = os.loadavg().join(' ');
  }
  return { loadavg, cpus: os.cpus().length };
}

async function main() {
  const reuse = process.env.BENCH_DATABASE;
  const db = reuse ? existingDatabase(reuse) : await createBenchDatabase('atende_bench_stats');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789',
    WEB_DIST: path.join(db.dataDir, 'no-web'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const server = await startServer(config, { seed: false, redisPrefix: `bench-${randomBytes(4).toString('hex')}` });
  const ds = server.deps.dataSource;
  const q: Query = (sql, params) => ds.query(sql, params);

  try {
    console.log(JSON.stringify({ machine_before: machine() }));
    const password = `Bench-${randomBytes(4).toString('hex')}!1`;
    const hash = await hashPassword(password);
    const seedStarted = performance.now();
    let big: { tenantId: number; adminEmail: string; supervisorEmail: string };
    if (reuse) {
      const [row] = await q(`SELECT id FROM tenants WHERE name = 'Bench big'`);
      big = { tenantId: row.id, adminEmail: `admin-${row.id}@bench.example.com`, supervisorEmail: `super-${row.id}@bench.example.com` };
      await q(`UPDATE users SET "passwordHash" = $1`, [hash]);
    } else {
      big = await seedTenant(q, 'Bench big', BIG, hash);
      for (let i = 1; i < TENANTS; i++) await seedTenant(q, `Bench ${i}`, SMALL, hash);
      await q(`VACUUM ANALYZE`);
    }
    const [counts] = await q(
      `SELECT (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM messages)::int AS messages,
              (SELECT count(*) FROM ticket_metric_events)::int AS facts,
              (SELECT count(*) FROM messages WHERE "tenantId" = $1)::int AS "bigTenantMessages"`,
      [big.tenantId],
    );
    console.log(
      JSON.stringify({
        seeded: { database: db.name, reused: !!reuse, tenants: TENANTS, ...counts, seconds: Number(((performance.now() - seedStarted) / 1000).toFixed(1)) },
      }),
    );

    const login = async (email: string) => {
      const res = await fetch(`${server.url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await loginBody(server.url, { email, password })),
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    };
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const today = new Date();
    const periods = [
      { period: '30d', startDate: day(new Date(today.getTime() - 29 * 86_400_000)), endDate: day(today), target: 100 },
      { period: '365d', startDate: day(new Date(today.getTime() - 364 * 86_400_000)), endDate: day(today), target: 300 },
    ];
    const backends = async () =>
      ((await q(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)) as { pid: number }[]).map((r) => r.pid);

    // Statements run during one request, for EXPLAIN.
    let captured: { sql: string; params: unknown[] }[] | null = null;
    const original = ds.query.bind(ds);
    ds.query = ((sql: string, params?: unknown[]) => {
      captured?.push({ sql, params: params ?? [] });
      return original(sql, params);
    }) as typeof ds.query;

    const summary: { viewer: string; call: string; period: string; p95_ms: number; target_p95_ms: number }[] = [];
    for (const viewer of [
      { who: 'admin', token: await login(big.adminEmail) },
      { who: 'supervisor_2_queues', token: await login(big.supervisorEmail) },
    ]) {
      for (const p of periods) {
        for (const [call, route] of Object.entries(CALLS)) {
          const url = `${server.url}${route}?startDate=${p.startDate}&endDate=${p.endDate}`;
          const fetchOnce = async () => {
            const started = performance.now();
            const res = await fetch(url, { headers: { authorization: `Bearer ${viewer.token}` } });
            const body = await res.json();
            if (res.status !== 200) throw new Error(`${route} failed: ${res.status} ${JSON.stringify(body)}`);
            return performance.now() - started;
          };
          for (let i = 0; i < WARMUP; i++) await fetchOnce();
          const pids = await backends();
          const pgBefore = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
          const nodeBefore = process.cpuUsage();
          const times: number[] = [];
          for (let i = 0; i < REQUESTS; i++) times.push(await fetchOnce());
          const node = process.cpuUsage(nodeBefore);
          const pg = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - pgBefore;
          const stats = latencyStats(times);
          summary.push({ viewer: viewer.who, call, period: p.period, p95_ms: stats.p95_ms, target_p95_ms: p.target });
          console.log(
            JSON.stringify({
              viewer: viewer.who,
              call,
              route,
              period: p.period,
              ...stats,
              target_p95_ms: p.target,
              met: stats.p95_ms < p.target,
              cpu_ms_per_call: {
                node: Number(((node.user + node.system) / 1000 / REQUESTS).toFixed(2)),
                postgres: Number((pg / REQUESTS).toFixed(2)),
              },
              loadavg: machine().loadavg,
            }),
          );
          if (EXPLAIN && p.period === '365d') {
            captured = [];
            await fetchOnce();
            const statements = captured.filter((s) => /ticket_metric_events|FROM tickets t/.test(s.sql));
            captured = null;
            for (const s of statements) {
              const plan = (await original(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params)).map((r: any) => r['QUERY PLAN']).join('\n');
              console.log(JSON.stringify({ viewer: viewer.who, call, explain: plan }));
            }
          }
        }
      }
    }
    const missed = summary.filter((s) => s.p95_ms >= s.target_p95_ms);
    console.log(JSON.stringify({ machine_after: machine(), calls: summary.length, missed_targets: missed }));
  } finally {
    await server.close();
    if (reuse || process.env.BENCH_KEEP !== '1') await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
