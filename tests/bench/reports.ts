/**
 * Reports benchmark (issue #13). Not a test: prints JSON lines.
 *
 *   npx tsx tests/bench/reports.ts [requests]        (default 30 per report and period)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process and seeds, with INSERT ... SELECT
 * generate_series, one tenant of 100,000 tickets, 1,000,000 messages and 60,000 contacts over the
 * last year (10 queues, 30 agents, 3 channels, tags, kanban columns, wallets, ratings, demands),
 * plus 9 tenants of 2,000 tickets and 20,000 messages each. Then, as the big tenant's admin:
 * - every report's first page (50 rows, with count and totals) for the last 30 days and the
 *   last 365 days: p50/p95/max in ms, and CPU per call (this process + the database backends);
 * - a 100,000-row XLSX export of atendimentos-por-parametros (the whole year), and the same as
 *   CSV: seconds, bytes and the peak RSS of this process sampled every 20 ms during the export
 *   (the XLSX also over 30 days first, to tell a fixed rise from one that grows with the rows);
 * - a PDF export of the last 30 days;
 * - the machine load before and after. Targets: first page p95 < 300 ms; the XLSX < 15 s with
 *   flat memory.
 * BENCH_DB=<name> reuses a database seeded by an earlier run (BENCH_KEEP=1 keeps it);
 * BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of each report's page and summary statements.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { reportQuerySchema, type ReportId, type ReportPage } from '../../shared/schemas/reports';
import { backfillTicketMetrics } from '../../migrations/1763780000000-ticket-metrics';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { REPORTS } from '../../server/src/modules/reports/report-registry';
import { SqlParams, pageStatement, reportTimeZone } from '../../server/src/modules/reports/report-sql';
import { TicketViewerLoader } from '../../server/src/modules/tickets/ticket-viewer';
import { startServer } from '../../server/src/server';
import { loginBody } from '../helpers/captcha';
import { BENCH_BASE_URL, createBenchDatabase, latencyStats } from './support/bench-support';

const REQUESTS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 30;
const WARMUP = 5;
const BIG = { contacts: 60_000, tickets: 100_000, messagesPerTicket: 10 };
const SMALL = { contacts: 2_000, tickets: 2_000, messagesPerTicket: 10 };
const TENANTS = 10;
const PASSWORD = 'Bench-reports-1!';
const AREA_CODES = [
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54,
  55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
];

type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

/** One tenant's catalogue, contacts, tickets, logs, ratings and messages, all by generate_series. */
async function seedTenant(q: Query, name: string, size: typeof BIG) {
  const [{ id: t }] = await q(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name]);
  const ids = async (sql: string, params: unknown[]) => (await q(sql, params)).map((r) => r.id as number);
  const queues = await ids(`INSERT INTO queues ("tenantId", name) SELECT $1, 'Fila ' || g FROM generate_series(1, 10) g RETURNING id`, [t]);
  const hash = await hashPassword(PASSWORD);
  const agents = await ids(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues)
     SELECT $1::int, 'Agente ' || g, 'agent' || g || '-' || $1::int || '@bench.example.com', $2, 'user', jsonb_build_array(($3::int[])[1 + g % 10])
       FROM generate_series(0, 29) g RETURNING id`,
    [t, hash, queues],
  );
  await q(`INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Admin', $2, $3, 'admin')`, [
    t,
    `admin-${t}@bench.example.com`,
    hash,
  ]);
  await q(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [t]);
  const channels = await ids(
    `INSERT INTO channels ("tenantId", name, type) SELECT $1, c.name, c.type FROM (VALUES ('WhatsApp', 'waba'), ('Telegram', 'telegram'), ('Instagram', 'instagram')) c(name, type) RETURNING id`,
    [t],
  );
  const tags = await ids(`INSERT INTO tags ("tenantId", name) SELECT $1, 'Etiqueta ' || g FROM generate_series(1, 8) g RETURNING id`, [t]);
  const kanbans = await ids(`INSERT INTO kanbans ("tenantId", name, position) SELECT $1, 'Coluna ' || g, g FROM generate_series(1, 6) g RETURNING id`, [t]);
  const demands = await ids(`INSERT INTO demands ("tenantId", name) SELECT $1, 'Motivo ' || g FROM generate_series(1, 5) g RETURNING id`, [t]);

  // Contacts over the last year, numbers of every area code, half in a kanban column.
  const [{ lo, hi }] = await q(
    `WITH c AS (
       INSERT INTO contacts ("tenantId", name, number, email, "kanbanId", "createdAt")
       SELECT $1::int, 'Contato ' || substr(md5(g::text), 1, 10), '55' || ($2::int[])[1 + g % 67] || '9' || lpad((($1::int * 1000000 + g) % 100000000)::text, 8, '0'),
              CASE WHEN g % 3 = 0 THEN 'c' || g || '@bench.example.com' END,
              CASE WHEN g % 2 = 0 THEN ($3::int[])[1 + g % 6] END,
              now() - random() * interval '365 days'
         FROM generate_series(1, $4::int) g RETURNING id)
     SELECT min(id) AS lo, max(id) AS hi FROM c`,
    [t, AREA_CODES, kanbans, size.contacts],
  );
  await q(
    `INSERT INTO contact_tags ("contactId", "tagId", "tenantId")
     SELECT id, ($2::int[])[1 + id % 8], $1 FROM contacts WHERE "tenantId" = $1 AND id % 10 < 4
     UNION ALL SELECT id, ($2::int[])[1 + (id + 3) % 8], $1 FROM contacts WHERE "tenantId" = $1 AND id % 10 = 0`,
    [t, tags],
  );
  await q(
    `INSERT INTO contact_wallets ("contactId", "userId", "tenantId")
     SELECT id, ($2::int[])[1 + id % 30], $1 FROM contacts WHERE "tenantId" = $1 AND id % 5 = 0`,
    [t, agents],
  );

  // Tickets over the last year: 85% closed; only the first `contacts` tickets may be active, one per contact.
  await q(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "queueId", "userId", status, protocol, "demandId",
                          "lastMessageAt", "createdAt", "closedAt")
     SELECT $1::int, $2::int + (g - 1) % ($3::int - $2::int + 1), ($4::int[])[1 + g % 3], (ARRAY['waba','telegram','instagram'])[1 + g % 3],
            ($5::int[])[1 + g % 10],
            CASE WHEN s.status = 'pending' THEN NULL ELSE ($6::int[])[1 + g % 30] END,
            s.status, 'B' || $1::int || '-' || g, CASE WHEN g % 3 = 0 THEN ($7::int[])[1 + g % 5] END,
            s.at, s.at, CASE WHEN s.status = 'closed' THEN s.at + (300 + (g::bigint * 7919) % 172800) * interval '1 second' END
       FROM generate_series(1, $8::int) g
       CROSS JOIN LATERAL (
         SELECT CASE WHEN g <= $3::int - $2::int + 1 AND g % 20 = 0 THEN 'pending'
                     WHEN g <= $3::int - $2::int + 1 AND g % 10 = 0 THEN 'open' ELSE 'closed' END AS status,
                now() - ((g::bigint * 104729) % 31536000) * interval '1 second' AS at
       ) s`,
    [t, lo, hi, channels, queues, agents, demands, size.tickets],
  );
  await q(
    `INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data, "createdAt")
     SELECT $1, id, CASE WHEN id % 10 < 3 THEN "userId" END, 'create',
            jsonb_build_object('status', CASE WHEN "userId" IS NULL THEN 'pending' ELSE 'open' END), "createdAt"
       FROM tickets WHERE "tenantId" = $1`,
    [t],
  );
  // Closed by their agent: the resolution the recorded metrics derive from the log.
  await q(
    `INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data, "createdAt")
     SELECT $1, id, "userId", 'resolve', jsonb_build_object('fromUserId', "userId"), "closedAt"
       FROM tickets WHERE "tenantId" = $1 AND status = 'closed'`,
    [t],
  );
  // The tickets the company started (its create log names a user), as the ticket records it.
  await q(`UPDATE tickets SET "isActiveDemand" = (id % 10 < 3) WHERE "tenantId" = $1`, [t]);
  await q(
    `INSERT INTO ticket_ratings ("tenantId", "ticketId", "userId", rating, "createdAt")
     SELECT $1, id, "userId", (id / 3) % 6, "closedAt" FROM tickets WHERE "tenantId" = $1 AND status = 'closed' AND id % 3 = 0`,
    [t],
  );
  // Messages: inbound and agent replies alternating, minutes apart, in slices of 10,000 tickets.
  const [{ first, last }] = await q(`SELECT min(id) AS first, max(id) AS last FROM tickets WHERE "tenantId" = $1`, [t]);
  for (let from = first; from <= last; from += 10_000) {
    await q(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", "whatsappId", body, "fromMe", "userId", status, "createdAt", "updatedAt")
       SELECT $1, tk.id, tk."contactId", tk."whatsappId", 'Mensagem ' || i || ' do atendimento ' || tk.id, i % 2 = 0,
              CASE WHEN i % 2 = 0 THEN tk."userId" END, CASE WHEN i % 2 = 0 THEN 'sent' ELSE 'received' END,
              tk."createdAt" + (i * (1 + (tk.id + i) % 29)) * interval '1 minute', tk."createdAt"
         FROM tickets tk CROSS JOIN generate_series(1, $2::int) i
        WHERE tk."tenantId" = $1 AND tk.id BETWEEN $3 AND $4`,
      [t, size.messagesPerTicket, from, Math.min(last, from + 9_999)],
    );
  }
  // The recorded metrics (facts and per-ticket summary columns) the per-user report reads, derived
  // from these rows as the migration derives them for older data.
  await backfillTicketMetrics({ query: q }, { tenantId: t });
  return { tenantId: t, adminEmail: `admin-${t}@bench.example.com`, queues, agents, tags, kanbans, channels };
}

/** CPU milliseconds used so far by each database backend serving `db` (from /proc: user + system ticks). */
async function backendTicks(admin: Client, db: string): Promise<Map<number, number>> {
  const { rows } = await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [db]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // 100 ticks per second
    } catch {
      /* the backend ended */
    }
  }
  return out;
}

/** CPU ms the backends used between two readings (a backend started in between counts whole). */
const backendCpuMs = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

async function main() {
  const reuse = process.env.BENCH_DB;
  const db = reuse
    ? {
        name: reuse,
        url: Object.assign(new URL(BENCH_BASE_URL), { pathname: `/${reuse}` }).toString(),
        dataDir: mkdtempSync(path.join(tmpdir(), 'atende-bench-')),
        drop: async () => undefined,
      }
    : await createBenchDatabase('atende_bench_reports');
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
  const q: Query = (sql, params) => server.deps.dataSource.query(sql, params);
  const admin = new Client({ connectionString: BENCH_BASE_URL });
  await admin.connect();
  console.log(JSON.stringify({ loadavg_start: loadavg() }));

  try {
    let big: Awaited<ReturnType<typeof seedTenant>>;
    if (reuse) {
      const [tenant] = await q(`SELECT "tenantId" AS id FROM tickets GROUP BY "tenantId" ORDER BY count(*) DESC LIMIT 1`);
      const list = async (table: string) =>
        (await q(`SELECT id FROM ${table} WHERE "tenantId" = $1 ORDER BY id`, [tenant.id])).map((r) => r.id as number);
      big = {
        tenantId: tenant.id,
        adminEmail: `admin-${tenant.id}@bench.example.com`,
        queues: await list('queues'),
        agents: (await q(`SELECT id FROM users WHERE "tenantId" = $1 AND profile = 'user' ORDER BY id`, [tenant.id])).map((r) => r.id),
        tags: await list('tags'),
        kanbans: await list('kanbans'),
        channels: await list('channels'),
      };
    } else {
      const started = performance.now();
      big = await seedTenant(q, 'Bench big', BIG);
      for (let i = 1; i < TENANTS; i++) await seedTenant(q, `Bench ${i}`, SMALL);
      await q(`VACUUM ANALYZE`);
      const [counts] = await q(
        `SELECT (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM messages)::int AS messages,
                (SELECT count(*) FROM contacts)::int AS contacts,
                (SELECT count(*) FROM messages WHERE "tenantId" = $1)::int AS "bigTenantMessages"`,
        [big.tenantId],
      );
      console.log(JSON.stringify({ seeded: { tenants: TENANTS, ...counts, seconds: Math.round((performance.now() - started) / 1000) } }));
    }

    const login = await fetch(`${server.url}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await loginBody(server.url, { email: big.adminEmail, password: PASSWORD })),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const session = (await login.json()) as { token: string; userId: number };
    const headers = { authorization: `Bearer ${session.token}` };

    const day = (offset: number) => {
      const d = new Date(Date.now() - offset * 86_400_000);
      return d.toISOString().slice(0, 10);
    };
    const periods = { '30d': `startDate=${day(29)}&endDate=${day(0)}`, '365d': `startDate=${day(365)}&endDate=${day(0)}` };
    const queues = `queuesIds=${big.queues.join(',')}`;
    const cases: [ReportId, string][] = [
      ['estatisticas-atendimentos-usuarios', queues],
      ['atendimentos-por-parametros', queues],
      ['atendimentos-por-parametros', `${queues}&status=closed&ratings=4,5&tagsIds=${big.tags[0]}`],
      ['lista-contatos', ''],
      ['lista-contatos', `tagsIds=${big.tags[1]}&search=abc`],
      ['contatos-por-etiquetas', `tagsIds=${big.tags[0]},${big.tags[1]}`],
      ['contatos-por-estado', 'states=SP,RJ'],
      ['contatos-por-estado', 'states=AC'],
      ['contatos-por-kanban', `kanbanIds=${big.kanbans[0]},${big.kanbans[1]}`],
      ['contatos-por-carteira', `walletsIds=${big.agents.slice(0, 3).join(',')}`],
    ];

    const viewer = await new TicketViewerLoader(server.deps).load({ tenantId: big.tenantId, userId: session.userId, profile: 'admin', email: big.adminEmail });
    for (const [id, filters] of cases) {
      for (const [period, range] of Object.entries(periods)) {
        const url = `${server.url}/reports/${id}?${range}${filters ? `&${filters}` : ''}&pageNumber=1&pageSize=50`;
        let last: ReportPage | undefined;
        const call = async () => {
          const started = performance.now();
          const res = await fetch(url, { headers });
          const body = (await res.json()) as ReportPage;
          if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
          last = body;
          return performance.now() - started;
        };
        for (let i = 0; i < WARMUP; i++) await call();
        const cpuStart = processCpuMs();
        const dbStart = await backendTicks(admin, db.name);
        const times: number[] = [];
        for (let i = 0; i < REQUESTS; i++) times.push(await call());
        const nodeCpu = (processCpuMs() - cpuStart) / REQUESTS;
        const dbCpu = backendCpuMs(dbStart, await backendTicks(admin, db.name)) / REQUESTS;
        console.log(
          JSON.stringify({
            report: id,
            filters: filters || undefined,
            period,
            ...latencyStats(times),
            cpu_ms_per_call: { node: Number(nodeCpu.toFixed(1)), postgres: Number(dbCpu.toFixed(1)) },
            count: last?.count,
            rows: last?.rows.length,
            target_p95_ms: 300,
          }),
        );
        if (process.env.BENCH_EXPLAIN) {
          const def = REPORTS[id];
          const query = reportQuerySchema(id).parse(Object.fromEntries(new URL(url).searchParams)) as any;
          const { pageNumber, pageSize, ...f } = query;
          const ctx = { tenantId: big.tenantId, timeZone: reportTimeZone({}), viewer };
          const p = new SqlParams();
          const page = pageStatement(def.rows(ctx, f as never, p), p, pageNumber, pageSize);
          const statements: [string, string, unknown[]][] = [['page', page, p.values]];
          if (def.summary) {
            const sp = new SqlParams();
            statements.push(['summary', def.summary(ctx, f as never, sp).sql, sp.values]);
          }
          for (const [what, sql, params] of statements) {
            const plan = (await q(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
            console.log(`--- ${id} ${period} ${what}\n${plan}`);
          }
        }
      }
    }

    // Exports: the whole year of tickets (100,000 rows) as XLSX and CSV, the last 30 days as PDF.
    const exportOf = async (format: string, range: string) => {
      (globalThis as { gc?: () => void }).gc?.();
      const rssBefore = process.memoryUsage.rss();
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 20);
      const cpuStart = processCpuMs();
      const dbStart = await backendTicks(admin, db.name);
      const started = performance.now();
      const res = await fetch(`${server.url}/reports/atendimentos-por-parametros/export?${range}&${queues}&format=${format}`, { headers });
      if (res.status !== 200) throw new Error(`export ${format}: ${res.status} ${await res.text()}`);
      let bytes = 0;
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const [{ count }] = await q(
        `SELECT count(*)::int AS count FROM tickets WHERE "tenantId" = $1 AND "createdAt" >= ($2::date::timestamp AT TIME ZONE 'America/Sao_Paulo')`,
        [big.tenantId, new URLSearchParams(range).get('startDate')],
      );
      console.log(
        JSON.stringify({
          export: `atendimentos-por-parametros.${format}`,
          rows: count,
          seconds: Number(seconds.toFixed(2)),
          megabytes: Number((bytes / 1e6).toFixed(1)),
          rss_before_mb: Math.round(rssBefore / 1e6),
          rss_peak_mb: Math.round(peak / 1e6),
          cpu_s: { node: Number(((processCpuMs() - cpuStart) / 1000).toFixed(1)), postgres: Number((backendCpuMs(dbStart, await backendTicks(admin, db.name)) / 1000).toFixed(1)) },
          ...(format === 'xlsx' && count >= 100_000 ? { target_seconds: 15 } : {}),
        }),
      );
    };
    // The same export over 30 days first (about a twelfth of the rows): memory that is flat rises
    // by the same amount for both, memory that grows with the rows rises twelve times more.
    await exportOf('xlsx', periods['30d']);
    await exportOf('xlsx', periods['365d']);
    await exportOf('csv', periods['365d']);
    await exportOf('pdf', periods['30d']);
    console.log(JSON.stringify({ loadavg_end: loadavg() }));
  } finally {
    await admin.end();
    await server.close();
    if (!process.env.BENCH_KEEP && !reuse) await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
