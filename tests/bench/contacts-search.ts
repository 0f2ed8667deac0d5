/**
 * Contact search benchmark (issue #11, section 6). Not a test: prints JSON lines.
 *
 *   npm run bench -- contacts-search
 *   npx tsx tests/bench/contacts-search.ts [contactsInBigTenant] [requests] [kinds,...]   (default 1000000 200, all)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process and seeds one tenant with 1,000,000 contacts
 * (Brazilian first and last names with their accents, a third of them with a made-up nickname,
 * half with an e-mail, every one with a mobile number) and four tenants with 20,000 each, with
 * INSERT ... SELECT generate_series (the trigram indexes are dropped during the load and built
 * after it, as a restore would). Then, for each search fragment (3-letter name fragments from
 * common to rare, accent fragments typed with and without accents, number fragments typed bare
 * and formatted, e-mail fragments, a 2-letter fragment):
 * - GET /contacts?searchParam=... (first page, 20, with count) through HTTP at concurrency 1 and
 *   10: p50/p95/p99, throughput, and CPU per request of this process (server and client: they
 *   share it) and of the PostgreSQL backends of the bench database (from /proc);
 * - the same search through ContactsService.list (no HTTP) and the previous query (ILIKE on name,
 *   e-mail and number, page and full count side by side), at concurrency 1: the ratio old/new;
 * - EXPLAIN (ANALYZE, BUFFERS) of the page and count statements.
 * The machine's load average is printed before and after (2 cores shared with other work: read
 * the numbers against it). Targets: p95 < 30 ms for a 3-letter fragment, < 15 ms for a number.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContactListResponse } from '../../shared/schemas/contacts';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { CONTACT_ORDER, CONTACT_SELECT } from '../../server/src/modules/contacts/contact-list.query';
import { ContactsService } from '../../server/src/modules/contacts/contacts.service';
import { startServer } from '../../server/src/server';
import { loginBody } from '../helpers/captcha';
import { createBenchDatabase, latencyStats } from './support/bench-support';

const BIG = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 1_000_000;
const REQUESTS = Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 200;
/** Optional comma-separated fragment kinds to run (all by default). */
const ONLY = (process.argv[4] ?? '').split(',').filter(Boolean);
const SMALL = 20_000;
const SMALL_TENANTS = 4;
const WARMUP = 10;
/** The previous query reads the whole tenant: a few runs are enough for its ratio. */
const OLD_RUNS = 5;
const PAGE_SIZE = 20;

const FIRST = [
  'João',
  'José',
  'Maria',
  'Ana',
  'Antônio',
  'Francisco',
  'Carlos',
  'Paulo',
  'Pedro',
  'Lucas',
  'Luiz',
  'Marcos',
  'Luís',
  'Gabriel',
  'Rafael',
  'Daniel',
  'Marcelo',
  'Bruno',
  'Eduardo',
  'Felipe',
  'Raimundo',
  'Rodrigo',
  'Manoel',
  'Mateus',
  'André',
  'Fernando',
  'Fábio',
  'Leonardo',
  'Gustavo',
  'Guilherme',
  'Márcio',
  'Júlio',
  'Sérgio',
  'Vitória',
  'Letícia',
  'Júlia',
  'Beatriz',
  'Luíza',
  'Conceição',
  'Cecília',
  'Inês',
  'Lúcia',
  'Mônica',
  'Patrícia',
  'Fernanda',
  'Adriana',
  'Juliana',
  'Camila',
  'Amanda',
  'Bruna',
  'Jéssica',
  'Larissa',
  'Aline',
  'Sandra',
  'Vanessa',
  'Débora',
  'Simone',
  'Tânia',
  'Gisele',
  'Érica',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Conceição',
  'Brandão',
  'Magalhães',
  'Simões',
  'Guimarães',
  'Assunção',
  'Falcão',
  'Leão',
  'Calixto',
  'Peixoto',
  'Queiroz',
  'Xavier',
  'Zanetti',
  'Yamamoto',
];
/** Nicknames and shop names made of three syllables: the long tail of real contact lists. */
const SYLLABLES = [
  'ba',
  'be',
  'bi',
  'bo',
  'ca',
  'ce',
  'co',
  'cu',
  'da',
  'de',
  'di',
  'do',
  'fa',
  'fe',
  'ga',
  'go',
  'ja',
  'ju',
  'ka',
  'ki',
  'la',
  'le',
  'li',
  'lo',
  'ma',
  'mi',
  'mo',
  'na',
  'ne',
  'no',
  'pa',
  'pe',
  'ra',
  're',
  'ri',
  'sa',
  'ta',
  'to',
  'va',
  'zu',
];
const DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.com.br', 'outlook.com', 'uol.com.br', 'empresa.com.br'];

const FRAGMENTS: { kind: string; q: string; target_p95_ms?: number }[] = [
  { kind: 'name3_common', q: 'mar', target_p95_ms: 30 },
  { kind: 'name3_medium', q: 'gui', target_p95_ms: 30 },
  { kind: 'name3_rare', q: 'zuk', target_p95_ms: 30 },
  { kind: 'name3_nickname', q: 'kil', target_p95_ms: 30 },
  { kind: 'accent_typed', q: 'joão' },
  { kind: 'accent_folded', q: 'conceicao' },
  { kind: 'accent_rare', q: 'assunçao ya' },
  { kind: 'number_bare', q: '98765', target_p95_ms: 15 },
  { kind: 'number_formatted', q: '(21) 9 1234', target_p95_ms: 15 },
  { kind: 'number_long', q: '5511912345', target_p95_ms: 15 },
  { kind: 'email', q: 'silva12@' },
  { kind: 'email_domain', q: '@uol.com' },
  { kind: 'name2', q: 'jo' },
];

type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

/** Contacts of one tenant, generated in SQL from the lists above (deterministic per row number). */
async function seedContacts(q: Query, tenantId: number, count: number) {
  await q(
    `INSERT INTO contacts ("tenantId", name, number, email)
     SELECT $1::int,
            fn || ' ' || l1 || CASE WHEN h3 % 10 < 4 THEN ' ' || l2 ELSE '' END
               || CASE WHEN h4 % 3 = 0 THEN ' ' || initcap(s1 || s2 || s3) ELSE '' END,
            '55' || (11 + h2 % 89)::text || '9' || lpad(((g::bigint * 48271) % 100000000)::text, 8, '0'),
            CASE WHEN h3 % 2 = 0
                 THEN lower(public.immutable_unaccent(fn)) || '.' || lower(public.immutable_unaccent(l1)) || (g % 1000)::text
                      || '@' || ($5::text[])[1 + h1 % array_length($5::text[], 1)] END
       FROM (SELECT g,
                    ($2::text[])[1 + h1 % array_length($2::text[], 1)] AS fn,
                    ($3::text[])[1 + h2 % array_length($3::text[], 1)] AS l1,
                    ($3::text[])[1 + h3 % array_length($3::text[], 1)] AS l2,
                    ($4::text[])[1 + h4 % 40] AS s1, ($4::text[])[1 + (h4 / 40) % 40] AS s2, ($4::text[])[1 + (h4 / 1600) % 40] AS s3,
                    h1, h2, h3, h4
               FROM (SELECT g, hashint4(g) & 2147483647 AS h1, hashint4(g + 1000000000) & 2147483647 AS h2,
                            hashint4(-g) & 2147483647 AS h3, hashint4(g + 2000000000) & 2147483647 AS h4
                       FROM generate_series(1, $6::int) g) h) x`,
    [tenantId, FIRST, LAST, SYLLABLES, DOMAINS, count],
  );
}

async function seedTenant(q: Query, name: string, contacts: number, password: string) {
  const [tenant] = await q(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name]);
  const t = tenant.id as number;
  const email = `admin-${t}@bench.example.com`;
  await q(`INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Admin', $2, $3, 'admin')`, [
    t,
    email,
    await hashPassword(password),
  ]);
  await q(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [t]);
  await seedContacts(q, t, contacts);
  return { tenantId: t, email };
}

/** utime + stime (ms) of processes, read from /proc (Linux; PostgreSQL runs on this machine). */
function cpuMsOf(pids: number[]): Map<number, number> {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // The backend ended: its time since the last reading is lost (rare: the pool keeps them).
    }
  }
  return out;
}

async function main() {
  const db = await createBenchDatabase();
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
  const load = () => os.loadavg().map((n) => Number(n.toFixed(2)));
  console.log(JSON.stringify({ machine: { cpus: os.cpus().length, loadavg_1_5_15: load(), database: db.name } }));

  try {
    const password = `Bench-${randomBytes(4).toString('hex')}!1`;
    const seedStarted = performance.now();
    // The search indexes are built once after the load (as a restore does) instead of row by row.
    const searchIndexes: { indexname: string; indexdef: string }[] = await q(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'contacts' AND indexname LIKE 'contacts\\_search\\_%'`,
    );
    for (const ix of searchIndexes) await q(`DROP INDEX ${ix.indexname}`);
    const big = await seedTenant(q, 'Bench big', BIG, password);
    for (let i = 1; i <= SMALL_TENANTS; i++) await seedTenant(q, `Bench ${i}`, SMALL, password);
    const loaded = performance.now();
    const runner = ds.createQueryRunner();
    try {
      await runner.query(`SET maintenance_work_mem = '512MB'`);
      for (const ix of searchIndexes) await runner.query(ix.indexdef);
      await runner.query(`VACUUM ANALYZE contacts`);
    } finally {
      await runner.release();
    }
    const [{ contacts, size }] = await q(
      `SELECT count(*)::int AS contacts, pg_size_pretty(pg_total_relation_size('contacts')) AS size FROM contacts`,
    );
    const indexSizes = await q(
      `SELECT indexname AS index, pg_size_pretty(pg_relation_size(indexname::regclass)) AS size
         FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`,
    );
    console.log(
      JSON.stringify({
        seeded: {
          contacts,
          bigTenantContacts: BIG,
          otherTenants: SMALL_TENANTS,
          loadSeconds: Number(((loaded - seedStarted) / 1000).toFixed(1)),
          indexSeconds: Number(((performance.now() - loaded) / 1000).toFixed(1)),
          tableWithIndexes: size,
          indexes: Object.fromEntries(indexSizes.map((r) => [r.index, r.size])),
        },
      }),
    );

    const login = async () => {
      const res = await fetch(`${server.url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await loginBody(server.url, { email: big.email, password })),
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { token: string; userId: number; profile: 'admin' };
    };
    // The access token is short-lived and a full run lasts longer: a new login per fragment.
    let session = await login();
    const auth = {
      tenantId: big.tenantId,
      userId: session.userId,
      profile: session.profile,
      email: big.email,
      sessionId: 'bench',
    };
    const service = new ContactsService(server.deps);

    const backendPids = async () =>
      ((await q(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [db.name])) as { pid: number }[]).map((r) => r.pid);

    /** `runs` calls of `fn`, `concurrency` at a time: latency stats, throughput, CPU per call. */
    const measure = async (runs: number, concurrency: number, fn: () => Promise<unknown>) => {
      for (let i = 0; i < Math.min(WARMUP, runs); i++) await fn();
      const pidsBefore = await backendPids();
      const pgBefore = cpuMsOf(pidsBefore);
      const cpuBefore = process.cpuUsage();
      const times: number[] = [];
      let started = 0;
      const wallStart = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (started < runs) {
            started++;
            const t0 = performance.now();
            await fn();
            times.push(performance.now() - t0);
          }
        }),
      );
      const wallMs = performance.now() - wallStart;
      const cpu = process.cpuUsage(cpuBefore);
      const pgAfter = cpuMsOf([...new Set([...pidsBefore, ...(await backendPids())])]);
      let pgMs = 0;
      for (const [pid, ms] of pgAfter) pgMs += ms - (pgBefore.get(pid) ?? 0);
      return {
        ...latencyStats(times),
        concurrency,
        per_second: Number(((runs / wallMs) * 1000).toFixed(1)),
        node_cpu_ms_per_op: Number(((cpu.user + cpu.system) / 1000 / runs).toFixed(2)),
        pg_cpu_ms_per_op: Number((pgMs / runs).toFixed(2)),
      };
    };

    const http = async (term: string) => {
      const r = await fetch(`${server.url}/contacts?searchParam=${encodeURIComponent(term)}&pageSize=${PAGE_SIZE}`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      const body = (await r.json()) as ContactListResponse;
      if (r.status !== 200) throw new Error(`GET /contacts failed: ${r.status} ${JSON.stringify(body)}`);
      return body;
    };

    // The previous query, kept here as the baseline: ILIKE on the three columns, page and full count.
    const oldSearch = async (term: string) => {
      const params: unknown[] = [big.tenantId, `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`];
      const matches = [`c.name ILIKE $2`, `c.email ILIKE $2`, `c.number ILIKE $2`];
      const digits = term.replace(/\D/g, '');
      if (digits.length >= 2 && digits !== term) {
        params.push(`%${digits}%`);
        matches.push(`c.number LIKE $3`);
      }
      const where = `WHERE c."tenantId" = $1 AND (${matches.join(' OR ')})`;
      const [rows, count] = await Promise.all([
        q(`${CONTACT_SELECT} ${where} ${CONTACT_ORDER} LIMIT ${PAGE_SIZE} OFFSET 0`, params),
        q(`SELECT count(*)::int AS count FROM contacts c ${where}`, params),
      ]);
      return { rows: rows.length, count: count[0].count as number };
    };

    // Reference under the same machine load: the list without a search (first page, count bounded).
    const plain = await measure(REQUESTS, 1, () => http(''));
    console.log(JSON.stringify({ reference: 'GET /contacts (no search)', ...plain }));

    for (const f of FRAGMENTS.filter((x) => !ONLY.length || ONLY.includes(x.kind))) {
      session = await login();
      const first = await http(f.q);
      const old = await oldSearch(f.q);
      const c1 = await measure(REQUESTS, 1, () => http(f.q));
      const c10 = await measure(REQUESTS, 10, () => http(f.q));
      const direct = await measure(Math.max(OLD_RUNS * 4, 40), 1, () =>
        service.list(auth, { searchParam: f.q, pageNumber: 1, pageSize: PAGE_SIZE }),
      );
      const previous = await measure(OLD_RUNS, 1, () => oldSearch(f.q));
      console.log(
        JSON.stringify({
          fragment: f.kind,
          q: f.q,
          // The old query had no accent folding and read digits inside words as a number.
          matches_old_query: old.count,
          count: first.count,
          countEstimated: first.countEstimated,
          page: first.contacts.length,
          sample: first.contacts.slice(0, 3).map((c) => c.name),
          http_c1: c1,
          http_c10: c10,
          service_c1: direct,
          old_query_c1: previous,
          old_over_new_p50: Number((previous.p50_ms / direct.p50_ms).toFixed(1)),
          old_over_new_pg_cpu:
            direct.pg_cpu_ms_per_op > 0 ? Number((previous.pg_cpu_ms_per_op / direct.pg_cpu_ms_per_op).toFixed(1)) : null,
          target_p95_ms: f.target_p95_ms,
          meets_target: f.target_p95_ms === undefined ? undefined : c1.p95_ms < f.target_p95_ms,
          loadavg_1_5_15: load(),
        }),
      );

      // The statements the service runs for this search, each explained with its real work.
      const captured: [string, unknown[]][] = [];
      const query = ds.query.bind(ds);
      ds.query = ((sql: string, params?: unknown[]) => {
        captured.push([sql, params ?? []]);
        return query(sql, params);
      }) as typeof ds.query;
      try {
        await service.list(auth, { searchParam: f.q, pageNumber: 1, pageSize: PAGE_SIZE });
      } finally {
        ds.query = query;
      }
      for (const [i, [sql, params]] of captured.entries()) {
        if (sql.startsWith('EXPLAIN')) {
          console.log(
            JSON.stringify({ fragment: f.kind, statement: i + 1, explain: 'planner estimate of the count (EXPLAIN only)' }),
          );
          continue;
        }
        const plan = (await q(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
        console.log(JSON.stringify({ fragment: f.kind, statement: i + 1, explain: plan }));
      }
    }
    console.log(JSON.stringify({ machine: { loadavg_1_5_15: load() } }));
  } finally {
    await server.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
