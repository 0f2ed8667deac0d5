import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { ChatFlowExportSchema, newFlowDefinition, type FlowDefinition } from '@shared/schemas/chatflow';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { chatFlowFileName } from '@shared/chatflow-file-name';
import { copyName } from './chatflow.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Tenant = Awaited<ReturnType<TestServer['createTenantWithUsers']>>;

/** Two steps: the start greets and any answer goes to "fim", which closes. */
function twoStepFlow(): FlowDefinition {
  return {
    ...newFlowDefinition(),
    steps: [
      {
        id: 'inicio',
        name: 'Início',
        position: { x: 0, y: 0 },
        waitsForAnswer: true,
        interactions: [{ id: 'i1', type: 'message', text: 'Olá {{firstName}}' }],
        conditions: [{ id: 'c1', type: 'any', target: { type: 'step', stepId: 'fim' } }],
      },
      {
        id: 'fim',
        name: 'Fim',
        position: { x: 300, y: 0 },
        waitsForAnswer: true,
        interactions: [{ id: 'i2', type: 'message', text: 'Até logo' }],
        conditions: [{ id: 'c2', type: 'any', target: { type: 'close' } }],
      },
    ],
  };
}

/** The start step plus a step nothing routes to. */
function unreachableFlow(): FlowDefinition {
  const flow = newFlowDefinition();
  flow.steps.push({ ...flow.steps[0], id: 'solta', name: 'Solta', conditions: [] });
  return flow;
}

const body = (fields: Record<string, unknown> = {}) => ({
  name: 'Atendimento',
  description: 'Menu',
  flow: twoStepFlow(),
  ...fields,
});

async function createFlow(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/chat-flow', { token: t.users.super.token, body: body(fields) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string; active: boolean; flow: FlowDefinition };
}

async function lastEvent(tenantId: number) {
  const rows = await server.deps.dataSource.query(
    `SELECT name, payload FROM domain_events WHERE "tenantId" = $1 ORDER BY seq DESC LIMIT 1`,
    [tenantId],
  );
  return rows[0] as { name: string; payload: any } | undefined;
}

async function countFlows(tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM chat_flows WHERE "tenantId" = $1`, [tenantId]);
  return row.n;
}

const paths = (res: { body: any }) => (res.body.fields ?? []).map((f: { path: string }) => f.path);

describe('POST /chat-flow', () => {
  it('creates a flow in the caller tenant (201), by its creator, with the summary event', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('POST', '/chat-flow', {
      token: a.users.admin.token,
      body: body({ active: true, testNumber: '5511999990000' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Atendimento',
      description: 'Menu',
      active: true,
      testNumber: '5511999990000',
      userId: a.users.admin.id,
    });
    expect(res.body.flow.steps.map((s: { id: string }) => s.id)).toEqual(['inicio', 'fim']);
    // Defaults of the contract are filled in.
    expect(res.body.flow.settings.maxAttempts).toBe(3);
    const [row] = await server.deps.dataSource.query(`SELECT "tenantId" FROM chat_flows WHERE id = $1`, [res.body.id]);
    expect(row.tenantId).toBe(a.tenant.id);
    expect(await lastEvent(a.tenant.id)).toEqual({
      name: SOCKET_EVENTS.chatFlowUpdate,
      payload: { action: 'create', chatFlow: { id: res.body.id, name: 'Atendimento', active: true } },
    });
  });

  it('keeps a draft with graph problems inactive, and refuses to activate it (400 ERR_CHATFLOW_INVALID with the problems)', async () => {
    const a = await server.createTenantWithUsers();
    const draft = await server.request('POST', '/chat-flow', {
      token: a.users.super.token,
      body: body({ flow: unreachableFlow() }),
    });
    expect(draft.status).toBe(201);
    expect(draft.body.active).toBe(false);
    const active = await server.request('POST', '/chat-flow', {
      token: a.users.super.token,
      body: body({ flow: unreachableFlow(), active: true }),
    });
    expect(active.status).toBe(400);
    expect(active.body.error).toBe('ERR_CHATFLOW_INVALID');
    expect(active.body.problems).toEqual([expect.objectContaining({ code: 'UNREACHABLE_STEP', stepId: 'solta' })]);
    expect(paths(active)).toEqual(['flow.steps.1']);
    expect(await countFlows(a.tenant.id)).toBe(1);
  });

  it('refuses a loop of steps that never wait and a missing target before activation', async () => {
    const a = await server.createTenantWithUsers();
    const flow = twoStepFlow();
    flow.steps[0].waitsForAnswer = false;
    flow.steps[1].waitsForAnswer = false;
    flow.steps[1].conditions = [{ id: 'c2', type: 'any', target: { type: 'step', stepId: 'inicio' } }];
    const loop = await server.request('POST', '/chat-flow', { token: a.users.super.token, body: body({ flow, active: true }) });
    expect(loop.status).toBe(400);
    expect(loop.body.problems.map((p: { code: string }) => p.code)).toContain('LOOP_WITHOUT_WAIT');
    const missing = twoStepFlow();
    missing.steps[1].conditions = [{ id: 'c2', type: 'any', target: { type: 'step', stepId: 'nada' } }];
    const res = await server.request('POST', '/chat-flow', {
      token: a.users.super.token,
      body: body({ flow: missing, active: true }),
    });
    expect(res.status).toBe(400);
    expect(res.body.problems.map((p: { code: string }) => p.code)).toEqual(['MISSING_TARGET']);
  });

  it('accepts ids of the tenant and refuses those of another tenant, naming each place (400 ERR_CHATFLOW_REFERENCE)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const own = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Vendas' } });
    const foreign = await server.request('POST', '/queue', { token: b.users.admin.token, body: { name: 'Vendas' } });
    const foreignTag = await server.request('POST', '/tags', { token: b.users.admin.token, body: { name: 'VIP' } });
    const otherFlow = await createFlow(b);
    const flow = twoStepFlow();
    flow.steps[1].conditions = [{ id: 'c2', type: 'any', target: { type: 'queue', queueId: own.body.id } }];
    const ok = await server.request('POST', '/chat-flow', { token: a.users.super.token, body: body({ flow, active: true }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);

    flow.steps[1].conditions = [{ id: 'c2', type: 'any', target: { type: 'queue', queueId: foreign.body.id } }];
    flow.steps[0].interactions.push(
      { id: 'i3', type: 'tag', tagId: foreignTag.body.id },
      { id: 'i4', type: 'startFlow', chatFlowId: otherFlow.id },
    );
    flow.settings.noAnswerTarget = { type: 'user', userId: b.users.user.id };
    const res = await server.request('POST', '/chat-flow', { token: a.users.super.token, body: body({ flow }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CHATFLOW_REFERENCE');
    expect(paths(res).sort()).toEqual(
      [
        'flow.settings.noAnswerTarget.userId',
        'flow.steps.0.interactions.1.tagId',
        'flow.steps.0.interactions.2.chatFlowId',
        'flow.steps.1.conditions.0.target.queueId',
      ].sort(),
    );
    expect(await countFlows(a.tenant.id)).toBe(1);
  });

  it('answers 403 to an agent and 400 naming the path of a malformed body, never 500', async () => {
    const a = await server.createTenantWithUsers();
    const agent = await server.request('POST', '/chat-flow', { token: a.users.user.token, body: body() });
    expect(agent.status).toBe(403);
    expect(agent.body.error).toBe('ERR_NO_PERMISSION');
    const flow = twoStepFlow() as any;
    flow.steps[0].interactions[0] = { id: 'i1', type: 'delay', seconds: 0 };
    flow.steps[1].conditions[0].target = { type: 'queue' };
    for (const [bad, path] of [
      [body({ name: '' }), 'name'],
      [body({ flow }), 'flow.steps.0.interactions.0.seconds'],
      [body({ flow }), 'flow.steps.1.conditions.0.target.queueId'],
      [body({ flow: { startStepId: 'x', steps: [] } }), 'flow.steps'],
      [body({ flow: 'nada' }), 'flow'],
      [body({ extra: 1 }), 'extra'],
      [body({ testNumber: 'abc' }), 'testNumber'],
    ] as const) {
      const res = await server.request('POST', '/chat-flow', { token: a.users.admin.token, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(paths(res)).toContain(path);
    }
    expect(await countFlows(a.tenant.id)).toBe(0);
    expect((await server.request('POST', '/chat-flow', { body: body() })).status).toBe(401);
  });
});

describe('GET /chat-flow', () => {
  it('lists every flow of the tenant to supervisors and admins, never another tenant flows', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const mine = await createFlow(a);
    const theirs = await createFlow(b);
    for (const profile of ['super', 'admin'] as const) {
      const res = await server.request('GET', '/chat-flow', { token: a.users[profile].token });
      expect(res.status).toBe(200);
      expect(res.body.map((f: { id: number }) => f.id)).toEqual([mine.id]);
      expect(res.body[0].flow.startStepId).toBe('inicio');
    }
    expect(theirs.id).not.toBe(mine.id);
  });

  it('answers the active flows summaries (no definition) to every profile with ?active=true; the full list is 403 to agents', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const active = await createFlow(a, { name: 'Bot ativo', active: true });
    await createFlow(a, { name: 'Rascunho' });
    await createFlow(b, { name: 'Outro', active: true });
    for (const profile of ['user', 'super', 'admin'] as const) {
      const res = await server.request('GET', '/chat-flow?active=true', { token: a.users[profile].token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ id: active.id, name: 'Bot ativo', active: true }]);
    }
    const inactive = await server.request('GET', '/chat-flow?active=false', { token: a.users.super.token });
    expect(inactive.body.map((f: { name: string }) => f.name)).toEqual(['Rascunho']);
    const agent = await server.request('GET', '/chat-flow', { token: a.users.user.token });
    expect(agent.status).toBe(403);
    expect((await server.request('GET', '/chat-flow?active=false', { token: a.users.user.token })).status).toBe(403);
    const bad = await server.request('GET', '/chat-flow?active=sim', { token: a.users.super.token });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toContain('active');
    expect((await server.request('GET', '/chat-flow?active=true')).status).toBe(401);
  });
});

describe('GET /chat-flow/:chatFlowId', () => {
  it('answers the flow to supervisors; 404 to another tenant, 403 to an agent, 400 to a bad id', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const flow = await createFlow(a);
    const res = await server.request('GET', `/chat-flow/${flow.id}`, { token: a.users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.flow).toEqual(flow.flow);
    const other = await server.request('GET', `/chat-flow/${flow.id}`, { token: b.users.admin.token });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_CHATFLOW_FOUND');
    expect((await server.request('GET', `/chat-flow/${flow.id}`, { token: a.users.user.token })).status).toBe(403);
    expect((await server.request('GET', '/chat-flow/987654321', { token: a.users.admin.token })).status).toBe(404);
    const bad = await server.request('GET', '/chat-flow/abc', { token: a.users.admin.token });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['chatFlowId']);
  });
});

describe('PUT /chat-flow/:chatFlowId', () => {
  it('updates the given fields (200) and records the summary event', async () => {
    const a = await server.createTenantWithUsers();
    const created = await createFlow(a);
    const flow = twoStepFlow();
    flow.settings.welcomeMessage = 'Bem-vindo';
    const res = await server.request('PUT', `/chat-flow/${created.id}`, {
      token: a.users.super.token,
      body: { name: 'Vendas', active: true, flow },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Vendas', description: 'Menu', active: true });
    expect(res.body.flow.settings.welcomeMessage).toBe('Bem-vindo');
    expect(await lastEvent(a.tenant.id)).toEqual({
      name: SOCKET_EVENTS.chatFlowUpdate,
      payload: { action: 'update', chatFlow: { id: created.id, name: 'Vendas', active: true } },
    });
    const off = await server.request('PUT', `/chat-flow/${created.id}`, { token: a.users.admin.token, body: { active: false } });
    expect(off.body.active).toBe(false);
  });

  it('refuses to activate a stored draft with problems, and to give an active flow a broken graph', async () => {
    const a = await server.createTenantWithUsers();
    const draft = await createFlow(a, { flow: unreachableFlow() });
    const on = await server.request('PUT', `/chat-flow/${draft.id}`, { token: a.users.super.token, body: { active: true } });
    expect(on.status).toBe(400);
    expect(on.body.error).toBe('ERR_CHATFLOW_INVALID');
    expect(on.body.problems[0].code).toBe('UNREACHABLE_STEP');
    const live = await createFlow(a, { active: true });
    const broken = await server.request('PUT', `/chat-flow/${live.id}`, {
      token: a.users.super.token,
      body: { flow: unreachableFlow() },
    });
    expect(broken.status).toBe(400);
    // A stored active flow whose graph no longer passes (e.g. written before a new check) can still be renamed.
    const ds = server.deps.dataSource;
    await ds.query(`UPDATE chat_flows SET flow = $2::jsonb WHERE id = $1`, [live.id, JSON.stringify(unreachableFlow())]);
    const renamed = await server.request('PUT', `/chat-flow/${live.id}`, {
      token: a.users.super.token,
      body: { name: 'Renomeado' },
    });
    expect(renamed.status).toBe(200);
    await ds.query(`UPDATE chat_flows SET flow = $2::jsonb WHERE id = $1`, [live.id, JSON.stringify(twoStepFlow())]);
    const [row] = await server.deps.dataSource.query(`SELECT flow FROM chat_flows WHERE id = $1`, [live.id]);
    expect(row.flow.steps).toHaveLength(2);
  });

  it('answers 404 to another tenant and 403 to an agent, leaving the row unchanged; 400 for empty or malformed bodies', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const flow = await createFlow(a);
    const [before] = await server.deps.dataSource.query(`SELECT * FROM chat_flows WHERE id = $1`, [flow.id]);
    const other = await server.request('PUT', `/chat-flow/${flow.id}`, { token: b.users.admin.token, body: { name: 'X' } });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_CHATFLOW_FOUND');
    const agent = await server.request('PUT', `/chat-flow/${flow.id}`, { token: a.users.user.token, body: { name: 'X' } });
    expect(agent.status).toBe(403);
    const [after] = await server.deps.dataSource.query(`SELECT * FROM chat_flows WHERE id = $1`, [flow.id]);
    expect(after).toEqual(before);
    const empty = await server.request('PUT', `/chat-flow/${flow.id}`, { token: a.users.admin.token, body: {} });
    expect(empty.status).toBe(400);
    const malformed = await server.request('PUT', `/chat-flow/${flow.id}`, {
      token: a.users.admin.token,
      body: { active: 'sim' },
    });
    expect(malformed.status).toBe(400);
    expect(paths(malformed)).toContain('active');
    expect((await server.request('PUT', `/chat-flow/x`, { token: a.users.admin.token, body: { name: 'X' } })).status).toBe(400);
  });
});

describe('DELETE /chat-flow/:chatFlowId', () => {
  it('deletes (204), records the event and releases the tickets and channels that used it', async () => {
    const a = await server.createTenantWithUsers();
    const flow = await createFlow(a, { active: true });
    const ds = server.deps.dataSource;
    const [contact] = await ds.query(
      `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Ana', '5511988887777') RETURNING id`,
      [a.tenant.id],
    );
    const [ticket] = await ds.query(
      `INSERT INTO tickets ("tenantId", "contactId", status, "chatFlowId") VALUES ($1, $2, 'pending', $3) RETURNING id`,
      [a.tenant.id, contact.id, flow.id],
    );
    const res = await server.request('DELETE', `/chat-flow/${flow.id}`, { token: a.users.super.token });
    expect(res.status).toBe(204);
    expect(await countFlows(a.tenant.id)).toBe(0);
    const [after] = await ds.query(`SELECT "chatFlowId" FROM tickets WHERE id = $1`, [ticket.id]);
    expect(after.chatFlowId).toBeNull();
    expect(await lastEvent(a.tenant.id)).toEqual({
      name: SOCKET_EVENTS.chatFlowDelete,
      payload: { action: 'delete', id: flow.id },
    });
  });

  it('refuses to delete a flow another flow starts (409 ERR_CHATFLOW_IN_USE naming it)', async () => {
    const a = await server.createTenantWithUsers();
    const target = await createFlow(a, { name: 'Pós-venda' });
    const starter = twoStepFlow();
    starter.steps[1].interactions.push({ id: 'i9', type: 'startFlow', chatFlowId: target.id });
    await createFlow(a, { name: 'Principal', flow: starter });
    const res = await server.request('DELETE', `/chat-flow/${target.id}`, { token: a.users.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_CHATFLOW_IN_USE');
    expect(res.body.message).toContain('"Principal"');
    expect(await countFlows(a.tenant.id)).toBe(2);
  });

  it('answers 404 to another tenant, 403 to an agent, 400 to a bad id, keeping the row', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const flow = await createFlow(a);
    expect((await server.request('DELETE', `/chat-flow/${flow.id}`, { token: b.users.admin.token })).body.error).toBe(
      'ERR_NO_CHATFLOW_FOUND',
    );
    expect((await server.request('DELETE', `/chat-flow/${flow.id}`, { token: a.users.user.token })).status).toBe(403);
    expect((await server.request('DELETE', `/chat-flow/1e3`, { token: a.users.admin.token })).status).toBe(400);
    expect(await countFlows(a.tenant.id)).toBe(1);
  });
});

describe('POST /chat-flow/:chatFlowId/duplicate', () => {
  it('copies the flow as an inactive "(cópia)"; 404 to another tenant, 403 to an agent', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const flow = await createFlow(a, { active: true });
    const res = await server.request('POST', `/chat-flow/${flow.id}/duplicate`, { token: a.users.super.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Atendimento (cópia)', active: false, description: 'Menu' });
    expect(res.body.id).not.toBe(flow.id);
    expect(res.body.flow).toEqual(flow.flow);
    expect((await server.request('POST', `/chat-flow/${flow.id}/duplicate`, { token: b.users.admin.token })).status).toBe(404);
    expect((await server.request('POST', `/chat-flow/${flow.id}/duplicate`, { token: a.users.user.token })).status).toBe(403);
    expect((await server.request('POST', `/chat-flow/abc/duplicate`, { token: a.users.admin.token })).status).toBe(400);
    expect(await countFlows(a.tenant.id)).toBe(2);
    expect(await countFlows(b.tenant.id)).toBe(0);
  });

  it('keeps the copy name within the limit', () => {
    expect(copyName('x'.repeat(120))).toHaveLength(120);
    expect(copyName('x'.repeat(120)).endsWith(' (cópia)')).toBe(true);
  });
});

describe('export and import', () => {
  it('downloads the export file, and importing it creates the same flow, inactive', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const flow = await createFlow(a, { name: 'Atendimento Ágil', active: true });
    const res = await server.request('GET', `/chat-flow/${flow.id}/export`, { token: a.users.super.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toContain('fluxo-atendimento-agil.json');
    const file = ChatFlowExportSchema.parse(res.body);
    expect(res.body).toEqual({ kind: 'chatflow', name: 'Atendimento Ágil', description: 'Menu', flow: flow.flow });

    // Another tenant imports it: the flow names no records, so it fits anywhere.
    const imported = await server.request('POST', '/chat-flow/import', { token: b.users.admin.token, body: file });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ name: 'Atendimento Ágil', active: false, flow: flow.flow });
    expect((await lastEvent(b.tenant.id))?.payload.action).toBe('create');

    expect((await server.request('GET', `/chat-flow/${flow.id}/export`, { token: b.users.admin.token })).status).toBe(404);
    expect((await server.request('GET', `/chat-flow/${flow.id}/export`, { token: a.users.user.token })).status).toBe(403);
  });

  it('refuses a file that is not a flow with a 400 naming the path of each problem', async () => {
    const a = await server.createTenantWithUsers();
    const flow = twoStepFlow() as any;
    flow.steps[1].name = '';
    flow.steps[0].conditions[0] = { id: 'c1', type: 'regex', pattern: '(', target: { type: 'close' } };
    const res = await server.request('POST', '/chat-flow/import', {
      token: a.users.admin.token,
      body: { kind: 'chatflow', name: 'X', flow },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(paths(res)).toEqual(expect.arrayContaining(['flow.steps.1.name', 'flow.steps.0.conditions.0.pattern']));
    expect(res.body.message).toContain('flow.steps.1.name');
    const notFlow = await server.request('POST', '/chat-flow/import', {
      token: a.users.admin.token,
      body: { name: 'X', steps: [] },
    });
    expect(notFlow.status).toBe(400);
    expect(paths(notFlow)).toEqual(expect.arrayContaining(['kind', 'flow', 'steps']));
    const agent = await server.request('POST', '/chat-flow/import', {
      token: a.users.user.token,
      body: { kind: 'chatflow', name: 'X', flow: twoStepFlow() },
    });
    expect(agent.status).toBe(403);
    expect(await countFlows(a.tenant.id)).toBe(0);
  });

  it('refuses a file that names another tenant records, with the path of each (400 ERR_CHATFLOW_REFERENCE)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const theirs = await server.request('POST', '/queue', { token: b.users.admin.token, body: { name: 'Vendas' } });
    const flow = twoStepFlow();
    flow.steps[1].conditions = [{ id: 'c2', type: 'option', values: ['1'], target: { type: 'queue', queueId: theirs.body.id } }];
    const res = await server.request('POST', '/chat-flow/import', {
      token: a.users.super.token,
      body: { kind: 'chatflow', name: 'X', flow },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CHATFLOW_REFERENCE');
    expect(paths(res)).toEqual(['flow.steps.1.conditions.0.target.queueId']);
    expect(await countFlows(a.tenant.id)).toBe(0);
  });

  it('names the download from the flow name', () => {
    expect(chatFlowFileName('Menu Principal / Vendas')).toBe('fluxo-menu-principal-vendas.json');
    expect(chatFlowFileName('***')).toBe('fluxo-chatbot.json');
  });
});
