/* eslint-disable no-restricted-imports -- the Vite config runs in Node at build time; it is not renderer code. */
import path from 'node:path';
import { defineConfig } from 'vite';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Web build of the renderer (`npm run build:web`): the same React app the desktop console
 * loads, written to out/web and served by the server at `/`. Relative asset URLs (base './')
 * keep it working from any mount path and from file:// in Electron.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  resolve: { alias: { '@shared': path.join(repoRoot, 'shared') } },
  // Vite 8 transforms TSX itself (Oxc); React 17+ JSX runtime, no React import needed.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.join(repoRoot, 'out/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // zod and the module that turns its eval probe off (app/zod-without-eval.ts) in one
              // chunk, the configuration right after zod's own modules: every chunk that builds
              // or parses a schema imports this one, so the configuration runs before any parse
              // wherever the code splitting puts the schemas (a parse before it raises a CSP
              // violation: tests/e2e/csp.spec.ts).
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]app[\\/]zod-without-eval\.ts$/,
            },
          ],
        },
      },
      onwarn(warning, warn) {
        // React Router marks its modules "use client" for server components; meaningless in an SPA.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    // `vite --config desktop/renderer/vite.config.ts` against a local server on 8080.
    proxy: Object.fromEntries(
      [
        '/auth',
        '/users',
        '/usersIsOnline',
        '/password-reset',
        '/reset-password',
        '/publicSystemColors',
        '/plans',
        '/sync',
        '/queue',
        '/tags',
        '/teams',
        '/kanban',
        '/lanes',
        '/demands',
        '/fastreply',
        '/settings',
        '/tenants',
        '/whatsapp',
        '/socket.io',
      ].map((prefix) => [prefix, { target: 'http://127.0.0.1:8080', ws: prefix === '/socket.io', changeOrigin: false }]),
    ),
  },
});
