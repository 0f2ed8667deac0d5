/* eslint-disable no-restricted-imports -- the Vite config runs in Node at build time; it is not renderer code. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
/** What the start-up script (boot.ts) reaches: a small chunk of its own, loaded first. */
const bootModules = new Set<string>();
const ICON_PATHS = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/](allPaths|generated[\\/][^\\/]+[\\/]paths)/;

/** The dashboard's screen and charts: the chunks the start-up script preloads for /home. */
const HOME_MODULES = [/features[\\/]dashboard[\\/]dashboard-page\.tsx$/, /features[\\/]dashboard[\\/]charts[\\/]dashboard-charts\.tsx$/];

/**
 * The start-up script (boot.ts) is an entry of its own, loaded by index.html before the main
 * script: it runs as soon as its few kilobytes arrive, while the main script still downloads.
 * The page also names the dashboard's chunks (meta `home-chunks`), which the script preloads when
 * the app opens on /home: they arrive with the main script instead of after its start.
 */
function bootScriptPlugin(): Plugin {
  return {
    name: 'boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const boot = chunks.find((c) => c.isEntry && c.name === 'boot');
        if (!boot) return [];
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const atStart = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]));
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file) || atStart.has(file)) return;
          files.add(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        for (const chunk of chunks) {
          if (chunk.facadeModuleId && HOME_MODULES.some((re) => re.test(chunk.facadeModuleId!))) visit(chunk.fileName);
        }
        return [
          { tag: 'script', attrs: { type: 'module', crossorigin: true, src: `./${boot.fileName}` }, injectTo: 'head-prepend' },
          { tag: 'meta', attrs: { name: 'home-chunks', content: [...files].map((f) => `./${f}`).join(' ') }, injectTo: 'head' },
        ];
      },
    },
  };
}

/**
 * Each text file of the build also as .gz and .br beside it: the server (koa-static) sends the
 * compressed file to a browser that accepts it, a third of the bytes (the main script: 780 KB ->
 * 250 KB gzip, 230 KB brotli), without compressing on every request. Loopback hardly notices;
 * an office link does (issue #13, start-up).
 */
function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        // Quality 9: within 8% of the best (11) at a twentieth of its time.
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
      }
    },
  };
}

function startModulesPlugin(): Plugin {
  return {
    name: 'start-modules',
    apply: 'build',
    buildEnd() {
      const closure = (entry: string | undefined, into: Set<string>, skip: Set<string>) => {
        into.clear();
        const pending = entry ? [entry] : [];
        while (pending.length > 0) {
          const id = pending.pop()!;
          // Blueprint's icon barrel imports every icon path statically (allPaths, unused and
          // tree-shaken): the paths load on their own (app/icon-loader.ts).
          if (into.has(id) || skip.has(id) || ICON_PATHS.test(id)) continue;
          into.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const boot = entries.find((id) => /[\\/]boot\.ts$/.test(id));
      closure(boot, bootModules, new Set());
      // The main script's modules (index.html's entry), less those the start-up script brought.
      closure(
        entries.find((id) => id !== boot),
        startModules,
        bootModules,
      );
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
  plugins: [startModulesPlugin(), bootScriptPlugin(), precompressPlugin()],
  build: {
    outDir: path.join(repoRoot, 'out/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: { index: path.join(import.meta.dirname, 'index.html'), boot: path.join(import.meta.dirname, 'boot.ts') },
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
              // What the start-up script shares with the main script (see bootModules): a small
              // chunk of its own, or the script would import the main one and wait for it.
              name: 'boot-shared',
              test: (id: string) => bootModules.has(id),
              priority: 15,
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
