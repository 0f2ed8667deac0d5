import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { createWabaChannel, startWabaTestBed, wabaBody, type WabaTestBed } from '../../channels/waba/waba.test-support';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';

let bed: WabaTestBed;
beforeAll(async () => {
  bed = await startWabaTestBed();
});
afterAll(async () => bed?.close());

const SECRET_FIELDS = ['wabaManagerToken', 'wabaAppSecret', 'wabaVerifyToken'];

/** No token, app secret or verify token anywhere in an answer. */
function expectNoSecrets(body: unknown, secrets: string[]): void {
  const text = JSON.stringify(body);
  for (const field of SECRET_FIELDS) expect(text).not.toContain(`"${field}"`);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

const req = (method: string, url: string, opts?: { token?: string; body?: unknown }) => bed.server.request(method, url, opts);

describe('POST /whatsapp', () => {
  it('creates a waba channel (201), keeps the secrets out of the answer, checks the credentials and announces it', async () => {
    const a = await bed.server.createTenantWithUsers();
    const body = wabaBody(bed.fake, { birthdayHour: 9, autoDistribution: 'balanced', farewellMessage: 'Até logo!' });
    const res = await req('POST', '/whatsapp', { token: a.users.admin.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: body.name,
      type: 'waba',
      isDefault: true,
      birthdayHour: 9,
      autoDistribution: 'balanced',
      farewellMessage: 'Até logo!',
      wabaPhoneNumberId: bed.fake.phoneNumberId,
      wabaBusinessAccountId: bed.fake.businessAccountId,
      wabaApiVersion: 'v21.0',
      hasManagerToken: true,
      hasAppSecret: true,
      hasVerifyToken: true,
      webhookUrl: `https://atende.example.com/webhooks/waba/${res.body.id}`,
    });
    expectNoSecrets(res.body, [body.wabaManagerToken as string, body.wabaAppSecret as string, body.wabaVerifyToken as string]);
    const created = await bed.server.deps.dataSource.query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq LIMIT 1`,
      [a.tenant.id, SOCKET_EVENTS.whatsappUpdate],
    );
    expect(created[0].payload).toMatchObject({ action: 'create', whatsapp: { id: res.body.id } });
    expect(created[0].audience).toEqual({ scope: 'tenant' });

    await bed.server.deps.channels.idle();
    const [row] = await bed.server.deps.dataSource.query(
      `SELECT status, number, secrets, "providerConfig" FROM channels WHERE id = $1`,
      [res.body.id],
    );
    expect(row.status).toBe('CONNECTED');
    expect(row.number).toBe('551140000000');
    expect(row.secrets).toEqual({
      wabaManagerToken: body.wabaManagerToken,
      wabaAppSecret: body.wabaAppSecret,
      wabaVerifyToken: body.wabaVerifyToken,
    });
    const session = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappSession);
    expect(session?.payload.session).toMatchObject({ id: res.body.id, status: 'CONNECTED' });
    expect(session?.audience).toEqual({ scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] });
    expectNoSecrets(session?.payload, [body.wabaManagerToken as string]);
  });

  it("stores DISCONNECTED with Graph's reason when the token is refused", async () => {
    const a = await bed.server.createTenantWithUsers();
    const res = await req('POST', '/whatsapp', {
      token: a.users.admin.token,
      body: wabaBody(bed.fake, { wabaManagerToken: 'EAAG-wrong' }),
    });
    expect(res.status).toBe(201);
    await bed.server.deps.channels.idle();
    const one = await req('GET', `/whatsapp/${res.body.id}`, { token: a.users.admin.token });
    expect(one.body.status).toBe('DISCONNECTED');
    expect(one.body.statusReason).toContain('Error validating access token');
  });

  it('names every missing waba field (400)', async () => {
    const a = await bed.server.createTenantWithUsers();
    const res = await req('POST', '/whatsapp', { token: a.users.admin.token, body: { type: 'waba', name: 'Sem dados' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(
      [
        'wabaApiVersion',
        'wabaAppSecret',
        'wabaBusinessAccountId',
        'wabaManagerToken',
        'wabaPhoneNumberId',
        'wabaVerifyToken',
      ].sort(),
    );
    const bad = await req('POST', '/whatsapp', {
      token: a.users.admin.token,
      body: wabaBody(bed.fake, { wabaApiVersion: '21', birthdayHour: 24, name: '' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['birthdayHour', 'name', 'wabaApiVersion']);
    expect((await bed.server.deps.dataSource.query(`SELECT 1 FROM channels WHERE "tenantId" = $1`, [a.tenant.id])).length).toBe(
      0,
    );
  });

  it('refuses a channel type without a provider yet (400 ERR_CHANNEL_TYPE_UNSUPPORTED) and an unknown type (400 ERR_VALIDATION)', async () => {
    const a = await bed.server.createTenantWithUsers();
    // A provider taken out of the registry stands for one whose adapter does not exist yet.
    const registry = bed.server.deps.channels;
    const had = registry.supports('baileys');
    const factory = (registry as unknown as { factories: Record<string, never> }).factories.baileys;
    registry.unregister('baileys');
    try {
      const unsupported = await req('POST', '/whatsapp', {
        token: a.users.admin.token,
        body: { type: 'baileys', name: 'Celular' },
      });
      expect(unsupported.status).toBe(400);
      expect(unsupported.body.error).toBe('ERR_CHANNEL_TYPE_UNSUPPORTED');
      expect(unsupported.body.message).toContain('baileys');
    } finally {
      if (had) registry.register('baileys', factory);
    }
    const unknown = await req('POST', '/whatsapp', { token: a.users.admin.token, body: { type: 'fax', name: 'Fax' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields[0].path).toBe('type');
  });

  it("refuses the plan's connection limit with 'Limite de conexões atingidas', also under concurrent creates", async () => {
    const tenant = await bed.server.createTenant({ maxConnections: 2 });
    const admin = await bed.server.createUser(tenant.id, { profile: 'admin' });
    const token = (await bed.server.login(admin)).token;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => req('POST', '/whatsapp', { token, body: wabaBody(bed.fake) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'ERR_CONNECTION_LIMIT', message: 'Limite de conexões atingidas' });
    }
    const defaults = await bed.server.deps.dataSource.query(`SELECT id FROM channels WHERE "tenantId" = $1 AND "isDefault"`, [
      tenant.id,
    ]);
    expect(defaults).toHaveLength(1);
    await bed.server.deps.channels.idle();
  });

  it('refuses a queue or user of another tenant (400)', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const queue = await req('POST', '/queue', { token: b.users.admin.token, body: { name: 'Fila B' } });
    const res = await req('POST', '/whatsapp', {
      token: a.users.admin.token,
      body: wabaBody(bed.fake, { queueId: queue.body.id }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    const user = await req('POST', '/whatsapp', {
      token: a.users.admin.token,
      body: wabaBody(bed.fake, { userId: b.users.user.id }),
    });
    expect(user.status).toBe(400);
    expect(user.body.error).toBe('ERR_NO_USER_FOUND');
  });

  it('is admin only (403 for supervisors and agents) and needs a token (401)', async () => {
    const a = await bed.server.createTenantWithUsers();
    const before = await eventCount(bed.server, a.tenant.id);
    for (const profile of ['super', 'user'] as const) {
      const res = await req('POST', '/whatsapp', { token: a.users[profile].token, body: wabaBody(bed.fake) });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await req('POST', '/whatsapp', { body: wabaBody(bed.fake) })).status).toBe(401);
    expect(await eventCount(bed.server, a.tenant.id)).toBe(before);
    expect(await bed.server.deps.dataSource.query(`SELECT 1 FROM channels WHERE "tenantId" = $1`, [a.tenant.id])).toEqual([]);
  });
});

describe('GET /whatsapp and /whatsapp/:whatsappId', () => {
  it('lists the tenant channels for admins and supervisors (with and without the trailing slash), never another tenant channels or secrets', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const mine = await createWabaChannel(bed, a.users.admin.token);
    const theirs = await createWabaChannel(bed, b.users.admin.token);
    for (const path of ['/whatsapp', '/whatsapp/']) {
      for (const profile of ['admin', 'super'] as const) {
        const res = await req('GET', path, { token: a.users[profile].token });
        expect(res.status).toBe(200);
        expect(res.body.map((c: { id: number }) => c.id)).toEqual([mine.id]);
        expectNoSecrets(res.body, [mine.appSecret, mine.verifyToken, bed.fake.token]);
      }
    }
    expect((await req('GET', `/whatsapp/${theirs.id}`, { token: a.users.admin.token })).status).toBe(404);
  });

  it('answers one channel (200), another tenant channel as 404, agents 403, no token 401', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const mine = await createWabaChannel(bed, a.users.admin.token);
    const one = await req('GET', `/whatsapp/${mine.id}`, { token: a.users.super.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: mine.id, status: 'CONNECTED', hasManagerToken: true });
    expectNoSecrets(one.body, [mine.appSecret, mine.verifyToken, bed.fake.token]);
    const other = await req('GET', `/whatsapp/${mine.id}`, { token: b.users.admin.token });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await req('GET', `/whatsapp/${mine.id}`, { token: a.users.user.token })).status).toBe(403);
    // Agents list the channels (ticket filter, transfer) without any of their setup.
    const agentList = await req('GET', '/whatsapp', { token: a.users.user.token });
    expect(agentList.status).toBe(200);
    expect(agentList.body).toEqual([
      expect.objectContaining({ id: mine.id, name: expect.any(String), status: 'CONNECTED', webhookUrl: null }),
    ]);
    expect(agentList.body[0]).toMatchObject({ wabaPhoneNumberId: null, hasManagerToken: false, providerSettings: {} });
    expectNoSecrets(agentList.body, [mine.appSecret, mine.verifyToken, bed.fake.token]);
    expect((await req('GET', '/whatsapp', { token: b.users.user.token })).body).toEqual([]);
    expect((await req('GET', `/whatsapp/${mine.id}`)).status).toBe(401);
    expect((await req('GET', '/whatsapp')).status).toBe(401);
    const bad = await req('GET', '/whatsapp/abc', { token: a.users.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('whatsappId');
  });
});

describe('PUT /whatsapp/:whatsappId', () => {
  it('updates behaviour fields, keeps secrets sent empty, replaces a new token and checks it again', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const queue = await req('POST', '/queue', { token: a.users.admin.token, body: { name: 'Atendimento' } });
    const res = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: {
        name: 'Renomeado',
        queueId: queue.body.id,
        closingKeyword: 'encerrar',
        wabaAppSecret: '',
        wabaManagerToken: 'EAAG-new-token',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renomeado', queueId: queue.body.id, closingKeyword: 'encerrar', hasAppSecret: true });
    expectNoSecrets(res.body, ['EAAG-new-token', ch.appSecret]);
    const event = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappUpdate);
    expect(event?.payload.whatsapp.id).toBe(ch.id);
    await bed.server.deps.channels.idle();
    const [row] = await bed.server.deps.dataSource.query(`SELECT status, "statusReason", secrets FROM channels WHERE id = $1`, [
      ch.id,
    ]);
    expect(row.secrets.wabaAppSecret).toBe(ch.appSecret);
    expect(row.secrets.wabaManagerToken).toBe('EAAG-new-token');
    // The fake does not know the new token: the check fails and says why.
    expect(row.status).toBe('DISCONNECTED');
    expect(row.statusReason).toContain('#190');
  });

  it("sets the chatbot flow new tickets start (the tenant's own only) and clears it", async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const flow = {
      startStepId: 's',
      steps: [{ id: 's', name: 'Início', conditions: [{ id: 'c', type: 'any', target: { type: 'close' } }] }],
    };
    const mine = await req('POST', '/chat-flow', { token: a.users.admin.token, body: { name: 'Bot', active: true, flow } });
    const theirs = await req('POST', '/chat-flow', { token: b.users.admin.token, body: { name: 'Bot', flow } });
    const set = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { chatFlowId: mine.body.id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.chatFlowId).toBe(mine.body.id);
    const foreign = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { chatFlowId: theirs.body.id } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('ERR_NO_CHATFLOW_FOUND');
    expect(foreign.body.fields[0].path).toBe('chatFlowId');
    const cleared = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { chatFlowId: null } });
    expect(cleared.body.chatFlowId).toBeNull();
  });

  it('another tenant 404 (row unchanged), supervisor 403, malformed 400 naming the field, no token 401', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const other = await req('PUT', `/whatsapp/${ch.id}`, { token: b.users.admin.token, body: { name: 'Invadido' } });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.super.token, body: { name: 'X' } })).status).toBe(403);
    const bad = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { autoDistribution: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('autoDistribution');
    const empty = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: {} });
    expect(empty.status).toBe(400);
    expect((await req('PUT', `/whatsapp/${ch.id}`, { body: { name: 'X' } })).status).toBe(401);
    const [row] = await bed.server.deps.dataSource.query(`SELECT name FROM channels WHERE id = $1`, [ch.id]);
    expect(row.name).toBe(ch.body.name);
  });
});

describe('PUT /whatsapp/:whatsappId generativeChat (issue #14: the chatbot\'s AI endpoint)', () => {
  const KEY = 'sk-live-0123456789abcdef';
  const stored = async (id: number) =>
    (await bed.server.deps.dataSource.query(`SELECT integrations FROM channels WHERE id = $1`, [id]))[0].integrations;

  it('saves it in integrations.generativeChat, answers it with the key masked, keeps the key when sent empty, clears it on request', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    expect(ch.body.generativeChat).toBeNull();
    const save = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: { generativeChat: { enabled: true, baseUrl: ' https://ai.example.com/v1/ ', model: 'gpt-4o-mini', apiKey: KEY } },
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.generativeChat).toEqual({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt-4o-mini', hasApiKey: true });
    expect(JSON.stringify(save.body)).not.toContain(KEY);
    expect((await stored(ch.id)).generativeChat).toEqual({
      enabled: true,
      baseUrl: 'https://ai.example.com/v1',
      model: 'gpt-4o-mini',
      apiKey: KEY,
    });

    // Read back: one, the list, the event; never the key.
    const one = await req('GET', `/whatsapp/${ch.id}`, { token: a.users.admin.token });
    expect(one.body.generativeChat).toEqual(save.body.generativeChat);
    const list = await req('GET', '/whatsapp', { token: a.users.super.token });
    expect(list.body.find((c: { id: number }) => c.id === ch.id).generativeChat.hasApiKey).toBe(true);
    const agents = await req('GET', '/whatsapp', { token: a.users.user.token });
    expect(agents.body.find((c: { id: number }) => c.id === ch.id).generativeChat).toBeNull();
    const event = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappUpdate);
    for (const text of [one.body, list.body, agents.body, event?.payload].map((b) => JSON.stringify(b))) expect(text).not.toContain(KEY);

    // An empty key (the form never shows the stored one) keeps it; the other settings change.
    const keep = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: { generativeChat: { enabled: true, baseUrl: 'http://10.0.0.5:11434/v1', model: 'llama3', apiKey: '' } },
    });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    expect(keep.body.generativeChat).toEqual({ enabled: true, baseUrl: 'http://10.0.0.5:11434/v1', model: 'llama3', hasApiKey: true });
    expect((await stored(ch.id)).generativeChat.apiKey).toBe(KEY);
    // The answer echoed back as is (hasApiKey included) changes nothing and keeps the key.
    const echoed = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { generativeChat: keep.body.generativeChat } });
    expect(echoed.status, JSON.stringify(echoed.body)).toBe(200);
    expect((await stored(ch.id)).generativeChat.apiKey).toBe(KEY);

    // Turned off: the model may be empty; the key stays until cleared.
    const off = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: { generativeChat: { enabled: false, baseUrl: '', model: '' } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.generativeChat).toEqual({ enabled: false, baseUrl: '', model: '', hasApiKey: true });

    const cleared = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: { generativeChat: { enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'm', clearApiKey: true } },
    });
    expect(cleared.body.generativeChat).toEqual({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'm', hasApiKey: false });
    expect((await stored(ch.id)).generativeChat).not.toHaveProperty('apiKey');

    // Other settings of the channel leave it alone; null removes it.
    await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { closingKeyword: 'fim' } });
    expect((await stored(ch.id)).generativeChat.model).toBe('m');
    const removed = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { generativeChat: null } });
    expect(removed.body.generativeChat).toBeNull();
    expect(await stored(ch.id)).not.toHaveProperty('generativeChat');
  });

  it('refuses a malformed body (400 ERR_VALIDATION naming each field), another tenant (404), supervisors and agents (403), no token (401)', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const good = { generativeChat: { enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', apiKey: KEY } };
    const cases: [unknown, string[]][] = [
      [{ enabled: true, baseUrl: 'ftp://ai.example.com', model: 'gpt' }, ['generativeChat.baseUrl']],
      [{ enabled: true, baseUrl: '', model: ' ' }, ['generativeChat.baseUrl', 'generativeChat.model']],
      [{ enabled: 'yes', baseUrl: 'https://x.example.com', model: 'gpt' }, ['generativeChat.enabled']],
      [{ baseUrl: 'https://x.example.com', model: 'gpt', apiKey: 'sk-new', clearApiKey: true }, ['generativeChat.apiKey']],
      [{ baseUrl: 'https://x.example.com', model: 'gpt', token: 'x' }, ['generativeChat.token']],
      ['https://x.example.com', ['generativeChat']],
    ];
    for (const [generativeChat, paths] of cases) {
      const res = await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.admin.token, body: { generativeChat } });
      expect(res.status, JSON.stringify(generativeChat)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(paths);
    }
    const required = await req('PUT', `/whatsapp/${ch.id}`, {
      token: a.users.admin.token,
      body: { generativeChat: { enabled: true, baseUrl: 'https://x.example.com', model: '' } },
    });
    expect(required.body.fields).toEqual([{ path: 'generativeChat.model', message: 'é obrigatório quando o chat generativo está ativo' }]);

    const other = await req('PUT', `/whatsapp/${ch.id}`, { token: b.users.admin.token, body: good });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.super.token, body: good })).status).toBe(403);
    expect((await req('PUT', `/whatsapp/${ch.id}`, { token: a.users.user.token, body: good })).status).toBe(403);
    expect((await req('PUT', `/whatsapp/${ch.id}`, { body: good })).status).toBe(401);
    expect(await stored(ch.id)).toEqual({});
  });
});

describe('PUT /whatsapp/:whatsappId/default', () => {
  it('moves the default to the channel (one per tenant) and announces both', async () => {
    const a = await bed.server.createTenantWithUsers();
    const first = await createWabaChannel(bed, a.users.admin.token);
    const second = await createWabaChannel(bed, a.users.admin.token);
    expect(first.body.isDefault).toBe(true);
    expect(second.body.isDefault).toBe(false);
    const res = await req('PUT', `/whatsapp/${second.id}/default`, { token: a.users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.isDefault).toBe(true);
    const defaults = await bed.server.deps.dataSource.query(`SELECT id FROM channels WHERE "tenantId" = $1 AND "isDefault"`, [
      a.tenant.id,
    ]);
    expect(defaults).toEqual([{ id: second.id }]);
    const events = await bed.server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq DESC LIMIT 2`,
      [a.tenant.id, SOCKET_EVENTS.whatsappUpdate],
    );
    expect(events.map((e: any) => [e.payload.whatsapp.id, e.payload.whatsapp.isDefault]).sort()).toEqual(
      [
        [first.id, false],
        [second.id, true],
      ].sort(),
    );
  });

  it('another tenant 404, supervisor 403, bad id 400, no token 401', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    expect((await req('PUT', `/whatsapp/${ch.id}/default`, { token: b.users.admin.token })).status).toBe(404);
    expect((await req('PUT', `/whatsapp/${ch.id}/default`, { token: a.users.super.token })).status).toBe(403);
    expect((await req('PUT', `/whatsapp/0/default`, { token: a.users.admin.token })).status).toBe(400);
    expect((await req('PUT', `/whatsapp/${ch.id}/default`)).status).toBe(401);
  });
});

describe('DELETE /whatsapp/:whatsappId', () => {
  it('deletes (204), keeps tickets with an empty channel, announces whatsapp:delete', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const ds = bed.server.deps.dataSource;
    const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name) VALUES ($1, 'Ana') RETURNING id`, [a.tenant.id]);
    const [ticket] = await ds.query(
      `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", status) VALUES ($1, $2, $3, 'closed') RETURNING id`,
      [a.tenant.id, contact.id, ch.id],
    );
    const res = await req('DELETE', `/whatsapp/${ch.id}`, { token: a.users.admin.token });
    expect(res.status).toBe(204);
    expect(await ds.query(`SELECT id FROM channels WHERE id = $1`, [ch.id])).toEqual([]);
    expect(await ds.query(`SELECT "whatsappId" FROM tickets WHERE id = $1`, [ticket.id])).toEqual([{ whatsappId: null }]);
    const event = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappDelete);
    expect(event?.payload).toEqual({ action: 'delete', id: ch.id });
  });

  it('another tenant 404 (row kept), supervisor 403, no token 401', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    expect((await req('DELETE', `/whatsapp/${ch.id}`, { token: b.users.admin.token })).status).toBe(404);
    expect((await req('DELETE', `/whatsapp/${ch.id}`, { token: a.users.super.token })).status).toBe(403);
    expect((await req('DELETE', `/whatsapp/${ch.id}`)).status).toBe(401);
    expect(await bed.server.deps.dataSource.query(`SELECT id FROM channels WHERE id = $1`, [ch.id])).toHaveLength(1);
  });
});

describe('GET /whatsapp/:whatsappId/templates and POST .../templates/sync', () => {
  it('syncs the business account templates (every page) for admins and supervisors; GET answers the stored list', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const saved = bed.fake.templates;
    bed.fake.templates = Array.from({ length: 130 }, (_, i) => ({
      id: String(5000 + i),
      name: `modelo_${i}`,
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: i === 0 ? 'Oi {{1}}, pedido {{2}}' : 'Oi' }],
    }));
    try {
      expect((await req('GET', `/whatsapp/${ch.id}/templates`, { token: a.users.admin.token })).body).toEqual([]);
      for (const profile of ['admin', 'super'] as const) {
        const res = await req('POST', `/whatsapp/${ch.id}/templates/sync`, { token: a.users[profile].token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.templates).toHaveLength(130);
        expect(res.body.counts).toEqual(
          profile === 'admin'
            ? { total: 130, created: 130, updated: 0, removed: 0 }
            : { total: 130, created: 0, updated: 130, removed: 0 },
        );
        const list = await req('GET', `/whatsapp/${ch.id}/templates`, { token: a.users[profile].token });
        expect(list.status).toBe(200);
        expect(list.body).toHaveLength(130);
        expect(list.body.find((t: any) => t.name === 'modelo_0')).toMatchObject({
          id: '5000',
          name: 'modelo_0',
          language: 'pt_BR',
          status: 'APPROVED',
          category: 'UTILITY',
          bodyVariables: 2,
          variables: { header: 0, body: 2, buttons: 0 },
          syncedAt: expect.any(String),
        });
      }
    } finally {
      bed.fake.templates = saved;
    }
    const call = bed.fake.requests.find((r) => r.path.endsWith(`/${bed.fake.businessAccountId}/message_templates`));
    expect(call?.headers.authorization).toBe(`Bearer ${bed.fake.token}`);
  });

  it('a new sync updates changed templates, adds new ones and removes the ones Meta no longer lists', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const saved = bed.fake.templates;
    try {
      const first = await req('POST', `/whatsapp/${ch.id}/templates/sync`, { token: a.users.admin.token });
      expect(first.body.counts).toMatchObject({ total: saved.length, created: saved.length, removed: 0 });
      expect(first.body.templates.find((t: any) => t.name === 'pedido_enviado')).toMatchObject({
        variables: { header: 1, body: 2, buttons: 1 },
      });
      bed.fake.templates = [
        { ...saved[0], status: 'PAUSED' },
        { id: '9001', name: 'novo_modelo', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hola' }] },
      ];
      const second = await req('POST', `/whatsapp/${ch.id}/templates/sync`, { token: a.users.super.token });
      expect(second.body.counts).toEqual({ total: 2, created: 1, updated: 1, removed: saved.length - 1 });
      const list = await req('GET', `/whatsapp/${ch.id}/templates`, { token: a.users.admin.token });
      expect(list.body.map((t: any) => [t.name, t.language, t.status])).toEqual([
        [saved[0].name, saved[0].language, 'PAUSED'],
        ['novo_modelo', 'es', 'APPROVED'],
      ]);
    } finally {
      bed.fake.templates = saved;
    }
  });

  it('GET ?refresh=1 syncs first when nothing is stored', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const res = await req('GET', `/whatsapp/${ch.id}/templates?refresh=1`, { token: a.users.super.token });
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.name)).toContain('boas_vindas');
    const rows = await bed.server.deps.dataSource.query(`SELECT count(*)::int AS n FROM message_templates WHERE "channelId" = $1`, [ch.id]);
    expect(rows[0].n).toBe(bed.fake.templates.length);
  });

  it('answers Graph failures clearly: 4xx as ERR_WABA_INVALID_DATA, 5xx as ERR_CHANNEL_UNAVAILABLE', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    bed.fake.failNext({ status: 400, error: { message: '(#100) Invalid WABA id', code: 100 } }, { path: 'message_templates' });
    const bad = await req('POST', `/whatsapp/${ch.id}/templates/sync`, { token: a.users.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_WABA_INVALID_DATA');
    expect(bad.body.message).toContain('Invalid WABA id');
    bed.fake.failNext({ status: 503 }, { path: 'message_templates' });
    const down = await req('GET', `/whatsapp/${ch.id}/templates?refresh=1`, { token: a.users.admin.token });
    expect(down.status).toBe(503);
    expect(down.body.error).toBe('ERR_CHANNEL_UNAVAILABLE');
  });

  it('another tenant 404, agent 403, no token 401, a channel that is not WABA 400', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    for (const [method, url] of [
      ['GET', `/whatsapp/${ch.id}/templates`],
      ['POST', `/whatsapp/${ch.id}/templates/sync`],
    ] as const) {
      expect((await req(method, url, { token: b.users.admin.token })).status).toBe(404);
      expect((await req(method, url, { token: a.users.user.token })).status).toBe(403);
      expect((await req(method, url)).status).toBe(401);
    }
    const other = await req('POST', '/whatsapp', { token: a.users.admin.token, body: { type: 'baileys', name: 'Celular' } });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const refused = await req('POST', `/whatsapp/${other.body.id}/templates/sync`, { token: a.users.admin.token });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    expect(refused.body.message).toBe('Modelos de mensagem existem apenas em conexões WABA.');
  });
});

describe('/whatsappsession/:whatsappId', () => {
  it('DELETE ends the session, POST starts it again (credentials checked), with session events', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const ended = await req('DELETE', `/whatsappsession/${ch.id}`, { token: a.users.admin.token });
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('DISCONNECTED');
    const started = await req('POST', `/whatsappsession/${ch.id}`, { token: a.users.admin.token });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('CONNECTED');
    const session = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappSession);
    expect(session?.payload.session.status).toBe('CONNECTED');
  });

  it('another tenant 404, supervisor 403, no token 401', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await req(method, `/whatsappsession/${ch.id}`, { token: b.users.admin.token })).status).toBe(404);
      expect((await req(method, `/whatsappsession/${ch.id}`, { token: a.users.super.token })).status).toBe(403);
      expect((await req(method, `/whatsappsession/${ch.id}`)).status).toBe(401);
    }
  });
});

describe('GET|POST /admin/channels (superadmin, every tenant)', () => {
  async function superadminToken(): Promise<string> {
    const platform = await platformTenant(bed.server);
    const superadmin = await bed.server.createUser(platform.id, { profile: 'superadmin' });
    return (await bed.server.login(superadmin)).token;
  }

  it("lists every tenant's channels with their tenant, without secrets", async () => {
    const token = await superadminToken();
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    const ca = await createWabaChannel(bed, a.users.admin.token);
    const cb = await createWabaChannel(bed, b.users.admin.token);
    const res = await req('GET', '/admin/channels', { token });
    expect(res.status).toBe(200);
    const mine = res.body.filter((c: { id: number }) => [ca.id, cb.id].includes(c.id));
    expect(mine).toHaveLength(2);
    expect(mine.find((c: { id: number }) => c.id === ca.id)).toMatchObject({ tenantId: a.tenant.id, tenantName: a.tenant.name });
    expect(mine.find((c: { id: number }) => c.id === cb.id)).toMatchObject({ tenantId: b.tenant.id, tenantName: b.tenant.name });
    expectNoSecrets(res.body, [ca.appSecret, ca.verifyToken, bed.fake.token]);
  });

  it('creates a channel for a tenant within its plan; unknown tenant 404; malformed 400', async () => {
    const token = await superadminToken();
    const tenant = await bed.server.createTenant({ maxConnections: 1 });
    const created = await req('POST', '/admin/channels', { token, body: { tenantId: tenant.id, ...wabaBody(bed.fake) } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenantId: tenant.id, type: 'waba', isDefault: true });
    const [row] = await bed.server.deps.dataSource.query(`SELECT "tenantId" FROM channels WHERE id = $1`, [created.body.id]);
    expect(row.tenantId).toBe(tenant.id);
    const over = await req('POST', '/admin/channels', { token, body: { tenantId: tenant.id, ...wabaBody(bed.fake) } });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('Limite de conexões atingidas');
    const unknown = await req('POST', '/admin/channels', { token, body: { tenantId: 99_999_999, ...wabaBody(bed.fake) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_TENANT_FOUND');
    const bad = await req('POST', '/admin/channels', { token, body: { tenantId: 'x', type: 'fax' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['tenantId', 'type']));
    await bed.server.deps.channels.idle();
  });

  it('refuses every other profile (403) and no token (401)', async () => {
    const a = await bed.server.createTenantWithUsers();
    for (const caller of [a.users.admin, a.users.super, a.users.user]) {
      expect((await req('GET', '/admin/channels', { token: caller.token })).status, caller.profile).toBe(403);
      const post = await req('POST', '/admin/channels', {
        token: caller.token,
        body: { tenantId: a.tenant.id, ...wabaBody(bed.fake) },
      });
      expect(post.status, caller.profile).toBe(403);
    }
    expect((await bed.server.deps.dataSource.query(`SELECT 1 FROM channels WHERE "tenantId" = $1`, [a.tenant.id])).length).toBe(
      0,
    );
    expect((await req('GET', '/admin/channels')).status).toBe(401);
  });
});
