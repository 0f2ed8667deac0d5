import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';

// electron-vite bundles this file before loading it and rewrites import.meta.url (not
// import.meta.dirname) to this file's real location.
const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { '@shared': path.resolve(root, 'shared') };

/**
 * Desktop build: out/main (ESM, matches package.json "type": "module" and "main"),
 * out/preload (CommonJS: Electron cannot load an ES module as a sandboxed preload) and
 * out/renderer (the same React app the server ships as the web app).
 *
 * Main and preload bundle their npm dependencies instead of leaving them in node_modules: the
 * root package.json also lists the server's dependencies, and electron-builder.yml keeps
 * node_modules out of the installer so none of the server's packages ship to agents' machines.
 * A native module cannot be bundled: the local cache's SQLite (better-sqlite3-multiple-ciphers)
 * stays external and ships in the staged app's own node_modules (scripts/desktop-package.mjs,
 * DESKTOP_RUNTIME_DEPENDENCIES), rebuilt for Electron there.
 */
const NATIVE_EXTERNALS = ['better-sqlite3-multiple-ciphers'];
export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: path.resolve(root, 'desktop/main/index.ts') },
        external: NATIVE_EXTERNALS,
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron' (and a few polyfilled modules), so
      // everything else must be inside this one file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: path.resolve(root, 'desktop/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    // Same transform settings as the web build (desktop/renderer/vite.config.ts): one React app.
    root: path.resolve(root, 'desktop/renderer'),
    base: './',
    resolve: { alias },
    oxc: { jsx: { runtime: 'automatic' } },
    build: {
      outDir: path.resolve(root, 'out/renderer'),
      emptyOutDir: true,
      rolldownOptions: {
        input: { index: path.resolve(root, 'desktop/renderer/index.html') },
        // The web build's zod chunk (desktop/renderer/vite.config.ts): zod and its jitless setting travel together,
        // so no chunk builds a schema before the eval probe is off (the console's CSP forbids eval too).
        output: {
          codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]app[\\/]zod-without-eval\.ts$/ }] },
        },
      },
    },
  },
});
