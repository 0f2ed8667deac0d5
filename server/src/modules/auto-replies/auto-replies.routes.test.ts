import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Tenant = Awaited<ReturnType<TestServer['createTenantWithUsers']>>;

/** A bot with two steps (the first initial) and an action from the first to the second. */
async function botOf(t: Tenant) {
  const token = t.users.admin.token;
  const bot = await server.request('POST', '/auto-reply', { token, body: { name: 'Menu', isActive: true } });
  expect(bot.status, JSON.stringify(bot.body)).toBe(201);
  const first = await server.request('POST', `/auto-reply/${bot.body.id}/steps`, {
    token,
    body: { reply: 'Digite 1 para vendas' },
  });
  const second = await server.request('POST', `/auto-reply/${bot.body.id}/steps`, { token, body: { reply: 'Qual produto?' } });
  const action = await server.request('POST', '/auto-reply-action', {
    token,
    body: { stepReplyId: first.body.id, words: '1, vendas', action: 0, nextStepId: second.body.id, replyDefinition: 'Ok!' },
  });
  expect(action.status, JSON.stringify(action.body)).toBe(201);
  return { bot: bot.body, first: first.body, second: second.body, action: action.body };
}

describe('auto-reply CRUD', () => {
  it('creates a bot, its steps (the first is initial) and an action, and lists them nested', async () => {
    const t = await server.createTenantWithUsers();
    const { bot, first, second, action } = await botOf(t);
    expect(bot).toMatchObject({ name: 'Menu', action: 0, active: true, testNumber: null, stepsReply: [] });
    expect(first).toMatchObject({ idAutoReply: bot.id, initialStep: true, reply: 'Digite 1 para vendas' });
    expect(second.initialStep).toBe(false);
    expect(action).toMatchObject({
      stepReplyId: first.id,
      action: 0,
      nextStepId: second.id,
      queueId: null,
      replyDefinition: 'Ok!',
    });
    const list = await server.request('GET', '/auto-reply', { token: t.users.super.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].stepsReply.map((s: { id: number }) => s.id)).toEqual([first.id, second.id]);
    expect(list.body[0].stepsReply[0].stepsReplyAction.map((a: { id: number }) => a.id)).toEqual([action.id]);
    // Each write told the supervisors' and admins' screens (not the agents'), in the tenant only.
    const events: { payload: { action: string; autoReplyId: number }; audience: unknown }[] = await server.deps.dataSource.query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = 'autoReply:update' ORDER BY seq`,
      [t.tenant.id],
    );
    expect(events.map((e) => e.payload)).toEqual([
      { action: 'create', autoReplyId: bot.id },
      { action: 'update', autoReplyId: bot.id },
      { action: 'update', autoReplyId: bot.id },
      { action: 'update', autoReplyId: bot.id },
    ]);
    expect(events[0].audience).toEqual({ scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] });
    // Another tenant sees none of it.
    const other = await server.createTenantWithUsers();
    expect((await server.request('GET', '/auto-reply', { token: other.users.admin.token })).body).toEqual([]);
  });

  it('edits a bot, a step (a new initial step replaces the old one) and an action (destination switched to a queue)', async () => {
    const t = await server.createTenantWithUsers();
    const token = t.users.admin.token;
    const { bot, first, second, action } = await botOf(t);
    const edited = await server.request('PUT', `/auto-reply/${bot.id}`, {
      token,
      body: { name: 'Menu 2', celularTeste: '5511999990000' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Menu 2', testNumber: '5511999990000', active: true });
    const step = await server.request('PUT', `/auto-reply/${bot.id}/steps/${second.id}`, {
      token,
      body: { reply: 'Novo', initialStep: true },
    });
    expect(step.body).toMatchObject({ reply: 'Novo', initialStep: true });
    const list = await server.request('GET', '/auto-reply', { token });
    expect(list.body[0].stepsReply.find((s: { id: number }) => s.id === first.id).initialStep).toBe(false);
    const queue = await server.request('POST', '/queue', { token, body: { name: 'Vendas' } });
    const moved = await server.request('PUT', `/auto-reply-action/${action.id}`, {
      token,
      body: { stepReplyId: first.id, words: 'vendas', action: 1, queue: queue.body.id, nextStepId: second.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ action: 1, queueId: queue.body.id, nextStepId: null, replyDefinition: null });
  });

  it('deletes an action, a step (with the actions leading to it) and a bot', async () => {
    const t = await server.createTenantWithUsers();
    const token = t.users.admin.token;
    const { bot, first, second, action } = await botOf(t);
    expect((await server.request('DELETE', `/auto-reply/${bot.id}/steps/${second.id}`, { token })).status).toBe(204);
    expect(await server.deps.dataSource.query(`SELECT id FROM auto_reply_actions WHERE id = $1`, [action.id])).toEqual([]);
    const again = await server.request('POST', '/auto-reply-action', {
      token,
      body: { stepReplyId: first.id, words: 'x', action: 2, userIdDestination: t.users.user.id },
    });
    expect((await server.request('DELETE', `/auto-reply-action/${again.body.id}`, { token })).status).toBe(204);
    expect((await server.request('DELETE', `/auto-reply/${bot.id}`, { token })).status).toBe(204);
    expect((await server.request('GET', '/auto-reply', { token })).body).toEqual([]);
  });

  it('keeps an action in its bot, and concurrent edits of one bot never fail (bot locked first)', async () => {
    const t = await server.createTenantWithUsers();
    const token = t.users.admin.token;
    const f = await botOf(t);
    const g = await botOf(t);
    const moved = await server.request('PUT', `/auto-reply-action/${f.action.id}`, {
      token,
      body: { stepReplyId: g.first.id, words: 'x', action: 0, nextStepId: g.second.id },
    });
    expect(moved.status).toBe(404);
    expect(moved.body.error).toBe('ERR_NO_STEP_AUTO_REPLY_FOUND');
    const statuses = await Promise.all([
      server.request('PUT', `/auto-reply-action/${f.action.id}`, {
        token,
        body: { stepReplyId: f.first.id, words: 'y', action: 0, nextStepId: f.second.id },
      }),
      server.request('DELETE', `/auto-reply/${f.bot.id}/steps/${f.second.id}`, { token }),
      server.request('POST', `/auto-reply/${f.bot.id}/steps`, { token, body: { reply: 'Outra', initialStep: true } }),
      server.request('DELETE', `/auto-reply-action/${f.action.id}`, { token }),
    ]).then((all) => all.map((r) => r.status));
    expect(
      statuses.every((status) => status < 500),
      JSON.stringify(statuses),
    ).toBe(true);
    const [{ initial }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS initial FROM auto_reply_steps WHERE "autoReplyId" = $1 AND "initialStep"`,
      [f.bot.id],
    );
    expect(initial).toBe(1);
  });

  it('refuses deleting a bot or a step a ticket still waits in (409 ERR_AUTO_REPLY_RELATIONED_TICKET), not once it is closed', async () => {
    const t = await server.createTenantWithUsers();
    const token = t.users.admin.token;
    const { bot, first } = await botOf(t);
    const ds = server.deps.dataSource;
    const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name) VALUES ($1, 'Ana') RETURNING id`, [t.tenant.id]);
    const [ticket] = await ds.query(
      `INSERT INTO tickets ("tenantId", "contactId", status, "autoReplyId", "stepAutoReplyId") VALUES ($1, $2, 'pending', $3, $4) RETURNING id`,
      [t.tenant.id, contact.id, bot.id, first.id],
    );
    const step = await server.request('DELETE', `/auto-reply/${bot.id}/steps/${first.id}`, { token });
    expect(step.status).toBe(409);
    expect(step.body.error).toBe('ERR_AUTO_REPLY_RELATIONED_TICKET');
    const whole = await server.request('DELETE', `/auto-reply/${bot.id}`, { token });
    expect(whole.status).toBe(409);
    expect(whole.body.error).toBe('ERR_AUTO_REPLY_RELATIONED_TICKET');
    await ds.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [ticket.id]);
    expect((await server.request('DELETE', `/auto-reply/${bot.id}`, { token })).status).toBe(204);
  });
});

describe('auto-reply routes refuse', () => {
  /** Every write route with a valid body for the bot of `t`. */
  const writes = (f: Awaited<ReturnType<typeof botOf>>) => [
    { method: 'PUT', url: `/auto-reply/${f.bot.id}`, body: { name: 'Outro' }, notFound: 'ERR_NO_AUTO_REPLY_FOUND' },
    { method: 'DELETE', url: `/auto-reply/${f.bot.id}`, notFound: 'ERR_NO_AUTO_REPLY_FOUND' },
    { method: 'POST', url: `/auto-reply/${f.bot.id}/steps`, body: { reply: 'x' }, notFound: 'ERR_NO_AUTO_REPLY_FOUND' },
    {
      method: 'PUT',
      url: `/auto-reply/${f.bot.id}/steps/${f.second.id}`,
      body: { reply: 'x' },
      notFound: 'ERR_NO_AUTO_REPLY_FOUND',
    },
    { method: 'DELETE', url: `/auto-reply/${f.bot.id}/steps/${f.second.id}`, notFound: 'ERR_NO_AUTO_REPLY_FOUND' },
    {
      method: 'POST',
      url: '/auto-reply-action',
      body: { stepReplyId: f.first.id, words: 'a', action: 0, nextStepId: f.second.id },
      notFound: 'ERR_NO_STEP_AUTO_REPLY_FOUND',
    },
    {
      method: 'PUT',
      url: `/auto-reply-action/${f.action.id}`,
      body: { stepReplyId: f.first.id, words: 'a', action: 0, nextStepId: f.second.id },
      notFound: 'ERR_NO_STEP_AUTO_REPLY_FOUND',
    },
    { method: 'DELETE', url: `/auto-reply-action/${f.action.id}`, notFound: 'ERR_NO_STEP_AUTO_REPLY_FOUND' },
  ];

  it('another tenant: 404 with the module code on every route, nothing changed', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const f = await botOf(a);
    const before = await server.request('GET', '/auto-reply', { token: a.users.admin.token });
    for (const w of writes(f)) {
      const res = await server.request(w.method, w.url, { token: b.users.admin.token, body: w.body });
      expect(res.status, `${w.method} ${w.url}`).toBe(404);
      expect(res.body.error, `${w.method} ${w.url}`).toBe(w.notFound);
    }
    expect((await server.request('GET', '/auto-reply', { token: a.users.admin.token })).body).toEqual(before.body);
    const recorded = await server.deps.dataSource.query(
      `SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = ANY($1::int[]) AND name = 'autoReply:update'`,
      [[a.tenant.id, b.tenant.id]],
    );
    expect(recorded[0].n).toBe(4); // the set-up's writes only
  });

  it('an ordinary user: 403 ERR_NO_PERMISSION on every route, list included, nothing changed', async () => {
    const a = await server.createTenantWithUsers();
    const f = await botOf(a);
    const before = await server.request('GET', '/auto-reply', { token: a.users.admin.token });
    const list = await server.request('GET', '/auto-reply', { token: a.users.user.token });
    expect(list.status).toBe(403);
    const create = await server.request('POST', '/auto-reply', { token: a.users.user.token, body: { name: 'X' } });
    expect(create.body.error).toBe('ERR_NO_PERMISSION');
    for (const w of writes(f)) {
      const res = await server.request(w.method, w.url, { token: a.users.user.token, body: w.body });
      expect(res.status, `${w.method} ${w.url}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await server.request('GET', '/auto-reply', { token: a.users.admin.token })).body).toEqual(before.body);
  });

  it('malformed bodies and ids: 400 ERR_VALIDATION naming the field, never a 500', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const f = await botOf(a);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/auto-reply', { name: '  ' }, 'name'],
      ['POST', '/auto-reply', { name: 'X', action: 3 }, 'action'],
      ['POST', '/auto-reply', { name: 'X', celularTeste: '11 9999' }, 'testNumber'],
      ['POST', '/auto-reply', { name: 'X', bogus: 1 }, 'bogus'],
      ['PUT', `/auto-reply/${f.bot.id}`, {}, 'body'],
      ['PUT', '/auto-reply/abc', { name: 'X' }, 'autoReplyId'],
      ['POST', `/auto-reply/${f.bot.id}/steps`, { reply: '' }, 'reply'],
      ['PUT', `/auto-reply/${f.bot.id}/steps/99999999999`, { reply: 'x' }, 'stepsReplyId'],
      ['POST', '/auto-reply-action', { stepReplyId: f.first.id, words: 'a', action: 1 }, 'queueId'],
      ['POST', '/auto-reply-action', { stepReplyId: f.first.id, words: 'a', action: 2 }, 'userIdDestination'],
      ['POST', '/auto-reply-action', { stepReplyId: f.first.id, words: 'a', action: 7, nextStepId: f.second.id }, 'action'],
      ['POST', '/auto-reply-action', { stepReplyId: 'x', words: 'a', action: 0, nextStepId: f.second.id }, 'stepReplyId'],
      [
        'PUT',
        `/auto-reply-action/${f.action.id}`,
        { stepReplyId: f.first.id, words: '', action: 0, nextStepId: f.second.id },
        'words',
      ],
      ['DELETE', '/auto-reply-action/0', undefined, 'stepsReplyActionId'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await server.request(method, url, { token, body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(
        res.body.fields.map((x: { path: string }) => x.path),
        `${method} ${url}`,
      ).toContain(field);
    }
  });

  it('destinations of another tenant or another bot are not found (404), not stored', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const f = await botOf(a);
    const g = await botOf(b);
    const foreignQueue = await server.request('POST', '/queue', { token: b.users.admin.token, body: { name: 'Fila B' } });
    const checks: [unknown, string][] = [
      [{ stepReplyId: f.first.id, words: 'a', action: 0, nextStepId: g.second.id }, 'ERR_NO_STEP_AUTO_REPLY_FOUND'],
      [{ stepReplyId: f.first.id, words: 'a', action: 1, queueId: foreignQueue.body.id }, 'ERR_NO_QUEUE_FOUND'],
      [{ stepReplyId: f.first.id, words: 'a', action: 2, userIdDestination: b.users.user.id }, 'ERR_NO_USER_FOUND'],
      [{ stepReplyId: g.first.id, words: 'a', action: 0, nextStepId: g.second.id }, 'ERR_NO_STEP_AUTO_REPLY_FOUND'],
    ];
    for (const [body, code] of checks) {
      const res = await server.request('POST', '/auto-reply-action', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toBe(code);
    }
    const list = await server.request('GET', '/auto-reply', { token });
    expect(list.body[0].stepsReply[0].stepsReplyAction).toHaveLength(1);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/auto-reply')).status).toBe(401);
    expect((await server.request('POST', '/auto-reply-action', { body: {} })).status).toBe(401);
  });

  it(
    'generated bad bodies and ids on every route: never a 5xx, every refusal is { error: ERR_..., message }',
    { timeout: 120_000 },
    async () => {
      const a = await server.createTenantWithUsers();
      const token = a.users.admin.token;
      const f = await botOf(a);
      const id = fc.oneof(
        fc.constantFrom(
          String(f.bot.id),
          String(f.first.id),
          String(f.action.id),
          '0',
          '-1',
          'abc',
          '1e3',
          '99999999999',
          '2147483647',
        ),
        fc.integer().map(String),
      );
      const value = fc.oneof(
        fc.anything(),
        fc.constantFrom(null, '', ' ', 0, -1, 3, '1', 2 ** 31, 'x'.repeat(5000), f.first.id, f.second.id, a.users.user.id),
      );
      const body = fc.oneof(
        fc.anything(),
        fc.record(
          {
            name: value,
            action: value,
            active: value,
            isActive: value,
            testNumber: value,
            celularTeste: value,
            reply: value,
            initialStep: value,
            stepReplyId: value,
            words: value,
            nextStepId: value,
            queueId: value,
            queue: value,
            userIdDestination: value,
            replyDefinition: value,
          },
          { requiredKeys: [] },
        ),
      );
      const route = fc.constantFrom(
        ['POST', () => '/auto-reply'],
        ['PUT', (x: string) => `/auto-reply/${x}`],
        ['POST', (x: string) => `/auto-reply/${x}/steps`],
        ['PUT', (x: string) => `/auto-reply/${f.bot.id}/steps/${x}`],
        ['POST', () => '/auto-reply-action'],
        ['PUT', (x: string) => `/auto-reply-action/${x}`],
        ['DELETE', (x: string) => `/auto-reply-action/${x}`],
      ) as fc.Arbitrary<[string, (x: string) => string]>;
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(route, id, body, async ([method, url], x, b) => {
          const res = await server.request(method, url(encodeURIComponent(x)), { token, body: b });
          const bad =
            res.status >= 500 || (res.status >= 400 && !(typeof res.body?.error === 'string' && /^ERR_/.test(res.body.error)));
          if (bad)
            failures.push(`${method} ${url(x)} ${JSON.stringify(b)?.slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body)}`);
        }),
        { numRuns: 150, seed: 20261125 },
      );
      expect(failures.slice(0, 10)).toEqual([]);
    },
  );
});
