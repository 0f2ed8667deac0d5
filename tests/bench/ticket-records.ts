/**
 * Protocols and notes lists benchmark (issue #14 item 9). Not a test: prints JSON lines.
 *
 *   npx tsx tests/bench/ticket-records.ts [requests]        (default 20 per case)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process and seeds, with INSERT ... SELECT
 * generate_series, one tenant of 200,000 tickets over the last year (every one with a protocol,
 * 10 queues, 30 agents, 50,000 contacts) and 200,000 notes, plus 4 tenants of 5,000 tickets and
 * notes each. Then, as the big tenant's admin and as a supervisor without privileges
 * (supervisorAdmin enabled, 2 queues), the first page (25 rows, with the count) of GET /protocol
 * and GET /tickets/notes: no filter, the last 30 days, a year, a contact search, a protocol search
 * and (notes) a note text search: p50/p95/max in ms. Target: p95 < 300 ms.
 * BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of each case's page and count statements.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TicketRecordsQuerySchema } from '../../shared/schemas/ticket-records';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { reportTimeZone } from '../../server/src/modules/reports/report-sql';
import { buildNotesSql, buildProtocolsSql } from '../../server/src/modules/tickets/ticket-records.query';
import { TicketViewerLoader } from '../../server/src/modules/tickets/ticket-viewer';
import { settingsCacheFor } from '../../server/src/modules/settings/settings.cache';
import { startServer } from '../../server/src/server';
import { loginBody } from '../helpers/captcha';
import { createBenchDatabase, latencyStats } from './support/bench-support';

const REQUESTS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 20;
const WARMUP = 3;
const BIG = { contacts: 50_000, tickets: 200_000, notes: 200_000 };
const SMALL = { contacts: 2_000, tickets: 5_000, notes: 5_000 };
const PASSWORD = 'Bench-records-1!';

type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

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
  await q(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues)
     VALUES ($1, 'Admin', $2, $4, 'admin', '[]'), ($1, 'Supervisor', $3, $4, 'super', jsonb_build_array(($5::int[])[1], ($5::int[])[2]))`,
    [t, `admin-${t}@bench.example.com`, `super-${t}@bench.example.com`, hash, queues],
  );
  await q(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [t]);
  const [{ lo, hi }] = await q(
    `WITH c AS (
       INSERT INTO contacts ("tenantId", name, number, "createdAt")
       SELECT $1::int, 'Contato ' || substr(md5(g::text), 1, 10), '5511' || '9' || lpad((($1::int * 1000000 + g) % 100000000)::text, 8, '0'),
              now() - random() * interval '365 days'
         FROM generate_series(1, $2::int) g RETURNING id)
     SELECT min(id) AS lo, max(id) AS hi FROM c`,
    [t, size.contacts],
  );
  // Tickets over the last year, all closed but the first of some contacts; the protocol as the upsert writes it.
  await q(
    `INSERT INTO tickets ("tenantId", "contactId", "queueId", "userId", status, protocol, "lastMessageAt", "createdAt", "closedAt")
     SELECT $1::int, $2::int + (g - 1) % ($3::int - $2::int + 1), ($4::int[])[1 + g % 10], ($5::int[])[1 + g % 30],
            CASE WHEN g <= $3::int - $2::int + 1 AND g % 10 = 0 THEN 'open' ELSE 'closed' END,
            to_char(s.at, 'YYYYMMDD') || lpad(($1::int * 10000000 + g)::text, 8, '0'), s.at, s.at, s.at + interval '1 hour'
       FROM generate_series(1, $6::int) g
       CROSS JOIN LATERAL (SELECT now() - ((g::bigint * 104729) % 31536000) * interval '1 second' AS at) s`,
    [t, lo, hi, queues, agents, size.tickets],
  );
  const [{ first, last }] = await q(`SELECT min(id) AS first, max(id) AS last FROM tickets WHERE "tenantId" = $1`, [t]);
  await q(
    `INSERT INTO ticket_notes ("tenantId", "ticketId", "userId", note, "createdAt")
     SELECT $1, tk.id, tk."userId", 'Nota ' || g || ': ' || (ARRAY['cliente pediu retorno', 'endereço atualizado', 'aguardando pagamento',
            'reclamação sobre entrega', 'orçamento enviado'])[1 + g % 5] || ' ' || substr(md5(g::text), 1, 8),
            tk."createdAt" + interval '10 minutes'
       FROM generate_series(1, $4::int) g JOIN tickets tk ON tk.id = $2::int + (g * 7) % ($3::int - $2::int + 1)`,
    [t, first, last, size.notes],
  );
  return { tenantId: t, adminEmail: `admin-${t}@bench.example.com`, superEmail: `super-${t}@bench.example.com` };
}

async function main() {
  const db = await createBenchDatabase('atende_bench_records');
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
  try {
    const started = performance.now();
    const big = await seedTenant(q, 'Bench big', BIG);
    for (let i = 1; i < 5; i++) await seedTenant(q, `Bench ${i}`, SMALL);
    await q(`VACUUM ANALYZE`);
    const [counts] = await q(`SELECT (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM ticket_notes)::int AS notes`);
    console.log(JSON.stringify({ seeded: { ...counts, seconds: Math.round((performance.now() - started) / 1000) } }));
    await q(`INSERT INTO settings ("tenantId", key, value) VALUES ($1, 'supervisorAdmin', 'enabled')`, [big.tenantId]);
    settingsCacheFor(server.deps.dataSource, server.deps.clock).invalidate(big.tenantId);

    const [sample] = await q(`SELECT protocol FROM tickets WHERE "tenantId" = $1 ORDER BY id DESC LIMIT 1`, [big.tenantId]);
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    const cases: [string, string][] = [
      ['all', ''],
      ['30d', `startDate=${day(29)}&endDate=${day(0)}`],
      ['365d', `startDate=${day(365)}&endDate=${day(0)}`],
      ['contact search, 30d', `search=contato%20a1&startDate=${day(29)}&endDate=${day(0)}`],
      ['contact search, all', 'search=contato%20a1'],
      ['protocol search, all', `search=${String(sample.protocol).slice(-8)}`],
      ['note text search, all', 'search=reclamacao%20sobre'],
    ];

    for (const who of ['admin', 'super'] as const) {
      const email = who === 'admin' ? big.adminEmail : big.superEmail;
      const login = await fetch(`${server.url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await loginBody(server.url, { email, password: PASSWORD })),
      });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
      const session = (await login.json()) as { token: string; userId: number };
      const headers = { authorization: `Bearer ${session.token}` };
      const viewer = await new TicketViewerLoader(server.deps).load({ tenantId: big.tenantId, userId: session.userId, profile: who, email });
      for (const list of ['/protocol', '/tickets/notes'] as const) {
        for (const [name, query] of cases) {
          if (name.startsWith('note text') && list === '/protocol') continue;
          const url = `${server.url}${list}?${query}&pageSize=25`;
          let count = 0;
          const call = async () => {
            const t0 = performance.now();
            const res = await fetch(url, { headers });
            const body = (await res.json()) as { count: number };
            if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
            count = body.count;
            return performance.now() - t0;
          };
          for (let i = 0; i < WARMUP; i++) await call();
          const times: number[] = [];
          for (let i = 0; i < REQUESTS; i++) times.push(await call());
          console.log(JSON.stringify({ as: who, list, case: name, ...latencyStats(times), count, target_p95_ms: 300 }));
          if (process.env.BENCH_EXPLAIN) {
            const parsed = TicketRecordsQuerySchema.parse(Object.fromEntries(new URL(url).searchParams));
            const scope = { viewer, timeZone: reportTimeZone({}) };
            const sql = list === '/protocol' ? buildProtocolsSql(scope, parsed) : buildNotesSql(scope, parsed);
            for (const [what, text, params] of [
              ['page', sql.pageSql, sql.pageParams],
              ['count', sql.countSql, sql.countParams],
            ] as const) {
              const plan = (await q(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params as unknown[])).map((r) => r['QUERY PLAN']).join('\n');
              console.log(`--- ${who} ${list} ${name} ${what}\n${plan}`);
            }
          }
        }
      }
    }
  } finally {
    await server.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
