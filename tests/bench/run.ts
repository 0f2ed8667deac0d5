/**
 * `npm run bench`: runs every benchmark of tests/bench one after the other, each in its own
 * process (so one's memory does not colour the next), and prints their JSON lines as they come.
 * Benchmarks need a PostgreSQL server (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test);
 * each creates and drops its own database. Pass names to run a subset: `npm run bench -- tickets-list`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2);
const selected = wanted.length ? all.filter((n) => wanted.includes(n)) : all;
if (selected.length === 0) {
  console.error(`no benchmark named ${wanted.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const name of selected) {
  console.log(`\n### ${name}`);
  const started = Date.now();
  const res = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(dir, `${name}.ts`)], {
    stdio: 'inherit',
    env: process.env,
  });
  console.log(`### ${name}: exit ${res.status} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
