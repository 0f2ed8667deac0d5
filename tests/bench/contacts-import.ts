/**
 * Contacts import benchmark (issue "CRM base", item 1). Not a test: prints one JSON line per size.
 *
 *   npx tsx tests/bench/contacts-import.ts [sizes...]       (default 10000 50000 100000)
 *   node --expose-gc --import tsx tests/bench/contacts-import.ts   (adds peak_live_heap_mb)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database, starts the real server in this process (migrations included), and for each size
 * writes a template CSV to disk, uploads it through POST /contacts/upload, polls
 * GET /contacts/upload/:id until done, and samples this process's RSS and heap meanwhile.
 * REDIS_URL, when set, selects the Bull job driver as in production. Target: >= 5,000 rows/s at
 * 100k rows, memory flat as the file grows.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createWriteStream, openAsBlob, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { startServer } from '../../server/src/server';
import { createBenchDatabase } from './support/bench-support';
import { loginBody } from '../helpers/captcha';

const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const sizes = SIZES.length ? SIZES : [10_000, 50_000, 100_000];
const SAMPLE_MS = 50;
const LIVE_SAMPLE_MS = 1000;
const MB = 1024 * 1024;

const FIRST = ['Ana', 'Bruno', 'Carla', 'Davi', 'Eva', 'Fábio', 'Gil', 'Helena', 'Ivo', 'Júlia'];
const LAST = ['Souza', 'Lima', 'Dias', 'Rocha', 'Nunes', 'Melo', 'Costa', 'Reis', 'Prado', 'Araújo'];

/** A valid CPF from 9 digits (check digits computed). */
function cpf(seed: number): string {
  const d = String(100_000_000 + (seed % 800_000_000))
    .slice(0, 9)
    .split('')
    .map(Number);
  const digit = (digits: number[]) => {
    const sum = digits.reduce((acc, x, i) => acc + x * (digits.length + 1 - i), 0) % 11;
    return sum < 2 ? 0 : 11 - sum;
  };
  const d1 = digit(d);
  const d2 = digit([...d, d1]);
  const s = [...d, d1, d2].join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** The template's columns, semicolon separated, every row valid and with a distinct number. */
async function writeCsv(file: string, rows: number, offset: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('\uFEFFNome;Número;E-mail;CPF;DataNascimento;PrimeiroNome;ÚltimoNome;Empresa\n');
  for (let i = 0; i < rows; i++) {
    const n = offset + i;
    const first = FIRST[n % FIRST.length];
    const last = LAST[Math.floor(n / FIRST.length) % LAST.length];
    const subscriber = String(n).padStart(8, '0');
    const line = `${first} ${last} ${n};(11) 9${subscriber.slice(0, 4)}-${subscriber.slice(4)};${first.toLowerCase()}.${n}@exemplo.com.br;${cpf(n)};${String((n % 28) + 1).padStart(2, '0')}/${String((n % 12) + 1).padStart(2, '0')}/${1950 + (n % 50)};${first};${last};Empresa ${n % 100}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
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

  try {
    for (const [index, rows] of sizes.entries()) {
      // A tenant per size: every row of every file is a new contact.
      const [tenant] = await ds.query(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [`Bench ${rows}`]);
      const email = `bench-${rows}-${randomBytes(3).toString('hex')}@example.com`;
      const password = `Bench-${randomBytes(4).toString('hex')}!1`;
      const [user] = await ds.query(
        `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, 'Bench', $2, $3, 'admin') RETURNING id`,
        [tenant.id, email, await hashPassword(password)],
      );
      await ds.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user.id, tenant.id]);
      const login = await fetch(`${server.url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await loginBody(server.url, { email, password })),
      });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
      const { token } = (await login.json()) as { token: string };

      const file = path.join(dataDir, `contacts-${rows}.csv`);
      await writeCsv(file, rows, index * 1_000_000);
      const fileMb = statSync(file).size / MB;

      (globalThis as { gc?: () => void }).gc?.();
      const base = process.memoryUsage();
      let peakRss = base.rss;
      let peakHeap = base.heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, SAMPLE_MS);
      // With --expose-gc: the heap that is really alive (after a full GC) once a second, which tells
      // memory held by the import from garbage the collector has not reclaimed yet.
      const gc = (globalThis as { gc?: () => void }).gc;
      let peakLive = 0;
      const liveSampler = gc
        ? setInterval(() => {
            gc();
            peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
          }, LIVE_SAMPLE_MS)
        : undefined;

      const started = performance.now();
      const form = new FormData();
      // openAsBlob reads the file lazily: the client does not hold it in memory either.
      form.append('file', await openAsBlob(file), `contacts-${rows}.csv`);
      const upload = await fetch(`${server.url}/contacts/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (upload.status !== 202) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
      const { importId } = (await upload.json()) as { importId: string };
      const uploadedAt = performance.now();

      let result: Record<string, unknown>;
      for (;;) {
        await new Promise((r) => setTimeout(r, 100));
        const res = await fetch(`${server.url}/contacts/upload/${importId}`, { headers: { authorization: `Bearer ${token}` } });
        result = (await res.json()) as Record<string, unknown>;
        if (result.status === 'done' || result.status === 'failed') break;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (liveSampler) clearInterval(liveSampler);

      console.log(
        JSON.stringify({
          rows,
          file_mb: Number(fileMb.toFixed(1)),
          seconds: Number(seconds.toFixed(2)),
          rows_per_s: Math.round(rows / seconds),
          upload_seconds: Number(((uploadedAt - started) / 1000).toFixed(2)),
          peak_rss_mb: Math.round(peakRss / MB),
          peak_heap_mb: Math.round(peakHeap / MB),
          base_rss_mb: Math.round(base.rss / MB),
          base_heap_mb: Math.round(base.heapUsed / MB),
          ...(gc ? { peak_live_heap_mb: Math.round(peakLive / MB) } : {}),
          status: result.status,
          created: result.created,
          rejected: result.rejected,
          driver: server.deps.jobs.driver,
        }),
      );
      rmSync(file, { force: true });
      if (result.status !== 'done' || result.created !== rows)
        throw new Error(`import did not create every row: ${JSON.stringify(result).slice(0, 500)}`);
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
