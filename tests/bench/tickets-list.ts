/**
 * Ticket list benchmark (issue "Tickets and messages", item 1). Not a test: prints JSON lines.
 *
 *   npx tsx tests/bench/tickets-list.ts [ticketsInBigTenant] [requests]   (default 100000 200)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process, seeds 10 tenants (one with 100,000 tickets
 * and as many contacts spread over 10 queues, 30 agents and the three statuses; nine with 2,000
 * each) with INSERT ... SELECT generate_series, then measures GET /tickets with the default filter
 * (open + pending, first page, with count) as an agent of 2 queues and as an admin with showAll,
 * sequentially. It prints p50/p95/p99 in ms per viewer and the EXPLAIN (ANALYZE, BUFFERS) of the
 * page and count statements each one runs. Target: p95 < 50 ms.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TicketListQuerySchema, type TicketListResponse } from '../../shared/schemas/tickets';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { buildTicketListSql } from '../../server/src/modules/tickets/ticket-list.query';
import { TicketViewerLoader } from '../../server/src/modules/tickets/ticket-viewer';
import { startServer } from '../../server/src/server';
import { createBenchDatabase, percentile } from './support/bench-support';
import { loginBody } from '../helpers/captcha';

const BIG = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 100_000;
const REQUESTS = Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 200;
const SMALL = 2_000;
const TENANTS = 10;
const QUEUES = 10;
const AGENTS = 30;
const WARMUP = 20;

type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

/** Queues, agents (2 queues each), an admin, a channel, contacts and tickets of one tenant. */
async function seedTenant(q: Query, name: string, tickets: number, password: string) {
  const [tenant] = await q(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name]);
  const t = tenant.id as number;
  const queues = (
    await q(`INSERT INTO queues ("tenantId", name) SELECT $1, 'Fila ' || g FROM generate_series(1, $2) g RETURNING id`, [
      t,
      QUEUES,
    ])
  ).map((r) => r.id as number);
  const hash = await hashPassword(password);
  const agents = (
    await q(
      `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues)
     SELECT $1::int, 'Agente ' || g, 'agent' || g || '-' || $1::int || '@bench.example.com', $2, 'user',
            jsonb_build_array(($3::int[])[1 + (g % $4::int)], ($3::int[])[1 + ((g + 1) % $4::int)])
       FROM generate_series(0, $5::int - 1) g RETURNING id`,
      [t, hash, queues, QUEUES, AGENTS],
    )
  ).map((r) => r.id as number);
  const [admin] = await q(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Admin', $2, $3, 'admin') RETURNING id, email`,
    [t, `admin-${t}@bench.example.com`, hash],
  );
  await q(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [t]);
  const [channel] = await q(
    `INSERT INTO channels ("tenantId", name, type, "isDefault") VALUES ($1, 'WABA', 'waba', true) RETURNING id`,
    [t],
  );
  const tags = (
    await q(`INSERT INTO tags ("tenantId", name) SELECT $1, 'Tag ' || g FROM generate_series(1, 5) g RETURNING id`, [t])
  ).map((r) => r.id);

  const [range] = await q(
    `WITH c AS (
       INSERT INTO contacts ("tenantId", name, number, "profilePicUrl")
       SELECT $1::int, 'Contato ' || g, '55' || (11000000000 + $2::bigint * 1000000 + g)::text, 'https://pics.example.com/' || g || '.jpg'
         FROM generate_series(1, $3) g RETURNING id)
     SELECT min(id) AS lo, max(id) AS hi FROM c`,
    [t, t, tickets],
  );
  // A fifth of the contacts carry a tag, a twentieth a wallet owner.
  await q(
    `INSERT INTO contact_tags ("contactId", "tagId", "tenantId")
     SELECT id, ($2::int[])[1 + id % 5], $1::int FROM contacts WHERE "tenantId" = $1::int AND id % 5 = 0`,
    [t, tags],
  );
  await q(
    `INSERT INTO contact_wallets ("contactId", "userId", "tenantId")
     SELECT id, ($2::int[])[1 + id % $3::int], $1::int FROM contacts WHERE "tenantId" = $1::int AND id % 20 = 0`,
    [t, agents, AGENTS],
  );
  // 20% open (with an agent), 15% pending (no agent), 65% closed; activity over the last 30 days.
  await q(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "queueId", "userId", status, protocol,
                          "unreadMessages", "lastMessage", "lastMessageAt", "createdAt", "closedAt")
     SELECT $1::int, c.id, $2::int, 'waba', ($3::int[])[1 + c.id % $4::int],
            CASE WHEN s.status = 'pending' THEN NULL ELSE ($5::int[])[1 + (c.id / 7) % $6::int] END,
            s.status, to_char(now(), 'YYYYMMDD') || lpad(c.id::text, 8, '0'),
            CASE WHEN s.status <> 'closed' THEN c.id % 4 ELSE 0 END,
            'Mensagem ' || c.id, s.at, s.at - interval '1 hour', CASE WHEN s.status = 'closed' THEN s.at END
       FROM contacts c
       CROSS JOIN LATERAL (
         SELECT CASE WHEN r.x < 0.20 THEN 'open' WHEN r.x < 0.35 THEN 'pending' ELSE 'closed' END AS status,
                now() - (random() * interval '30 days') AS at
           FROM (SELECT random() + c.id * 0 AS x) r
       ) s
      WHERE c."tenantId" = $1::int AND c.id BETWEEN $7::int AND $8::int`,
    [t, channel.id, queues, QUEUES, agents, AGENTS, range.lo, range.hi],
  );
  return { tenantId: t, agentEmail: `agent0-${t}@bench.example.com`, adminEmail: admin.email as string };
}

async function main() {
  const db = await createBenchDatabase();
  const dataDir = db.dataDir;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const server = await startServer(config, { seed: false, redisPrefix: `bench-${randomBytes(4).toString('hex')}` });
  const ds = server.deps.dataSource;
  const q: Query = (sql, params) => ds.query(sql, params);

  try {
    const password = `Bench-${randomBytes(4).toString('hex')}!1`;
    const seedStarted = performance.now();
    const big = await seedTenant(q, 'Bench big', BIG, password);
    for (let i = 1; i < TENANTS; i++) await seedTenant(q, `Bench ${i}`, SMALL, password);
    await q(`VACUUM ANALYZE`);
    const [{ tickets }] = await q(`SELECT count(*)::int AS tickets FROM tickets`);
    console.log(
      JSON.stringify({
        seeded: {
          tenants: TENANTS,
          tickets,
          bigTenantTickets: BIG,
          seconds: Number(((performance.now() - seedStarted) / 1000).toFixed(1)),
        },
      }),
    );

    const login = async (email: string) => {
      const res = await fetch(`${server.url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await loginBody(server.url, { email, password })),
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { token: string; userId: number; profile: 'user' | 'admin' };
    };

    // Reference under the same machine load: an authenticated call with one tiny query.
    {
      const session = await login(big.agentEmail);
      const times: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const started = performance.now();
        const res = await fetch(`${server.url}/queue/user`, { headers: { authorization: `Bearer ${session.token}` } });
        await res.json();
        if (i >= WARMUP) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        JSON.stringify({
          baseline: 'GET /queue/user',
          p50_ms: percentile(times, 50),
          p95_ms: percentile(times, 95),
          p99_ms: percentile(times, 99),
        }),
      );
    }

    const viewers = [
      { who: 'agent', email: big.agentEmail, qs: '' },
      { who: 'admin_showAll', email: big.adminEmail, qs: '?showAll=true' },
    ];
    const loader = new TicketViewerLoader(server.deps);
    for (const v of viewers) {
      const session = await login(v.email);
      const get = async () => {
        const started = performance.now();
        const res = await fetch(`${server.url}/tickets${v.qs}`, { headers: { authorization: `Bearer ${session.token}` } });
        const body = (await res.json()) as TicketListResponse;
        if (res.status !== 200) throw new Error(`GET /tickets failed: ${res.status} ${JSON.stringify(body)}`);
        return { ms: performance.now() - started, body };
      };
      for (let i = 0; i < WARMUP; i++) await get();
      const times: number[] = [];
      let last: TicketListResponse | undefined;
      for (let i = 0; i < REQUESTS; i++) {
        const r = await get();
        times.push(r.ms);
        last = r.body;
      }
      times.sort((a, b) => a - b);
      console.log(
        JSON.stringify({
          viewer: v.who,
          requests: REQUESTS,
          p50_ms: percentile(times, 50),
          p95_ms: percentile(times, 95),
          p99_ms: percentile(times, 99),
          max_ms: percentile(times, 100),
          page: last?.tickets.length,
          count: last?.count,
          target_p95_ms: 50,
        }),
      );

      const viewer = await loader.load({
        tenantId: big.tenantId,
        userId: session.userId,
        profile: session.profile,
        email: v.email,
      });
      const sql = buildTicketListSql(viewer, TicketListQuerySchema.parse(v.qs ? { showAll: 'true' } : {}));
      for (const [what, text, params] of [
        ['page', sql.pageSql, sql.pageParams],
        ['count', sql.countSql, sql.countParams],
      ] as const) {
        const plan = (await q(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, [...params])).map((r) => r['QUERY PLAN']).join('\n');
        console.log(JSON.stringify({ viewer: v.who, plan: what, explain: plan }));
      }
    }
  } finally {
    await server.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
