import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { verifyPassword } from '../core/passwords';
import { startServer, type RunningServer } from '../server';
import { loginBody } from '../../../tests/helpers/captcha';

/**
 * Start-up as `npm start` does it: the embedded PostgreSQL on disk under DATA_DIR (never
 * DATABASE_URL, even when the rest of the suite runs on a real server), migrations, first-start
 * seed. Each scenario gets a fresh DATA_DIR.
 */

const SEED_PASSWORD = 'Seed-pass-123!';
const DEMO_ACCOUNTS = [
  { email: 'admin@demo.example.com', profile: 'admin' },
  { email: 'supervisor@demo.example.com', profile: 'super' },
  { email: 'agent@demo.example.com', profile: 'user' },
] as const;
const SUPERADMIN_EMAIL = 'superadmin@example.com';

const dirs: string[] = [];
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-startup-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  expect(config.databaseUrl).toBeUndefined();
  const server = await startServer(config, { inMemoryDatabase: false, redisPrefix: `startup-${randomBytes(4).toString('hex')}` });
  running.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  await server.close();
  running.splice(running.indexOf(server), 1);
}

async function login(server: RunningServer, email: string, password: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await loginBody(server.url, { email, password })),
  });
  return { status: res.status, body: await res.json() };
}

interface SeededUser {
  id: number;
  tenantId: number;
  tenantName: string;
  email: string;
  profile: string;
  passwordHash: string;
}

async function seededUsers(server: RunningServer): Promise<SeededUser[]> {
  return server.deps.dataSource.query(
    `SELECT u.id, u."tenantId", t.name AS "tenantName", u.email, u.profile, u."passwordHash"
       FROM users u JOIN tenants t ON t.id = u."tenantId" ORDER BY u.id`,
  );
}

async function counts(server: RunningServer): Promise<Record<string, number>> {
  const [row] = await server.deps.dataSource.query(
    `SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM users)::int AS users,
            (SELECT count(*) FROM plans)::int AS plans, (SELECT count(*) FROM settings)::int AS settings,
            (SELECT count(*) FROM user_tenants)::int AS "userTenants"`,
  );
  return row;
}

describe('first start on the embedded PostgreSQL', () => {
  it('migrates, seeds the platform and the demo company, logs everyone in, and keeps it all across a restart', async () => {
    const dataDir = freshDataDir();
    const first = await start(dataDir, { SEED_PASSWORD });
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(true);

    const migrations: { name: string }[] = await first.deps.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(migrations.map((m) => m.name)).toContain('Foundation1763700000000');

    const users = await seededUsers(first);
    expect(users).toHaveLength(4);
    const superadmin = users.find((u) => u.email === SUPERADMIN_EMAIL);
    expect(superadmin).toMatchObject({ tenantId: 1, profile: 'superadmin' });
    for (const account of DEMO_ACCOUNTS) {
      expect(
        users.find((u) => u.email === account.email),
        account.email,
      ).toMatchObject({ tenantName: 'Empresa Demo', profile: account.profile });
    }
    for (const user of users) {
      expect(user.passwordHash).toMatch(/^\$2[aby]\$/);
      expect(await verifyPassword(SEED_PASSWORD, user.passwordHash), user.email).toBe(true);
    }
    const before = await counts(first);
    expect(before).toMatchObject({ tenants: 2, users: 4, plans: 1, userTenants: 4 });
    expect(before.settings).toBeGreaterThan(0);
    // With SEED_PASSWORD nothing secret is written to disk.
    expect(existsSync(path.join(dataDir, 'initial-credentials.txt'))).toBe(false);

    for (const account of [{ email: SUPERADMIN_EMAIL, profile: 'superadmin' }, ...DEMO_ACCOUNTS]) {
      const res = await login(first, account.email, SEED_PASSWORD);
      expect(res.status, account.email).toBe(200);
      expect(res.body.profile).toBe(account.profile);
    }
    const adminSession = await login(first, 'admin@demo.example.com', SEED_PASSWORD);
    const saved = await fetch(`${first.url}/tenants/message-business-hours/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminSession.body.token}` },
      body: JSON.stringify({ messageBusinessHours: 'Voltamos amanhã' }),
    });
    expect(saved.status).toBe(200);
    await stop(first);

    const second = await start(dataDir, { SEED_PASSWORD });
    expect(await counts(second)).toEqual(before);
    expect((await seededUsers(second)).map((u) => u.id)).toEqual(users.map((u) => u.id));
    // A session of the first run still works: sessions, JWT secrets (DATA_DIR/secrets.json) and data persisted.
    const hours = await fetch(`${second.url}/tenants/business-hours/`, {
      headers: { authorization: `Bearer ${adminSession.body.token}` },
    });
    expect(hours.status).toBe(200);
    expect((await hours.json()).messageBusinessHours).toBe('Voltamos amanhã');
    expect((await login(second, SUPERADMIN_EMAIL, SEED_PASSWORD)).status).toBe(200);
    await stop(second);
  }, 180_000);

  it('without SEED_PASSWORD writes generated passwords to DATA_DIR/initial-credentials.txt, and they work (and SEED_SUPERADMIN_EMAIL is honoured)', async () => {
    const dataDir = freshDataDir();
    // One fresh start for both checks: a first start on disk is the slow part of this file.
    const server = await start(dataDir, { SEED_SUPERADMIN_EMAIL: 'Root@Platform.example.com' });
    const file = path.join(dataDir, 'initial-credentials.txt');
    expect(existsSync(file)).toBe(true);
    // Readable by the owner only: it holds passwords.
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o077).toBe(0);

    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    const credentials = lines.map((line) => {
      const [profile, email, password] = line.trim().split(/\s+/);
      return { profile, email, password };
    });
    expect(credentials.map((c) => c.email).sort()).toEqual(
      ['root@platform.example.com', ...DEMO_ACCOUNTS.map((a) => a.email)].sort(),
    );
    expect(new Set(credentials.map((c) => c.password)).size).toBe(4);

    const users = await seededUsers(server);
    expect(users.find((u) => u.profile === 'superadmin')).toMatchObject({ email: 'root@platform.example.com', tenantId: 1 });
    for (const c of credentials) {
      const user = users.find((u) => u.email === c.email);
      expect(user?.profile).toBe(c.profile);
      expect(await verifyPassword(c.password, user!.passwordHash), c.email).toBe(true);
      const res = await login(server, c.email, c.password);
      expect(res.status, c.email).toBe(200);
    }
    await stop(server);
  }, 120_000);
});

describe('configuration', () => {
  it('refuses to start in production without both JWT secrets', () => {
    const base = { NODE_ENV: 'production', DATA_DIR: freshDataDir() };
    expect(() => loadConfig(base)).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ ...base, JWT_SECRET: 'x'.repeat(32) })).toThrow(/JWT_REFRESH_SECRET/);
    expect(() => loadConfig({ ...base, JWT_REFRESH_SECRET: 'y'.repeat(32) })).toThrow(/JWT_SECRET/);
    // Nothing was generated for it either: production never falls back to stored secrets.
    expect(existsSync(path.join(base.DATA_DIR, 'secrets.json'))).toBe(false);
    const config = loadConfig({ ...base, JWT_SECRET: 'x'.repeat(32), JWT_REFRESH_SECRET: 'y'.repeat(32) });
    expect(config.jwtSecret).toBe('x'.repeat(32));
  });
});
