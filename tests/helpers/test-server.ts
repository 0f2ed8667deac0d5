import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { Profile } from '@shared/profiles';
import { DEFAULT_SETTINGS } from '@shared/settings';
import { loadConfig } from '../../server/src/config';
import { hashPassword } from '../../server/src/core/passwords';
import { PLATFORM_TENANT_ID } from '../../server/src/core/platform';
import { startServer, type RunningServer, type StartOptions } from '../../server/src/server';
import { loginBody } from './captcha';
import { platformTenant } from './platform-tenant';

export interface TestTenant {
  id: number;
  name: string;
}

export interface TestUser {
  id: number;
  tenantId: number;
  email: string;
  password: string;
  profile: Profile;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer extends RunningServer {
  /** A new tenant with its default settings; every test builds its own. */
  createTenant(fields?: { name?: string; status?: 'active' | 'inactive'; maxUsers?: number; maxConnections?: number }): Promise<TestTenant>;
  createUser(tenantId: number, fields?: { profile?: Profile; email?: string; password?: string; name?: string }): Promise<TestUser>;
  /**
   * Logs in through GET /auth/captcha (solved) and POST /auth/login/, and returns the response
   * body (token, refreshToken, ...).
   */
  login(user: { email: string; password: string }): Promise<any>;
  /** A tenant with one user of each profile, logged in. */
  createTenantWithUsers(): Promise<{ tenant: TestTenant; users: Record<'admin' | 'super' | 'user', TestUser & { token: string }> }>;
  request<T = any>(method: string, url: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** A logged-in platform super administrator (superadmin of tenant 1), made once per server. */
  platformSuperadmin(): Promise<TestUser & { token: string }>;
  /**
   * A tenant made through the product: POST /plans and POST /admin/tenants as the platform
   * super administrator (the plan's limits unless given), with its first admin logged in.
   */
  createTenantThroughApi(fields?: {
    name?: string;
    maxUsers?: number;
    maxConnections?: number;
  }): Promise<{ tenant: TestTenant; planId: number; admin: TestUser & { token: string } }>;
}

const unique = () => randomBytes(5).toString('hex');

export async function startTestServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-test-'));
  const databaseUrl = inject('testDatabaseUrl');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'test-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const redisPrefix = opts.redisPrefix ?? `test-${unique()}`;
  const running = await startServer(config, { inMemoryDatabase: true, seed: false, resumeSessions: false, ...opts, redisPrefix });
  const closeServer = running.close;
  // Leave nothing behind in a shared Redis: jobs, schedules, rate-limit counters of this server.
  running.close = async () => {
    const redis = running.deps.redis?.duplicate();
    await closeServer();
    if (!redis) return;
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  };
  const ds = running.deps.dataSource;

  const request: TestServer['request'] = async (method, url, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    }
    const res = await fetch(running.url + url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };

  const createTenant: TestServer['createTenant'] = async (fields = {}) => {
    const name = fields.name ?? `Tenant ${unique()}`;
    const [row] = await ds.query(
      `INSERT INTO tenants (name, status, "maxUsers", "maxConnections") VALUES ($1, $2, $3, $4) RETURNING id, name`,
      [name, fields.status ?? 'active', fields.maxUsers ?? 10, fields.maxConnections ?? 3],
    );
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      await ds.query(`INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)`, [row.id, key, value]);
    }
    return row;
  };

  const createUser: TestServer['createUser'] = async (tenantId, fields = {}) => {
    const email = (fields.email ?? `${fields.profile ?? 'user'}-${unique()}@test.example.com`).toLowerCase();
    const password = fields.password ?? `Pass-${unique()}!1`;
    const profile = fields.profile ?? 'user';
    const [row] = await ds.query(
      `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [tenantId, fields.name ?? `User ${profile}`, email, await hashPassword(password), profile],
    );
    await ds.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [row.id, tenantId]);
    return { id: row.id, tenantId, email, password, profile };
  };

  const login: TestServer['login'] = async (user) => {
    const res = await request('POST', '/auth/login/', { body: await loginBody(running.url, user) });
    if (res.status !== 200) throw new Error(`login failed for ${user.email}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  // The tenant (and its admin) is made through the product, as the super administrator makes
  // one (issue #17); its supervisor and agent are written directly, so no test starts with
  // domain events it did not cause.
  const createTenantWithUsers: TestServer['createTenantWithUsers'] = async () => {
    const { tenant, admin } = await createTenantThroughApi();
    const users = { admin } as Record<'admin' | 'super' | 'user', TestUser & { token: string }>;
    for (const profile of ['super', 'user'] as const) {
      const u = await createUser(tenant.id, { profile, name: `User ${profile}` });
      users[profile] = { ...u, token: (await login(u)).token };
    }
    return { tenant, users };
  };

  let superadmin: Promise<TestUser & { token: string }> | undefined;
  const platformSuperadmin: TestServer['platformSuperadmin'] = () => {
    superadmin ??= (async () => {
      const existing: { id: number }[] = await ds.query(`SELECT id FROM tenants WHERE id = $1`, [PLATFORM_TENANT_ID]);
      if (!existing[0]) await platformTenant(server);
      const user = await createUser(PLATFORM_TENANT_ID, { profile: 'superadmin' });
      return { ...user, token: (await login(user)).token };
    })();
    return superadmin;
  };

  const plans = new Map<string, Promise<number>>();
  const createTenantThroughApi: TestServer['createTenantThroughApi'] = async (fields = {}) => {
    const { token } = await platformSuperadmin();
    const limits = { maxUsers: fields.maxUsers ?? 10, maxConnections: fields.maxConnections ?? 3 };
    // One plan per server for the default limits (so plan lists do not grow with every tenant).
    const key = `${limits.maxUsers}/${limits.maxConnections}`;
    let planPromise = plans.get(key);
    if (!planPromise) {
      planPromise = (async () => {
        const plan = await request('POST', '/plans', { token, body: { name: `Plano ${unique()}`, value: 10, ...limits } });
        if (plan.status !== 201) throw new Error(`POST /plans failed: ${plan.status} ${JSON.stringify(plan.body)}`);
        return plan.body.id as number;
      })();
      plans.set(key, planPromise);
    }
    const plan = { body: { id: await planPromise } };
    const admin = { email: `admin-${unique()}@test.example.com`, password: `Pass-${unique()}!1` };
    const res = await request('POST', '/admin/tenants', {
      token,
      body: { name: fields.name ?? `Tenant ${unique()}`, planId: plan.body.id, adminName: 'User admin', adminEmail: admin.email, adminPassword: admin.password },
    });
    if (res.status !== 201) throw new Error(`POST /admin/tenants failed: ${res.status} ${JSON.stringify(res.body)}`);
    const [row]: { id: number }[] = await ds.query(`SELECT id FROM users WHERE lower(email) = $1`, [admin.email]);
    const adminUser: TestUser = { id: row!.id, tenantId: res.body.id, email: admin.email, password: admin.password, profile: 'admin' };
    return {
      tenant: { id: res.body.id, name: res.body.name },
      planId: plan.body.id,
      admin: { ...adminUser, token: (await login(adminUser)).token },
    };
  };

  const server: TestServer = {
    ...running,
    createTenant,
    createUser,
    login,
    createTenantWithUsers,
    request,
    platformSuperadmin,
    createTenantThroughApi,
  };
  return server;
}
