import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: Debian's Chromium drives the real server (embedded PostgreSQL, in-process
 * jobs, a fresh data directory per run) serving the built web app. The config is evaluated in
 * the runner and in each worker; the environment set here on first load reaches the workers,
 * so they all see the same port, data directory and seed password.
 */
const PORT = Number((process.env.E2E_PORT ??= '18090'));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'atende-e2e-'));
process.env.E2E_SEED_PASSWORD ??= 'E2e-Seed-pass1!';
// The fake WhatsApp Cloud API of tests/e2e/console.spec.ts listens here; the server is pointed at it.
process.env.E2E_FAKE_GRAPH_PORT ??= String(PORT + 1);
// The fake Telegram Bot API of tests/e2e/channels.spec.ts listens here; the server is pointed at it.
process.env.E2E_FAKE_TELEGRAM_PORT ??= String(PORT + 2);
// The injected Baileys socket (tests/fakes/baileys-socket.fake.ts) is driven through this control port.
process.env.E2E_FAKE_BAILEYS_CONTROL_PORT ??= String(PORT + 3);
const BAILEYS_SOCKET_MODULE = path.resolve('tests/fakes/baileys-socket.fake.ts');

const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'pt-BR',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // A page the desktop-offline spec reloads while offline is fulfilled from files by a
        // route, so Chromium knows no IP address for it and treats it as public: its Local
        // Network Access checks then block the socket to 127.0.0.1 once back online
        // (net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS in the trace; the banner stayed
        // "offline" in CI). Electron's app:// pages are in the same position: see
        // docs/architecture.md (Desktop) on the switch the desktop needs.
        '--disable-features=LocalNetworkAccessChecks,LocalNetworkAccessChecksWebSockets,PrivateNetworkAccessNullIpAddress',
      ],
      // Chromium names downloads in the locale's file-name encoding: started with no LANG (a
      // bare shell, `env -i`), it is ASCII, and a suggested name with an accent ('Atendimentos
      // por parâmetros ....xlsx') became 'download'. Users' machines have a UTF-8 locale.
      env: { ...process.env, LANG: process.env.LANG || 'C.UTF-8' },
    },
  },
  projects: [
    // Signs in once per profile and keeps the browser storage for the specs that only need a session.
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'chromium', use: { browserName: 'chromium' }, dependencies: ['setup'] },
  ],
  webServer: {
    command: 'node scripts/ensure-web-build.mjs && npx tsx server/src/main.ts',
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      SEED_PASSWORD: process.env.E2E_SEED_PASSWORD,
      // Empty: the embedded database and in-process jobs, so every run is isolated.
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      // The stored sessions of sessions.setup.ts serve every later spec: an access token that outlives
      // the run (a loaded machine takes well over the default 15 min), since a refresh rotates the one
      // refresh token those specs share and the second context to refresh is rightly refused.
      ACCESS_TOKEN_TTL_SECONDS: String(4 * 3600),
      NODE_ENV: 'development',
      WABA_GRAPH_BASE_URL: `http://127.0.0.1:${process.env.E2E_FAKE_GRAPH_PORT}`,
      TELEGRAM_API_BASE_URL: `http://127.0.0.1:${process.env.E2E_FAKE_TELEGRAM_PORT}`,
      // Baileys channels talk to the injected fake socket: a QR code at once, the phone "pairs"
      // only when a spec asks (POST /pair on the control port).
      ...(existsSync(BAILEYS_SOCKET_MODULE)
        ? {
            BAILEYS_SOCKET_MODULE,
            FAKE_BAILEYS_CONNECT_AFTER_MS: '0',
            FAKE_BAILEYS_CONTROL_PORT: process.env.E2E_FAKE_BAILEYS_CONTROL_PORT,
          }
        : {}),
    },
  },
});
