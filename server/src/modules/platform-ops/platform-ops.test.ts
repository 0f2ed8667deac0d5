import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { QUEUE_RESTART_MAX } from '@shared/limits';
import { TERMINAL_COMMANDS } from '@shared/schemas/platform-ops';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

const SMTP_PASSWORD = 'smtp-pass-7c1e9b';
const SEED_PASSWORD = 'seed-pass-5d2a8f';

let server: TestServer;
let keys: { publicKey: KeyObject; privateKey: KeyObject };
let superadmin: string;
/** Every other profile of two tenants (and of the platform tenant), with a label for the failure message. */
let others: { label: string; token: string }[];

beforeAll(async () => {
  keys = generateKeyPairSync('ed25519');
  server = await startTestServer({
    UPDATE_PUBLIC_KEY: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:2525`,
    SEED_PASSWORD,
  });
  const platform = await platformTenant(server);
  superadmin = (await server.login(await server.createUser(platform.id, { profile: 'superadmin' }))).token;
  others = [];
  for (const profile of ['admin', 'super', 'user'] as const) {
    others.push({
      label: `platform ${profile}`,
      token: (await server.login(await server.createUser(platform.id, { profile }))).token,
    });
  }
  for (const name of ['A', 'B']) {
    const { users, tenant } = await server.createTenantWithUsers();
    for (const profile of ['admin', 'super', 'user'] as const)
      others.push({ label: `tenant ${name} ${profile}`, token: users[profile].token });
    // A superadmin profile outside the platform tenant has no platform power (core/platform.ts).
    others.push({
      label: `tenant ${name} superadmin`,
      token: (await server.login(await server.createUser(tenant.id, { profile: 'superadmin' }))).token,
    });
  }
});
afterAll(async () => server?.close());

async function zipOf(files: Record<string, string | { text: string; unixPermissions: number }>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) {
    if (typeof content === 'string') zip.file(name, content, { createFolders: false });
    else zip.file(name, content.text, { createFolders: false, unixPermissions: content.unixPermissions });
  }
  return zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
}

const signed = (pkg: Buffer, key = keys.privateKey) => sign(null, pkg, key);

async function upload(
  token: string,
  parts: { file?: { name: string; bytes: Buffer }; signature?: { name: string; bytes: Buffer | string } },
  target: TestServer = server,
) {
  const form = new FormData();
  if (parts.file) form.append('file', new Blob([new Uint8Array(parts.file.bytes)]), parts.file.name);
  if (parts.signature)
    form.append(
      'signature',
      new Blob([typeof parts.signature.bytes === 'string' ? parts.signature.bytes : new Uint8Array(parts.signature.bytes)]),
      parts.signature.name,
    );
  const res = await fetch(`${target.url}/platform/updates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('platform operations refuse everyone but the super administrator', () => {
  const routes: { method: string; url: string; body?: unknown; terminal?: boolean }[] = [
    { method: 'GET', url: '/platform/queues' },
    { method: 'GET', url: '/platform/queues/board-test/failed' },
    { method: 'POST', url: '/platform/queues/board-test/failed/1/retry' },
    { method: 'POST', url: '/platform/queues/board-test/clean', body: { state: 'failed' } },
    { method: 'POST', url: '/platform/queues/board-test/restart' },
    { method: 'GET', url: '/platform/internal-data' },
    { method: 'GET', url: '/platform/updates' },
    { method: 'POST', url: '/platform/terminal', body: { command: 'uptime' }, terminal: true },
    { method: 'GET', url: '/platform/terminal/audit', terminal: true },
  ];

  it('answers 403 to every other profile of two tenants and of the platform tenant, the terminal with its own text', async () => {
    for (const route of routes) {
      for (const other of others) {
        const res = await server.request(route.method, route.url, { token: other.token, body: route.body });
        const expected = route.terminal ? 'ERR_TERMINAL_FORBIDDEN' : 'ERR_NO_PERMISSION';
        expect({ route: route.url, who: other.label, status: res.status, error: res.body?.error }).toEqual({
          route: route.url,
          who: other.label,
          status: 403,
          error: expected,
        });
        if (route.terminal) expect(res.body.message).toBe('Usuário não autorizado a acessar o terminal');
      }
      expect((await server.request(route.method, route.url, { body: route.body })).status).toBe(401);
    }
  });

  it('refuses an update upload from every other profile before reading the package', async () => {
    const pkg = await zipOf({ 'a.txt': 'a' });
    const recorded = async () => (await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM platform_updates`))[0].n;
    const before = await recorded();
    for (const other of others) {
      const res = await upload(other.token, {
        file: { name: 'update_rapido.zip', bytes: pkg },
        signature: { name: 'update_rapido.zip.sig', bytes: signed(pkg) },
      });
      expect({ who: other.label, status: res.status, error: res.body.error }).toEqual({
        who: other.label,
        status: 403,
        error: 'ERR_NO_PERMISSION',
      });
    }
    expect(await recorded()).toBe(before);
  });
});

describe('job queues (/tenantsQueue)', () => {
  it('lists the queues of this process with their counts, failed jobs with their reason, retries one and cleans', async () => {
    let fail = true;
    server.deps.jobs.process<{ n: number }>('board-test', async ({ n }) => {
      if (fail) throw new Error(`falhou ${n}`);
    });
    const first = await server.deps.jobs.enqueue('board-test', { n: 1 });
    await server.deps.jobs.enqueue('board-test', { n: 2 });
    await expect.poll(async () => (await server.deps.jobs.counts('board-test')).failed, { timeout: 5000 }).toBe(2);

    const board = await server.request('GET', '/platform/queues', { token: superadmin });
    expect(board.status).toBe(200);
    expect(board.body.driver).toBe(server.deps.jobs.driver);
    expect(board.body.restartsLeft).toBe(QUEUE_RESTART_MAX);
    expect(board.body.queues.find((q: { name: string }) => q.name === 'board-test')).toEqual({
      name: 'board-test',
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 2,
      completed: 0,
    });

    const failed = await server.request('GET', '/platform/queues/board-test/failed', { token: superadmin });
    expect(failed.status).toBe(200);
    expect(failed.body.map((j: { reason: string }) => j.reason).sort()).toEqual(['falhou 1', 'falhou 2']);

    fail = false;
    const retry = await server.request('POST', `/platform/queues/board-test/failed/${encodeURIComponent(first)}/retry`, {
      token: superadmin,
    });
    expect(retry.status).toBe(204);
    await expect.poll(async () => (await server.deps.jobs.counts('board-test')).completed, { timeout: 5000 }).toBe(1);
    const again = await server.request('POST', `/platform/queues/board-test/failed/${encodeURIComponent(first)}/retry`, {
      token: superadmin,
    });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('ERR_NO_FAILED_JOB_FOUND');

    const clean = await server.request('POST', '/platform/queues/board-test/clean', {
      token: superadmin,
      body: { state: 'failed' },
    });
    expect(clean.body).toEqual({ removed: 1 });
    expect((await server.request('GET', '/platform/queues/board-test/failed', { token: superadmin })).body).toEqual([]);
  });

  it('refuses a malformed clean, an unknown queue and a body on a restart', async () => {
    const bad = await server.request('POST', '/platform/queues/board-test/clean', {
      token: superadmin,
      body: { state: 'active' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.fields[0].path).toBe('state');
    const notJson = await server.request('POST', '/platform/queues/board-test/clean', { token: superadmin, body: '{"state":' });
    expect(notJson.status).toBe(400);
    const unknown = await server.request('GET', '/platform/queues/no-such-queue/failed', { token: superadmin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_JOB_QUEUE_FOUND');
    const extra = await server.request('POST', '/platform/queues/board-test/restart', {
      token: superadmin,
      body: { force: true },
    });
    expect(extra.status).toBe(400);
    expect((await server.request('GET', '/platform/queues', { token: superadmin })).body.restartsLeft).toBe(QUEUE_RESTART_MAX);
  });

  it(`restarts a queue at most ${QUEUE_RESTART_MAX} times per backend run; the next one is refused`, async () => {
    let ran = false;
    server.deps.jobs.process('restart-test', async () => {
      ran = true;
    });
    for (let i = 1; i <= QUEUE_RESTART_MAX; i++) {
      const res = await server.request('POST', '/platform/queues/restart-test/restart', { token: superadmin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ restartsLeft: QUEUE_RESTART_MAX - i });
    }
    const refused = await server.request('POST', '/platform/queues/restart-test/restart', { token: superadmin });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: 'ERR_QUEUE_RESTART_LIMIT',
      message: ERROR_CODES.ERR_QUEUE_RESTART_LIMIT.message,
    });
    // The queue still works after its restarts.
    await server.deps.jobs.enqueue('restart-test', {});
    await expect.poll(() => ran, { timeout: 5000 }).toBe(true);
  });
});

describe('internal data (/tenantsPk)', () => {
  it('shows versions, database, queue driver and allow-listed variables, and no secret anywhere', async () => {
    const res = await server.request('GET', '/platform/internal-data', { token: superadmin });
    expect(res.status).toBe(200);
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../../package.json'), 'utf8'));
    expect(res.body.app).toEqual({ name: pkg.name, version: pkg.version });
    expect(res.body.runtime.node).toBe(process.version);
    expect(res.body.database.kind).toBe(server.deps.config.databaseUrl ? 'PostgreSQL' : 'PGlite');
    expect(res.body.database.version).toMatch(/^\d+/);
    expect(res.body.queueDriver).toBe(server.deps.jobs.driver);
    expect(res.body.updatePublicKey).toMatchObject({ configured: true, fingerprint: expect.stringMatching(/^SHA256:/) });
    expect(res.body.dependencies.find((d: { name: string }) => d.name === 'koa')).toMatchObject({
      declared: pkg.dependencies.koa,
      installed: expect.stringMatching(/^\d+\.\d+/),
    });
    const env = Object.fromEntries(res.body.environment.map((e: { name: string }) => [e.name, e]));
    expect(env.NODE_ENV).toEqual({ name: 'NODE_ENV', set: true, secret: false, value: 'test' });
    expect(env.JWT_SECRET).toEqual({ name: 'JWT_SECRET', set: true, secret: true, value: null });
    expect(env.SMTP_URL).toEqual({ name: 'SMTP_URL', set: true, secret: true, value: null });

    const text = JSON.stringify(res.body);
    const { config } = server.deps;
    const secrets = [config.jwtSecret, config.jwtRefreshSecret, SMTP_PASSWORD, SEED_PASSWORD];
    if (config.databaseUrl) secrets.push(config.databaseUrl, ...[new URL(config.databaseUrl).password].filter(Boolean));
    if (config.redisUrl) secrets.push(config.redisUrl);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe('update (/atualizar)', () => {
  it('refuses a file not named update_rapido.zip, with the message, and records the refusal', async () => {
    const pkg = await zipOf({ 'a.txt': 'a' });
    const res = await upload(superadmin, {
      file: { name: 'update.zip', bytes: pkg },
      signature: { name: 'update_rapido.zip.sig', bytes: signed(pkg) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'ERR_UPDATE_FILE_NAME',
      message: 'Arquivo inválido: o arquivo de atualização deve se chamar update_rapido.zip.',
    });
    const list = await server.request('GET', '/platform/updates', { token: superadmin });
    expect(list.body[0]).toMatchObject({
      fileName: 'update.zip',
      status: 'refused',
      stagedPath: null,
      steps: [{ step: 'file', status: 'failed' }],
    });
  });

  it('refuses an unsigned package and one with a wrong signature, staging nothing', async () => {
    const pkg = await zipOf({ 'app/a.txt': 'a' });
    const unsigned = await upload(superadmin, { file: { name: 'update_rapido.zip', bytes: pkg } });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error).toBe('ERR_UPDATE_SIGNATURE');

    const otherKey = generateKeyPairSync('ed25519').privateKey;
    const wrongKey = await upload(superadmin, {
      file: { name: 'update_rapido.zip', bytes: pkg },
      signature: { name: 's.sig', bytes: signed(pkg, otherKey) },
    });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body).toMatchObject({ error: 'ERR_UPDATE_SIGNATURE', message: ERROR_CODES.ERR_UPDATE_SIGNATURE.message });

    const tampered = Buffer.concat([pkg, Buffer.from('x')]);
    const changed = await upload(superadmin, {
      file: { name: 'update_rapido.zip', bytes: tampered },
      signature: { name: 's.sig', bytes: signed(pkg) },
    });
    expect(changed.body.error).toBe('ERR_UPDATE_SIGNATURE');
    const garbage = await upload(superadmin, {
      file: { name: 'update_rapido.zip', bytes: pkg },
      signature: { name: 's.sig', bytes: 'not a signature' },
    });
    expect(garbage.body.error).toBe('ERR_UPDATE_SIGNATURE');

    expect(existsSync(path.join(server.deps.config.dataDir, 'updates'))).toBe(false);
    const list = await server.request('GET', '/platform/updates', { token: superadmin });
    expect(
      list.body.slice(0, 4).map((u: { status: string; steps: { step: string; status: string }[] }) => [u.status, u.steps.at(-1)]),
    ).toEqual(Array(4).fill(['refused', expect.objectContaining({ step: 'signature', status: 'failed' })]));
  });

  it('refuses a signed package with a path-traversal, absolute or symbolic-link entry, writing nothing outside or inside', async () => {
    const dataDir = server.deps.config.dataDir;
    const packages: Record<string, string | { text: string; unixPermissions: number }>[] = [
      { 'ok.txt': 'ok', '../escape.txt': 'evil' },
      { 'ok.txt': 'ok', 'a/../../escape.txt': 'evil' },
      { 'ok.txt': 'ok', '/etc/escape.txt': 'evil' },
      { 'ok.txt': 'ok', 'link-to-root': { text: '/', unixPermissions: 0o120777 } },
    ];
    for (const entries of packages) {
      const pkg = await zipOf(entries);
      const res = await upload(superadmin, {
        file: { name: 'update_rapido.zip', bytes: pkg },
        signature: { name: 's.sig', bytes: signed(pkg) },
      });
      expect({ entries: Object.keys(entries), status: res.status, error: res.body.error }).toEqual({
        entries: Object.keys(entries),
        status: 400,
        error: 'ERR_UPDATE_UNSAFE_ENTRY',
      });
    }
    expect(existsSync(path.join(dataDir, 'escape.txt'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'updates', 'escape.txt'))).toBe(false);
    const list = await server.request('GET', '/platform/updates', { token: superadmin });
    expect(
      list.body
        .slice(0, 4)
        .every((u: { status: string; stagedPath: string | null }) => u.status === 'refused' && u.stagedPath === null),
    ).toBe(true);
  });

  it('refuses a signed file that is not a zip', async () => {
    const pkg = Buffer.from('this is not a zip archive');
    const res = await upload(superadmin, {
      file: { name: 'update_rapido.zip', bytes: pkg },
      signature: { name: 's.sig', bytes: signed(pkg).toString('base64') },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_UPDATE_INVALID_FILE');
  });

  it('refuses a malformed upload: no file, a JSON body, an unexpected field', async () => {
    const none = await upload(superadmin, {});
    expect(none.status).toBe(400);
    expect(none.body.fields[0].path).toBe('file');
    const json = await server.request('POST', '/platform/updates', { token: superadmin, body: { file: 'update_rapido.zip' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('ERR_VALIDATION');
    const form = new FormData();
    form.append('other', new Blob(['x']), 'x.bin');
    const res = await fetch(`${server.url}/platform/updates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${superadmin}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('ERR_VALIDATION');
  });

  it('stages a correctly signed package under DATA_DIR/updates, runs the pending migrations and the file clean', async () => {
    const dataDir = server.deps.config.dataDir;
    // An orphaned media file of a deleted message (older than the grace period), a referenced one, and a deleted tenant's folder.
    const { tenant } = await server.createTenantWithUsers();
    const mediaDir = path.join(dataDir, 'uploads', String(tenant.id), 'messages');
    await mkdir(mediaDir, { recursive: true });
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await writeFile(path.join(mediaDir, 'orphan.jpg'), 'orphan');
    await utimes(path.join(mediaDir, 'orphan.jpg'), old, old);
    await writeFile(path.join(mediaDir, 'recent.jpg'), 'recent');
    await writeFile(path.join(mediaDir, 'kept.jpg'), 'kept');
    await utimes(path.join(mediaDir, 'kept.jpg'), old, old);
    const [contact] = await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'C', '5511999990000') RETURNING id`,
      [tenant.id],
    );
    const [ticket] = await server.deps.dataSource.query(
      `INSERT INTO tickets ("tenantId", "contactId", status) VALUES ($1, $2, 'open') RETURNING id`,
      [tenant.id, contact.id],
    );
    await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "mediaType", "mediaPath") VALUES ($1, $2, $3, '', 'image', 'messages/kept.jpg')`,
      [tenant.id, ticket.id, contact.id],
    );
    // A messages folder that is a symbolic link to a folder outside DATA_DIR is never followed.
    const outside = await mkdtemp(path.join(tmpdir(), 'platform-ops-outside-'));
    await writeFile(path.join(outside, 'precious.jpg'), 'precious');
    await utimes(path.join(outside, 'precious.jpg'), old, old);
    const linked = await server.createTenantWithUsers();
    await mkdir(path.join(dataDir, 'uploads', String(linked.tenant.id)), { recursive: true });
    await symlink(outside, path.join(dataDir, 'uploads', String(linked.tenant.id), 'messages'));
    const goneTenantDir = path.join(dataDir, 'uploads', '2147483000');
    await mkdir(goneTenantDir, { recursive: true });
    await writeFile(path.join(goneTenantDir, 'left.bin'), 'left');

    const pkg = await zipOf({ 'server/version.txt': '0.2.0', 'README-update.md': '# 0.2.0' });
    const res = await upload(superadmin, {
      file: { name: 'update_rapido.zip', bytes: pkg },
      signature: { name: 'update_rapido.zip.sig', bytes: signed(pkg) },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('applied');
    expect(res.body.steps.map((s: { step: string; status: string }) => [s.step, s.status])).toEqual([
      ['file', 'ok'],
      ['signature', 'ok'],
      ['stage', 'ok'],
      ['migrations', 'ok'],
      ['clean', 'ok'],
    ]);
    expect(res.body.steps[3].detail).toBe('Nenhuma migração pendente.');
    expect(res.body.stagedPath).toMatch(/^updates\/\d+-[0-9a-f]{8}$/);
    const staged = path.join(dataDir, res.body.stagedPath);
    expect(readFileSync(path.join(staged, 'server/version.txt'), 'utf8')).toBe('0.2.0');
    expect(readFileSync(path.join(staged, 'README-update.md'), 'utf8')).toBe('# 0.2.0');

    expect(existsSync(path.join(mediaDir, 'orphan.jpg'))).toBe(false);
    expect(existsSync(path.join(mediaDir, 'recent.jpg'))).toBe(true);
    expect(existsSync(path.join(mediaDir, 'kept.jpg'))).toBe(true);
    expect(existsSync(goneTenantDir)).toBe(false);
    expect(existsSync(path.join(outside, 'precious.jpg'))).toBe(true);
    expect(res.body.steps[4].detail).toMatch(/^2 arquivo\(s\) removido\(s\)/);

    const list = await server.request('GET', '/platform/updates', { token: superadmin });
    expect(list.body[0]).toMatchObject({
      id: res.body.id,
      status: 'applied',
      fileName: 'update_rapido.zip',
      stagedPath: res.body.stagedPath,
    });
  });

  it('refuses every update when no public key is configured', async () => {
    const keyless = await startTestServer();
    try {
      const platform = await platformTenant(keyless);
      const token = (await keyless.login(await keyless.createUser(platform.id, { profile: 'superadmin' }))).token;
      const pkg = await zipOf({ 'a.txt': 'a' });
      const res = await upload(
        token,
        { file: { name: 'update_rapido.zip', bytes: pkg }, signature: { name: 's.sig', bytes: signed(pkg) } },
        keyless,
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        error: 'ERR_UPDATE_NO_PUBLIC_KEY',
        message: ERROR_CODES.ERR_UPDATE_NO_PUBLIC_KEY.message,
      });
      expect(existsSync(path.join(keyless.deps.config.dataDir, 'updates'))).toBe(false);
    } finally {
      await keyless.close();
    }
  });
});

describe('terminal (/terminal)', () => {
  it('runs each allow-listed command and audits every use', async () => {
    for (const command of TERMINAL_COMMANDS) {
      const res = await server.request('POST', '/platform/terminal', { token: superadmin, body: { command } });
      expect({ command, status: res.status, outcome: res.body.outcome }).toEqual({ command, status: 200, outcome: 'ok' });
      expect(res.body.output.length).toBeGreaterThan(0);
    }
    const uptime = await server.request('POST', '/platform/terminal', { token: superadmin, body: { command: 'uptime' } });
    expect(uptime.body.output).toMatch(/^Backend: /);
    const disk = await server.request('POST', '/platform/terminal', { token: superadmin, body: { command: 'disk' } });
    expect(disk.body.output).toContain(server.deps.config.dataDir);

    const audit = await server.request('GET', '/platform/terminal/audit', { token: superadmin });
    expect(audit.status).toBe(200);
    expect(audit.body.slice(0, 2).map((r: { command: string; outcome: string }) => [r.command, r.outcome])).toEqual([
      ['disk', 'ok'],
      ['uptime', 'ok'],
    ]);
    expect(audit.body[0].userName).toMatch(/<superadmin-.*@test\.example\.com>$/);
    const [{ count }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM terminal_audit WHERE outcome = 'ok'`,
    );
    expect(count).toBeGreaterThanOrEqual(TERMINAL_COMMANDS.length + 2);
  });

  it('refuses a command outside the list (no shell), and audits a refused caller with what it asked for', async () => {
    for (const body of [
      { command: 'rm -rf /' },
      { command: 'uptime; cat /etc/passwd' },
      {},
      { command: 'uptime', args: ['-a'] },
    ]) {
      const res = await server.request('POST', '/platform/terminal', { token: superadmin, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const intruder = others.find((o) => o.label === 'tenant A admin')!;
    const refused = await server.request('POST', '/platform/terminal', { token: intruder.token, body: { command: 'memory' } });
    expect(refused.status).toBe(403);
    const audit = await server.request('GET', '/platform/terminal/audit', { token: superadmin });
    expect(audit.body[0]).toMatchObject({ command: 'memory', outcome: 'refused' });
  });
});
