/**
 * Message thread paging benchmark (issue "Tickets and messages", item 4). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/messages-page.ts [requests]        (default 200 per scenario)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process (migrations included), and fills one tenant
 * with one ticket of 100,000 messages plus 1,000,000 messages spread over 10,000 other tickets,
 * interleaved in time as real traffic is (INSERT ... SELECT generate_series). Then, through HTTP
 * with a bearer token, GET /messages/{ticketId}:
 *   - first page (what opening a chat costs),
 *   - a deep page 500 pages back by the keyset cursor (`before`),
 *   - for contrast, the same depth by pageNumber (OFFSET), which the anchor clients use,
 * each `requests` times after a warm-up, and prints p50/p95/p99 (ms) and the EXPLAIN ANALYZE
 * plan of the page query. Target: p95 < 20 ms for the first and the keyset pages.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { MESSAGE_PAGE_SIZE } from '../../shared/schemas/messages';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { MESSAGE_SELECT } from '../../server/src/modules/messages/messages.query';
import { threadPageSql } from '../../server/src/modules/messages/messages.service';
import { startServer } from '../../server/src/server';
import { MESSAGE_WORDS, createBenchDatabase, latencyStats as stats } from './support/bench-support';
import { loginBody } from '../helpers/captcha';

const REQUESTS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 200;
const WARMUP = 30;
const TICKET_MESSAGES = 100_000;
const OTHER_MESSAGES = 1_000_000;
const OTHER_TICKETS = 10_000;
const DEEP_PAGES = 500;
/** A ticket that went quiet: all its messages are older than the million that came after. */
const QUIET_MESSAGES = 20_000;

const WORDS = [...MESSAGE_WORDS];

async function main() {
  const db = await createBenchDatabase('atende_bench_msg');
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

  try {
    const [tenant] = await ds.query(`INSERT INTO tenants (name) VALUES ('Bench mensagens') RETURNING id`);
    const email = `bench-msg-${randomBytes(3).toString('hex')}@example.com`;
    const password = `Bench-${randomBytes(4).toString('hex')}!1`;
    // An agent (profile user) with the ticket assigned: the visibility rule runs its full path.
    const [user] = await ds.query(
      `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Agente', $2, $3, 'user') RETURNING id`,
      [tenant.id, email, await hashPassword(password)],
    );
    await ds.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user.id, tenant.id]);

    const fillStarted = performance.now();
    await ds.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1, 'Contato ' || g, '55119' || lpad(g::text, 8, '0') FROM generate_series(0, $2) g`,
      [tenant.id, OTHER_TICKETS],
    );
    await ds.query(
      `INSERT INTO tickets ("tenantId", "contactId", status, "userId", protocol)
       SELECT $1, c.id, 'open', CASE WHEN c.number IN ('5511900000000', '5511900000001') THEN $2::int END, 'B' || c.id
         FROM contacts c WHERE c."tenantId" = $1`,
      [tenant.id, user.id],
    );
    const [main] = await ds.query(
      `SELECT t.id, t."contactId" FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE c.number = '5511900000000' AND t."tenantId" = $1`,
      [tenant.id],
    );
    const [quiet] = await ds.query(
      `SELECT t.id, t."contactId" FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE c.number = '5511900000001' AND t."tenantId" = $1`,
      [tenant.id],
    );
    await ds.query(`UPDATE tickets SET "userId" = $1 WHERE id = $2`, [user.id, quiet.id]);
    await ds.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status, ack, read, timestamp, "createdAt", "updatedAt")
       SELECT $1, $2, $3, 'conversa antiga ' || g, g % 2 = 0, 'received', 0, true, 1600000000 + g, timestamptz '2023-01-01' + g * interval '1 second', now()
         FROM generate_series(1, ${QUIET_MESSAGES}) g`,
      [tenant.id, quiet.id, quiet.contactId],
    );
    const total = TICKET_MESSAGES + OTHER_MESSAGES;
    const every = Math.round(total / TICKET_MESSAGES); // every 11th message is the benchmarked ticket's
    // One statement, in chunks so the WAL and the GIN index keep up: message g belongs to the
    // benchmarked ticket when g % every = 0, else to one of the others, so ids interleave.
    const CHUNK = 100_000;
    for (let from = 1; from <= total; from += CHUNK) {
      await ds.query(
        `WITH others AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg("contactId" ORDER BY id) AS contacts FROM tickets WHERE "tenantId" = $1 AND id <> $2 AND id <> $7)
         INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status, ack, read, timestamp, "createdAt", "updatedAt")
         SELECT $1,
                CASE WHEN g % $5 = 0 THEN $2 ELSE o.ids[1 + (g % array_length(o.ids, 1))] END,
                CASE WHEN g % $5 = 0 THEN $3 ELSE o.contacts[1 + (g % array_length(o.ids, 1))] END,
                ($6::text[])[1 + g % array_length($6::text[], 1)] || ' ' || g || ' ' || ($6::text[])[1 + (g / 7) % array_length($6::text[], 1)],
                g % 2 = 0,
                CASE WHEN g % 2 = 0 THEN 'read' ELSE 'received' END,
                CASE WHEN g % 2 = 0 THEN 3 ELSE 0 END,
                true,
                1700000000 + g,
                timestamptz '2024-01-01' + g * interval '1 second',
                timestamptz '2024-01-01' + g * interval '1 second'
           FROM generate_series($4::int, LEAST($4::int + ${CHUNK - 1}, ${total})) g, others o`,
        [tenant.id, main.id, main.contactId, from, every, WORDS, quiet.id],
      );
    }
    // Quotes on some messages of the ticket, as replies have.
    await ds.query(
      `UPDATE messages m SET "quotedMsgId" = m.id - ${every * 3} WHERE m."ticketId" = $1 AND m.id % 10 = 0 AND m.id > ${every * 3}`,
      [main.id],
    );
    await ds.query(`VACUUM ANALYZE messages`);
    await ds.query(`ANALYZE tickets`);
    const [{ inTicket }] = await ds.query(`SELECT count(*)::int AS "inTicket" FROM messages WHERE "ticketId" = $1`, [main.id]);
    const [{ inTenant }] = await ds.query(`SELECT count(*)::int AS "inTenant" FROM messages WHERE "tenantId" = $1`, [tenant.id]);
    const fillSeconds = (performance.now() - fillStarted) / 1000;

    const login = await fetch(`${server.url}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await loginBody(server.url, { email, password })),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };

    const [deep] = await ds.query(
      `SELECT id FROM messages WHERE "ticketId" = $1 ORDER BY id DESC OFFSET ${DEEP_PAGES * MESSAGE_PAGE_SIZE - 1} LIMIT 1`,
      [main.id],
    );
    const get = async (query: string, ticketId = main.id) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/messages/${ticketId}${query}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { messages: unknown[] };
      const ms = performance.now() - started;
      if (res.status !== 200 || body.messages.length !== MESSAGE_PAGE_SIZE)
        throw new Error(`bad answer ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return ms;
    };
    const run = async (query: string, n = REQUESTS, ticketId = main.id) => {
      for (let i = 0; i < WARMUP; i++) await get(query, ticketId);
      const samples: number[] = [];
      for (let i = 0; i < n; i++) samples.push(await get(query, ticketId));
      return stats(samples);
    };
    const explain = async (sql: string, params: unknown[]) => {
      const rows: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      return rows.map((r) => r['QUERY PLAN']);
    };
    // The obvious single query, for contrast: fine for a busy ticket, a full walk for a quiet one.
    const naive = `${MESSAGE_SELECT} WHERE m."ticketId" = $1 AND m."tenantId" = $2 AND m.status <> 'canceled' ORDER BY m.id DESC LIMIT ${MESSAGE_PAGE_SIZE + 1}`;

    // What any authenticated request costs on this machine now (auth query, routing, JSON): the
    // floor under the numbers below, which the machine's load moves as much as the query does.
    const baselineSamples: number[] = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const started = performance.now();
      const res = await fetch(`${server.url}/queue`, { headers: { authorization: `Bearer ${token}` } });
      await res.json();
      if (i >= WARMUP) baselineSamples.push(performance.now() - started);
    }
    const firstPage = await run('');
    const deepKeyset = await run(`?before=${deep.id}`);
    const deepOffset = await run(`?pageNumber=${DEEP_PAGES + 1}`, Math.min(REQUESTS, 50));
    const quietFirstPage = await run('', REQUESTS, quiet.id);
    console.log(
      JSON.stringify(
        {
          messagesInTicket: inTicket,
          messagesInTenant: inTenant,
          fillSeconds: Number(fillSeconds.toFixed(1)),
          pageSize: MESSAGE_PAGE_SIZE,
          jobs: server.deps.jobs.driver,
          authOnlyBaseline: { path: 'GET /queue', ...stats(baselineSamples) },
          firstPage,
          deepPageKeyset: { pagesBack: DEEP_PAGES, before: Number(deep.id), ...deepKeyset },
          deepPageOffset: { pageNumber: DEEP_PAGES + 1, ...deepOffset },
          quietTicketFirstPage: { messagesInTicket: QUIET_MESSAGES, newerMessagesInTenant: total, ...quietFirstPage },
          plans: {
            firstPage: await explain(threadPageSql(false, 1), [main.id, tenant.id]),
            deepPageKeyset: await explain(threadPageSql(true, 1), [main.id, tenant.id, deep.id]),
            deepPageOffset: await explain(threadPageSql(false, DEEP_PAGES + 1), [main.id, tenant.id]),
            quietTicketFirstPage: await explain(threadPageSql(false, 1), [quiet.id, tenant.id]),
            quietTicketNaiveSingleQuery: await explain(naive, [quiet.id, tenant.id]),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await server.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
