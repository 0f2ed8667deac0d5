/* eslint-disable no-restricted-imports -- the Vite config runs in Node at build time; it is not renderer code. */
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Every module the entry (main.tsx) reaches through static imports: the code every start runs.
 * Filled at the end of the module graph's build (buildEnd), read by the 'app-start' chunk group
 * when the chunks are made. Without the group the bundler spread these modules over 35 small
 * chunks shared with the lazy screens, each its own request at start (6 at a time over HTTP/1.1;
 * issue #13, start-up).
 */
const startModules = new Set<string>();
const ICON_PATHS = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/](allPaths|generated[\\/][^\\/]+[\\/]paths)/;

function startModulesPlugin(): Plugin {
  return {
    name: 'start-modules',
    apply: 'build',
    buildEnd() {
      startModules.clear();
      const entry = [...this.getModuleIds()].find((id) => this.getModuleInfo(id)?.isEntry);
      const pending = entry ? [entry] : [];
      while (pending.length > 0) {
        const id = pending.pop()!;
        // Blueprint's icon barrel imports every icon path statically (allPaths, unused and
        // tree-shaken): the paths load on their own (app/icon-loader.ts).
        if (startModules.has(id) || ICON_PATHS.test(id)) continue;
        startModules.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
}

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
  plugins: [startModulesPlugin()],
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
              priority: 20,
            },
            {
              // What every start runs, in one chunk (see startModules).
              name: 'app-start',
              test: (id: string) => startModules.has(id),
              priority: 10,
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
