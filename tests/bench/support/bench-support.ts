import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/** What the benchmarks share: a throw-away database and data folder, and latency statistics. */

/** Portuguese words the benchmarks build message bodies from. */
export const MESSAGE_WORDS = [
  'pedido',
  'entrega',
  'boleto',
  'obrigado',
  'olá',
  'bom dia',
  'quando',
  'chega',
  'nota fiscal',
  'endereço',
  'pagamento',
  'pix',
] as const;

export const BENCH_BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  name: string;
  /** Connection string of the new database. */
  url: string;
  /** An empty data folder for the server (media, secrets). */
  dataDir: string;
  /** Drops the database (ending its connections) and removes the data folder; BENCH_KEEP=1 keeps the database (named on stderr) to look into it. */
  drop(): Promise<void>;
}

/** A fresh database on the DATABASE_URL server (the benchmarks never touch another one). */
export async function createBenchDatabase(prefix = 'atende_bench'): Promise<BenchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: BENCH_BASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_BASE_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-bench-'));
  return {
    name,
    url: url.toString(),
    dataDir,
    async drop() {
      if (process.env.BENCH_KEEP === '1') {
        process.stderr.write(`kept database ${name} (BENCH_KEEP=1)\n`);
        rmSync(dataDir, { recursive: true, force: true });
        return;
      }
      const c = new Client({ connectionString: BENCH_BASE_URL });
      await c.connect();
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        name,
      ]);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The p-th percentile (nearest rank) of ascending samples, to 2 decimals. */
export function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Number(sorted[i].toFixed(2));
}

/** p50/p95/p99, mean and max (ms) of latency samples. */
export function latencyStats(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    requests: samples.length,
    p50_ms: percentile(sorted, 50),
    p95_ms: percentile(sorted, 95),
    p99_ms: percentile(sorted, 99),
    mean_ms: Number((samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(2)),
    max_ms: Number(sorted[sorted.length - 1].toFixed(2)),
  };
}

/** The tenant a benchmark drives: an admin who can log in, and a CONNECTED default WABA channel on the fake Cloud API. */
export interface BenchTenant {
  tenantId: number;
  userId: number;
  email: string;
  password: string;
  channelId: number;
}

/** Inserts a tenant, its admin and its default WABA channel (phone number id and app secret as the fake and the webhooks use them). */
export async function seedBenchTenant(
  db: Client,
  opts: { tenantName: string; phoneNumberId: string; businessAccountId: string; appSecret: string },
): Promise<BenchTenant> {
  const { hashPassword } = await import('../../../server/src/core/passwords');
  const [tenant] = (await db.query(`INSERT INTO tenants (name, "maxConnections") VALUES ($1, 10) RETURNING id`, [opts.tenantName])).rows;
  const email = `bench-${randomBytes(3).toString('hex')}@example.com`;
  const password = `Bench-${randomBytes(4).toString('hex')}!1`;
  const [user] = (
    await db.query(
      `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Bench', $2, $3, 'admin') RETURNING id`,
      [tenant.id, email, await hashPassword(password)],
    )
  ).rows;
  await db.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user.id, tenant.id]);
  const [channel] = (
    await db.query(
      `INSERT INTO channels ("tenantId", name, type, status, "isDefault", "providerConfig", secrets)
       VALUES ($1, 'WABA bench', 'waba', 'CONNECTED', true, $2, $3) RETURNING id`,
      [
        tenant.id,
        JSON.stringify({ wabaPhoneNumberId: opts.phoneNumberId, wabaBusinessAccountId: opts.businessAccountId, wabaApiVersion: 'v21.0' }),
        JSON.stringify({ wabaManagerToken: 'EAAG-bench', wabaAppSecret: opts.appSecret, wabaVerifyToken: 'bench-verify' }),
      ],
    )
  ).rows;
  return { tenantId: tenant.id, userId: user.id, email, password, channelId: channel.id };
}

/**
 * The server of a benchmark's child process, as production runs it, on the database, data folder
 * and fake Cloud API the parent passes (BENCH_DB_URL, BENCH_DATA_DIR, BENCH_GRAPH_URL).
 */
export async function startBenchServer() {
  const { loadConfig } = await import('../../../server/src/config');
  const { startServer } = await import('../../../server/src/server');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DB_URL!,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789',
    WEB_DIST: path.join(dataDir, 'no-web'),
    WABA_GRAPH_BASE_URL: process.env.BENCH_GRAPH_URL!,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  return startServer(config, { seed: false, redisPrefix: `bench-${randomBytes(4).toString('hex')}` });
}

/**
 * A benchmark's entry: with `--serve` it is the server child (a failure ends the process at once),
 * otherwise the driver (a failure sets the exit code and lets the children be stopped).
 */
export function runBench(main: () => Promise<void>, serve: () => Promise<void>): void {
  if (process.argv.includes('--serve')) {
    serve().catch((err) => {
      console.error(err);
      process.exit(1);
    });
  } else {
    main().catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
  }
}
