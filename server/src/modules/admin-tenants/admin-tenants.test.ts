import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminTenantDto, TenantDeletionDto } from '@shared/schemas/admin-tenants';
import { startWabaTestBed, wabaBody, type WabaTestBed } from '../../channels/waba/waba.test-support';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import { connectAs } from '../../realtime/realtime.test-support';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { runTenantDeletion, tenantUploadsDir } from './tenant-deletion';

let bed: WabaTestBed;
let server: TestServer;
let superToken: string;
/** Every profile that must be refused: user, super, admin of a tenant; a superadmin outside tenant 1; an admin of tenant 1. */
let refused: Record<string, string>;

beforeAll(async () => {
  bed = await startWabaTestBed();
  server = bed.server;
  superToken = (await server.platformSuperadmin()).token;
  const a = await server.createTenantWithUsers();
  const b = await server.createTenant();
  const fakeSuper = await server.createUser(b.id, { profile: 'superadmin' });
  const platformAdmin = await server.createUser(PLATFORM_TENANT_ID, { profile: 'admin' });
  refused = {
    user: a.users.user.token,
    super: a.users.super.token,
    admin: a.users.admin.token,
    'superadmin of another tenant': (await server.login(fakeSuper)).token,
    'admin of tenant 1': (await server.login(platformAdmin)).token,
  };
});
afterAll(async () => bed?.close());

const req = (method: string, url: string, opts?: { token?: string; body?: unknown }) => server.request(method, url, opts);

async function newPlan(fields: Record<string, unknown> = {}): Promise<number> {
  const res = await req('POST', '/plans', {
    token: superToken,
    body: { name: `Plano ${Math.random().toString(36).slice(2, 8)}`, value: 99.9, maxUsers: 5, maxConnections: 2, ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const unique = () => Math.random().toString(36).slice(2, 10);
const tenantBody = (planId: number, extra: Record<string, unknown> = {}) => ({
  name: `Empresa ${unique()}`,
  identity: '11.222.333/0001-81',
  planId,
  adminName: 'Dona Admin',
  adminEmail: `dona-${unique()}@empresa.example.com`,
  adminPassword: 'Segura#123',
  ...extra,
});

describe('every /admin tenant route is the platform super administrator\'s', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/admin/tenants'],
    ['POST', '/admin/tenants', {}],
    ['GET', `/admin/tenants/${PLATFORM_TENANT_ID}`],
    ['PUT', '/admin/empresa/2', { name: 'x' }],
    ['PUT', '/admin/status/tenant/2', { status: 'inactive' }],
    ['DELETE', '/admin/tenants/2'],
    ['GET', '/admin/tenant-deletions'],
    ['GET', '/admin/tenant-deletions/1'],
    ['POST', '/admin/tenants/2/support', { reason: 'ajuda' }],
    ['GET', '/admin/tenants/2/support-sessions'],
    ['DELETE', '/admin/support-sessions/1'],
    ['GET', '/admin/users'],
    ['PUT', '/admin/channels/1/session'],
    ['DELETE', '/admin/channels/1/session'],
    ['DELETE', '/admin/channels/1'],
    ['GET', '/plans/list'],
    ['POST', '/plans', { name: 'x', value: 1, maxUsers: 1, maxConnections: 1 }],
    ['PUT', '/plans/1', { name: 'x' }],
    ['DELETE', '/plans/1'],
  ];

  it('refuses every other profile of two tenants with 403, before reading the body, and changes nothing', async () => {
    const before = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenants`);
    for (const [profile, token] of Object.entries(refused)) {
      for (const [method, url, body] of routes) {
        const res = await req(method, url, { token, body });
        expect(res.status, `${profile} ${method} ${url}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
    }
    const after = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenants`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('refuses a caller without a token with 401', async () => {
    for (const [method, url, body] of routes) {
      const res = await req(method, url, { body });
      expect(res.status, `${method} ${url}`).toBe(401);
    }
  });
});

describe('POST /admin/tenants and GET /admin/tenants', () => {
  it('creates a tenant on a plan with its first admin, who can log in; the list shows plan, limits, trial end and counts', async () => {
    const planId = await newPlan({ maxUsers: 4, maxConnections: 2, trial: true, trialDays: 7 });
    const body = tenantBody(planId);
    const res = await req('POST', '/admin/tenants', { token: superToken, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = res.body as AdminTenantDto;
    expect(created).toMatchObject({
      name: body.name,
      status: 'active',
      identity: '11222333000181',
      planId,
      maxUsers: 4,
      maxConnections: 2,
      limitsOverride: false,
      trial: true,
      trialDays: 7,
      userCount: 1,
      connectionCount: 0,
      deletion: null,
    });
    expect(new Date(created.trialEndsAt!).getTime() - new Date(created.createdAt).getTime()).toBe(7 * 86_400_000);

    const login = await server.login({ email: body.adminEmail, password: body.adminPassword });
    expect(login).toMatchObject({ tenantId: created.id, profile: 'admin', username: 'Dona Admin' });
    const settings = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM settings WHERE "tenantId" = $1`, [created.id]);
    expect(settings[0].n).toBeGreaterThan(0);

    const list = await req('GET', '/admin/tenants', { token: superToken });
    expect(list.status).toBe(200);
    const row = (list.body as AdminTenantDto[]).find((t) => t.id === created.id);
    expect(row).toMatchObject({ planName: expect.stringMatching(/^Plano /), userCount: 1, trialEndsAt: created.trialEndsAt });
  });

  it('takes overridden limits and the trial switch instead of the plan\'s', async () => {
    const planId = await newPlan({ maxUsers: 4, maxConnections: 2, trial: true, trialDays: 7 });
    const res = await req('POST', '/admin/tenants', {
      token: superToken,
      body: tenantBody(planId, { limitsOverride: true, maxUsers: 9, maxConnections: 6, trial: false }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ maxUsers: 9, maxConnections: 6, limitsOverride: true, trial: false, trialEndsAt: null });
  });

  it('answers malformed bodies with 400 naming the field, never 500', async () => {
    const planId = await newPlan();
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [tenantBody(planId, { name: '' }), 'name'],
      [tenantBody(planId, { identity: '123.456.789-00' }), 'identity'],
      [tenantBody(planId, { adminEmail: 'not-an-email' }), 'adminEmail'],
      [tenantBody(planId, { adminPassword: 'short' }), 'adminPassword'],
      [tenantBody(planId, { adminPassword: 'semnumeros!' }), 'adminPassword'],
      [tenantBody(planId, { planId: 'abc' }), 'planId'],
      [tenantBody(planId, { limitsOverride: true }), 'maxUsers'],
      [tenantBody(planId, { limitsOverride: true, maxUsers: 0, maxConnections: 1 }), 'maxUsers'],
      ['[1,2]', ''],
    ];
    for (const [body, field] of cases) {
      const res = await req('POST', '/admin/tenants', { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      if (field) expect(JSON.stringify(res.body.fields), JSON.stringify(body)).toContain(field);
    }
  });

  it('refuses an unknown plan (404) and an e-mail already in use (409), creating nothing', async () => {
    const planId = await newPlan();
    const unknown = await req('POST', '/admin/tenants', { token: superToken, body: tenantBody(99_999_999) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_PLAN_FOUND');
    const body = tenantBody(planId);
    expect((await req('POST', '/admin/tenants', { token: superToken, body })).status).toBe(201);
    const again = await req('POST', '/admin/tenants', { token: superToken, body: { ...body, name: `Outra ${unique()}` } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const named = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenants WHERE name = $1`, [`Outra`]);
    expect(named[0].n).toBe(0);
  });
});

describe('PUT /admin/empresa/:tenantId', () => {
  it('a new plan brings its limits and trial; overridden limits stay; turning the override off restores the plan\'s', async () => {
    const small = await newPlan({ maxUsers: 2, maxConnections: 1 });
    const big = await newPlan({ maxUsers: 20, maxConnections: 8, trial: true, trialDays: 15 });
    const created = (await req('POST', '/admin/tenants', { token: superToken, body: tenantBody(small) })).body as AdminTenantDto;

    const moved = await req('PUT', `/admin/empresa/${created.id}`, { token: superToken, body: { planId: big } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ planId: big, maxUsers: 20, maxConnections: 8, trial: true, trialDays: 15 });

    const overridden = await req('PUT', `/admin/empresa/${created.id}`, {
      token: superToken,
      body: { limitsOverride: true, maxUsers: 3, maxConnections: 2, name: 'Renomeada' },
    });
    expect(overridden.body).toMatchObject({ name: 'Renomeada', maxUsers: 3, maxConnections: 2, limitsOverride: true });
    const back = await req('PUT', `/admin/empresa/${created.id}`, { token: superToken, body: { planId: small } });
    expect(back.body).toMatchObject({ planId: small, maxUsers: 3, maxConnections: 2 });
    const follow = await req('PUT', `/admin/empresa/${created.id}`, { token: superToken, body: { limitsOverride: false } });
    expect(follow.body).toMatchObject({ maxUsers: 2, maxConnections: 1, limitsOverride: false });
  });

  it('editing a plan moves the tenants that follow it, not those with their own limits', async () => {
    const planId = await newPlan({ maxUsers: 2, maxConnections: 1 });
    const following = (await req('POST', '/admin/tenants', { token: superToken, body: tenantBody(planId) })).body;
    const own = (
      await req('POST', '/admin/tenants', {
        token: superToken,
        body: tenantBody(planId, { limitsOverride: true, maxUsers: 7, maxConnections: 7 }),
      })
    ).body;
    const edited = await req('PUT', `/plans/${planId}`, { token: superToken, body: { maxUsers: 6, maxConnections: 4 } });
    expect(edited.status).toBe(200);
    expect((await req('GET', `/admin/tenants/${following.id}`, { token: superToken })).body).toMatchObject({ maxUsers: 6, maxConnections: 4 });
    expect((await req('GET', `/admin/tenants/${own.id}`, { token: superToken })).body).toMatchObject({ maxUsers: 7, maxConnections: 7 });
  });

  it('answers an unknown tenant 404, an empty or malformed body 400', async () => {
    expect((await req('PUT', '/admin/empresa/99999999', { token: superToken, body: { name: 'x' } })).status).toBe(404);
    for (const body of [{}, { maxUsers: 'muitos' }, { identity: '000' }, { planId: -1 }, { limitsOverride: true, maxUsers: 2 }]) {
      const res = await req('PUT', `/admin/empresa/${PLATFORM_TENANT_ID}`, { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('PUT /admin/status/tenant/:tenantId', () => {
  it('tenant 1 cannot be deactivated', async () => {
    const res = await req('PUT', `/admin/status/tenant/${PLATFORM_TENANT_ID}`, { token: superToken, body: { status: 'inactive' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_TENANT_PROTECTED', message: 'Não é possível deletar o tenant 1!' });
    const [row] = await server.deps.dataSource.query(`SELECT status FROM tenants WHERE id = $1`, [PLATFORM_TENANT_ID]);
    expect(row.status).toBe('active');
  });

  it('deactivating logs the tenant\'s users out at once: live sockets told ERR_TENANT_INACTIVE and cut, requests and logins refused; reactivating lets them back', async () => {
    const { tenant, admin } = await server.createTenantThroughApi();
    const other = await server.createTenantWithUsers();
    const socket = await connectAs(server.url, admin.token);
    const bystander = await connectAs(server.url, other.users.admin.token);
    const cut = new Promise<{ payload: any; reason: string }>((resolve) => {
      let payload: any;
      socket.socket.on('tokenInvalid', (p) => (payload = p));
      socket.socket.on('disconnect', (reason) => resolve({ payload, reason }));
    });

    const res = await req('PUT', `/admin/status/tenant/${tenant.id}`, { token: superToken, body: { status: 'inactive' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('inactive');
    const { payload, reason } = await cut;
    expect(payload).toMatchObject({ error: 'ERR_TENANT_INACTIVE' });
    expect(reason).toBe('io server disconnect');
    expect(bystander.socket.connected).toBe(true);
    bystander.close();

    const call = await req('GET', '/users', { token: admin.token });
    expect(call.status).toBe(401);
    expect(call.body.error).toBe('ERR_TENANT_INACTIVE');
    await expect(server.login(admin)).rejects.toThrow(/ERR_TENANT_INACTIVE/);

    const again = await req('PUT', `/admin/status/tenant/${tenant.id}`, { token: superToken, body: { status: 'active' } });
    expect(again.body.status).toBe('active');
    expect((await server.login(admin)).tenantId).toBe(tenant.id);
  });

  it('answers a malformed status 400 and an unknown tenant 404', async () => {
    const bad = await req('PUT', '/admin/status/tenant/2', { token: superToken, body: { status: 'paused' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const missing = await req('PUT', '/admin/status/tenant/99999999', { token: superToken, body: { status: 'active' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_TENANT_FOUND');
  });
});

async function waitForDeletion(id: number): Promise<TenantDeletionDto> {
  for (let i = 0; i < 200; i++) {
    const res = await req('GET', `/admin/tenant-deletions/${id}`, { token: superToken });
    if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('deletion did not finish');
}

/** A contact, a ticket and two messages of the tenant, as the product stores them. */
async function seedConversation(tenantId: number): Promise<void> {
  const ds = server.deps.dataSource;
  const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Cliente', $2) RETURNING id`, [
    tenantId,
    `55119${Math.floor(Math.random() * 1e8)}`,
  ]);
  const [ticket] = await ds.query(`INSERT INTO tickets ("tenantId", "contactId", status) VALUES ($1, $2, 'open') RETURNING id`, [
    tenantId,
    contact.id,
  ]);
  for (const body of ['Olá', 'Tudo bem?']) {
    await ds.query(`INSERT INTO messages ("tenantId", "ticketId", "contactId", body) VALUES ($1, $2, $3, $4)`, [
      tenantId,
      ticket.id,
      contact.id,
      body,
    ]);
  }
}

const countOf = async (table: string, tenantId: number): Promise<number> =>
  (await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE "tenantId" = $1`, [tenantId]))[0].n;

describe('DELETE /admin/tenants/:tenantId', () => {
  it('tenant 1 cannot be deleted', async () => {
    const res = await req('DELETE', `/admin/tenants/${PLATFORM_TENANT_ID}`, { token: superToken });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_TENANT_PROTECTED', message: 'Não é possível deletar o tenant 1!' });
  });

  it('deletes the tenant\'s rows and files in a background job with progress, leaving other tenants alone', async () => {
    const { tenant, admin } = await server.createTenantThroughApi();
    const keep = await server.createTenantThroughApi();
    await seedConversation(tenant.id);
    await seedConversation(keep.tenant.id);
    const uploads = tenantUploadsDir(server.deps.config.dataDir, tenant.id);
    mkdirSync(path.join(uploads, 'messages'), { recursive: true });
    writeFileSync(path.join(uploads, 'messages', 'foto.jpg'), 'bytes');
    const keptFile = path.join(tenantUploadsDir(server.deps.config.dataDir, keep.tenant.id), 'x.txt');
    mkdirSync(path.dirname(keptFile), { recursive: true });
    writeFileSync(keptFile, 'stays');
    const socket = await connectAs(server.url, admin.token);
    const cut = new Promise<any>((resolve) => socket.socket.on('tokenInvalid', resolve));

    const res = await req('DELETE', `/admin/tenants/${tenant.id}`, { token: superToken });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ tenantId: tenant.id, tenantName: tenant.name, status: 'queued', progress: 0 });
    expect((await cut).error).toBe('ERR_TENANT_INACTIVE');

    const finished = await waitForDeletion(res.body.id);
    expect(finished).toMatchObject({ status: 'done', progress: 100, step: null, error: null });
    for (const table of ['tickets', 'contacts', 'messages', 'users', 'settings', 'auth_sessions']) {
      expect(await countOf(table, tenant.id), table).toBe(0);
    }
    expect((await server.deps.dataSource.query(`SELECT id FROM tenants WHERE id = $1`, [tenant.id])).length).toBe(0);
    expect(existsSync(uploads)).toBe(false);
    for (const table of ['tickets', 'contacts', 'messages', 'users', 'settings']) {
      expect(await countOf(table, keep.tenant.id), table).toBeGreaterThan(0);
    }
    expect(existsSync(keptFile)).toBe(true);
    const list = await req('GET', '/admin/tenant-deletions', { token: superToken });
    expect((list.body as TenantDeletionDto[]).find((d) => d.id === res.body.id)?.status).toBe('done');
  });

  it('is refused while a channel is connected unless forced; forced, it disconnects and deletes', async () => {
    const { tenant } = await server.createTenantThroughApi();
    const channel = await req('POST', '/admin/channels', { token: superToken, body: { tenantId: tenant.id, ...wabaBody(bed.fake) } });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    await server.deps.dataSource.query(`UPDATE channels SET status = 'CONNECTED' WHERE id = $1`, [channel.body.id]);

    const refusedDelete = await req('DELETE', `/admin/tenants/${tenant.id}`, { token: superToken });
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.error).toBe('ERR_TENANT_CHANNELS_CONNECTED');
    expect((await req('GET', `/admin/tenants/${tenant.id}`, { token: superToken })).body.status).toBe('active');

    const malformed = await req('DELETE', `/admin/tenants/${tenant.id}?force=talvez`, { token: superToken });
    expect(malformed.status).toBe(400);

    const forced = await req('DELETE', `/admin/tenants/${tenant.id}?force=true`, { token: superToken });
    expect(forced.status).toBe(202);
    expect((await waitForDeletion(forced.body.id)).status).toBe('done');
    expect(await countOf('channels', tenant.id)).toBe(0);
  });

  it('a second deletion while one is queued is refused (409); a rerun after a crash finishes the job', async () => {
    const { tenant } = await server.createTenantThroughApi();
    await seedConversation(tenant.id);
    // Queued by hand (no job), as if the process died before running it.
    const [row] = await server.deps.dataSource.query(
      `INSERT INTO tenant_deletions ("tenantId", "tenantName", status, progress, step) VALUES ($1, $2, 'running', 40, 'tickets') RETURNING id`,
      [tenant.id, tenant.name],
    );
    const second = await req('DELETE', `/admin/tenants/${tenant.id}`, { token: superToken });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('ERR_TENANT_DELETION_RUNNING');
    const shown = (await req('GET', `/admin/tenants/${tenant.id}`, { token: superToken })).body as AdminTenantDto;
    expect(shown.deletion).toMatchObject({ status: 'running', progress: 40, step: 'tickets' });
    await runTenantDeletion(server.deps, row.id);
    expect((await req('GET', `/admin/tenant-deletions/${row.id}`, { token: superToken })).body.status).toBe('done');
    expect(await countOf('messages', tenant.id)).toBe(0);
  });
});

describe('GET /admin/users', () => {
  it('lists users of every tenant, filtered by tenant (home or linked) and by name or e-mail', async () => {
    const a = await server.createTenantThroughApi();
    const b = await server.createTenantThroughApi();
    const agent = await server.createUser(a.tenant.id, { profile: 'user', name: `Agente ${unique()}` });
    const link = await req('POST', '/userTenants', { token: superToken, body: { userId: agent.id, tenantId: b.tenant.id } });
    expect(link.status, JSON.stringify(link.body)).toBe(201);

    const ofA = await req('GET', `/admin/users?tenantId=${a.tenant.id}`, { token: superToken });
    expect(ofA.status).toBe(200);
    expect(ofA.body.users.map((u: any) => u.id).sort()).toEqual([a.admin.id, agent.id].sort());
    const ofB = await req('GET', `/admin/users?tenantId=${b.tenant.id}`, { token: superToken });
    const linked = ofB.body.users.find((u: any) => u.id === agent.id);
    expect(linked).toMatchObject({ tenantId: a.tenant.id, tenantName: a.tenant.name });
    expect(linked.linkedTenants.map((l: any) => l.tenantId).sort()).toEqual([a.tenant.id, b.tenant.id].sort());

    const search = await req('GET', `/admin/users?searchParam=${encodeURIComponent(agent.email.toUpperCase())}`, { token: superToken });
    expect(search.body).toMatchObject({ count: 1, hasMore: false });
    expect(search.body.users[0].id).toBe(agent.id);
    const bad = await req('GET', '/admin/users?tenantId=abc', { token: superToken });
    expect(bad.status).toBe(400);
  });
});

describe('/admin/channels/:channelId actions (/sessoestenants)', () => {
  it('the super administrator disconnects, restarts and deletes another tenant\'s channel; unknown channel 404', async () => {
    const { tenant } = await server.createTenantThroughApi();
    const channel = await req('POST', '/admin/channels', { token: superToken, body: { tenantId: tenant.id, ...wabaBody(bed.fake) } });
    expect(channel.status).toBe(201);
    const restarted = await req('PUT', `/admin/channels/${channel.body.id}/session`, { token: superToken });
    expect(restarted.status, JSON.stringify(restarted.body)).toBe(200);
    expect(restarted.body.id).toBe(channel.body.id);
    const ended = await req('DELETE', `/admin/channels/${channel.body.id}/session`, { token: superToken });
    expect(ended.status).toBe(200);
    const removed = await req('DELETE', `/admin/channels/${channel.body.id}`, { token: superToken });
    expect(removed.status).toBe(204);
    expect(await countOf('channels', tenant.id)).toBe(0);
    expect((await req('DELETE', `/admin/channels/${channel.body.id}`, { token: superToken })).status).toBe(404);
  });
});

describe('the connection limit comes from the plan', () => {
  it('exactly maxConnections channels are allowed, one more is refused; overriding the limit lets it in', async () => {
    const { tenant, admin } = await server.createTenantThroughApi({ maxConnections: 2 });
    const create = () => req('POST', '/whatsapp', { token: admin.token, body: wabaBody(bed.fake) });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    const over = await create();
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'ERR_CONNECTION_LIMIT', message: 'Limite de conexões atingidas' });
    expect(await countOf('channels', tenant.id)).toBe(2);
    const raised = await req('PUT', `/admin/empresa/${tenant.id}`, {
      token: superToken,
      body: { limitsOverride: true, maxUsers: 10, maxConnections: 3 },
    });
    expect(raised.body.maxConnections).toBe(3);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(400);
  });
});

describe('/admin/channels (every tenant\'s channels) is the platform\'s too', () => {
  it('a superadmin profile outside tenant 1 cannot list or create them', async () => {
    const token = refused['superadmin of another tenant']!;
    expect((await req('GET', '/admin/channels', { token })).status).toBe(403);
    const created = await req('POST', '/admin/channels', { token, body: { tenantId: 2, ...wabaBody(bed.fake) } });
    expect(created.status).toBe(403);
  });
});
