#!/usr/bin/env node
/* global process, console -- a Node script */
/**
 * `npm start` runs this first: it builds the web app (npm run build:web) when out/web/index.html
 * is missing or older than any source under desktop/renderer or shared, and returns at once
 * otherwise, so a fresh clone serves a UI and a rebuilt one is never stale.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'out/web/index.html');
const sources = [path.join(root, 'desktop/renderer'), path.join(root, 'shared')];
const SKIP = new Set(['node_modules', '.git']);

/** Newest modification time under a directory (0 when it does not exist). */
function newestMtime(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(output).mtimeMs;
  } catch {
    return null;
  }
}

const built = builtAt();
const newestSource = Math.max(...sources.map(newestMtime));
if (built !== null && built >= newestSource) process.exit(0);

console.log(
  built === null
    ? 'Web app not built yet: building it (npm run build:web)...'
    : 'Web app sources changed: rebuilding (npm run build:web)...',
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('The web app build failed; see the output above.');
  process.exit(result.status ?? 1);
}
