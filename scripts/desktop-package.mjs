#!/usr/bin/env node
/**
 * Builds the desktop installers (issue #15, installers): `npm run desktop:package`.
 *
 * The repository has one package.json for the server, the web app and the desktop, so its
 * dependencies are the server's. The installer must carry none of them, only what the main
 * process loads at run time that cannot be bundled: the native SQLite module of the local cache
 * (better-sqlite3-multiple-ciphers). So the app is staged in dist/desktop-app with a package.json
 * of its own (electron-builder's two-package.json layout): the three electron-vite bundles, and
 * that one dependency, which electron-builder installs and rebuilds for Electron's ABI there
 * (npmRebuild in electron-builder.yml), never in the repository's node_modules (whose Node build
 * the server and the tests need).
 *
 *   npm run desktop:package             stage, then electron-builder --publish never
 *   npm run desktop:package -- --stage  stage only (what CI can check without Electron)
 *
 * Without the Electron runtime (this project's machines cannot download it; see the README) the
 * packaging step says so and stops cleanly after staging.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Packages the main process loads from node_modules (native: not bundled by electron-vite). */
export const DESKTOP_RUNTIME_DEPENDENCIES = ['better-sqlite3-multiple-ciphers'];

/** The staged app's package.json: the root's identity, the runtime dependencies at their installed versions. */
export function desktopAppManifest(rootManifest, installedVersion) {
  return {
    name: 'atende-desktop',
    productName: 'Atende',
    version: rootManifest.version,
    description: 'Console desktop do Atende para agentes de atendimento.',
    author: 'Atende <suporte@atende.example>',
    license: rootManifest.license ?? 'UNLICENSED',
    private: true,
    type: 'module',
    main: rootManifest.main,
    dependencies: Object.fromEntries(DESKTOP_RUNTIME_DEPENDENCIES.map((name) => [name, installedVersion(name)])),
  };
}

function installedVersion(name) {
  const require = createRequire(path.join(root, 'package.json'));
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

export function stageDesktopApp(target = path.join(root, 'dist/desktop-app')) {
  const bundles = ['out/main', 'out/preload', 'out/renderer'];
  for (const dir of bundles) {
    if (!existsSync(path.join(root, dir))) throw new Error(`${dir} is missing: run \`npm run build\` first.`);
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const dir of bundles) cpSync(path.join(root, dir), path.join(target, dir), { recursive: true });
  const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(desktopAppManifest(rootManifest, installedVersion), null, 2)}\n`);
  return target;
}

function electronRuntimePresent() {
  return existsSync(path.join(root, 'node_modules/electron/dist')) || existsSync(path.join(root, 'node_modules/electron/path.txt'));
}

function main() {
  const target = stageDesktopApp();
  console.log(`staged the desktop app in ${path.relative(root, target)}`);
  if (process.argv.includes('--stage')) return;
  if (!electronRuntimePresent()) {
    console.log(
      'The Electron runtime is not installed here (it is downloaded by `npm run desktop:electron`, which this machine cannot reach): packaging skipped.',
    );
    return;
  }
  const result = spawnSync('npx', ['electron-builder', '--publish', process.env.DESKTOP_PUBLISH ?? 'never', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exitCode = result.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
