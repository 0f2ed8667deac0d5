import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { MessageDto } from '@shared/schemas/messages';
import { presentMessage } from '../messages/messages.presenter';
import { selectMessage } from '../messages/messages.query';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { waitFor } from '../messages/messages.test-support';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import { CHATBOT_SWEEP_JOB, chatflowEngineOf } from './chatflow-wiring';
import {
  botState,
  flowWorld,
  insertFlow,
  localEndpoint,
  newNumber,
  offsetClock,
  say,
  startChatflowServer,
  textsTo,
  ticketOf,
  useFlowOnChannel,
  waitTexts,
  type FlowWorld,
} from './chatflow.test-support';

/**
 * Issue #14 item 1: the chatflow engine driven end to end: customers' messages through the real
 * Cloud API webhook, the bot's messages through the real send path to the fake Graph API, the
 * bot state in PostgreSQL.
 */

let server: TestServer;
let graph: FakeGraphApi;
const clock = offsetClock();
let endpoint: Awaited<ReturnType<typeof localEndpoint>>;

beforeAll(async () => {
  ({ server, graph } = await startChatflowServer({ clock }));
  endpoint = await localEndpoint((req, body, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/order/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { status: 'enviado', code: path.split('/').pop() } }));
    } else if (path === '/file/menu.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    } else if (path === '/v1/chat/completions') {
      const input = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `IA: ${input.messages[1].content}` } }] }));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
  await endpoint?.close();
});

const step = (id: string, interactions: unknown[], conditions: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  interactions: interactions.map((i, n) => ({ id: `${id}-i${n}`, ...(i as object) })),
  conditions: conditions.map((c, n) => ({ id: `${id}-c${n}`, ...(c as object) })),
  ...extra,
});
const toStep = (stepId: string) => ({ type: 'step', stepId });

describe('interactions', () => {
  let w: FlowWorld;
  beforeAll(async () => {
    w = await flowWorld(server, graph);
  });

  it('message, menu and option route to the next step, with variables', async () => {
    const flow = await insertFlow(server, w.tenant.id, {
      startStepId: 'menu',
      settings: { welcomeMessage: 'Bem-vindo, {{firstName}}!' },
      steps: [
        step('menu', [{ type: 'flowBuilder', text: 'Escolha:', options: ['Vendas', 'Suporte'] }], [
          { type: 'option', values: ['1'], target: toStep('vendas') },
          { type: 'option', values: ['2'], target: toStep('suporte') },
        ]),
        step('vendas', [{ type: 'message', text: 'Vendas #{{ticketId}} {{number}} {{protocol}}' }], [{ type: 'any', target: { type: 'close' } }]),
        step('suporte', [{ type: 'message', text: 'Suporte' }], [{ type: 'any', target: { type: 'close' } }]),
      ],
    });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    expect(await waitTexts(graph, number, 2)).toEqual(['Bem-vindo, Maria!', 'Escolha:\n\n1 - Vendas\n2 - Suporte']);
    const ticket = await ticketOf(server, w.tenant.id, number);
    expect(ticket).toMatchObject({ botActive: true, chatFlowId: flow.id, userId: null, status: 'pending' });
    expect(await botState(server, ticket.id)).toMatchObject({ stepId: 'menu', attempts: 0 });
    await say(server, graph, w.channel, number, 'Vendas');
    const texts = await waitTexts(graph, number, 3);
    expect(texts[2]).toBe(`Vendas #${ticket.id} ${number} ${ticket.protocol}`);
    expect(await botState(server, ticket.id)).toMatchObject({ stepId: 'vendas' });
    // Each bot message is an automated message in the statistics: one fact per message, with
    // the message's time, and the same number in the day counts (written with the messages).
    const facts = await server.deps.dataSource.query(
      `SELECT e.at FROM ticket_metric_events e WHERE e."ticketId" = $1 AND e.kind = 'autoMessage' ORDER BY e.at`,
      [ticket.id],
    );
    const sent = await server.deps.dataSource.query(
      `SELECT "createdAt" AS at FROM messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY "createdAt"`,
      [ticket.id],
    );
    expect(sent).toHaveLength(3);
    expect(facts).toEqual(sent);
    const [{ n }] = await server.deps.dataSource.query(
      `SELECT COALESCE(sum(n), 0)::int AS n FROM ticket_metric_daily WHERE "tenantId" = $1 AND kind = 'autoMessage'`,
      [w.tenant.id],
    );
    const [{ all }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS all FROM ticket_metric_events WHERE "tenantId" = $1 AND kind = 'autoMessage'`,
      [w.tenant.id],
    );
    expect(n).toBe(all);
  });

  interface Case {
    name: string;
    /** Builds the flow's steps (start step id 'a'); ctx gives ids created for the case. */
    steps: (ctx: { tagId: number; kanbanId: number; otherFlowId: number; url: string }) => unknown[];
    settings?: Record<string, unknown>;
    answers?: string[];
    channelSetup?: Record<string, unknown>;
    expectTexts: (number: string) => string[];
    check?: (ctx: { ticket: any; tagId: number; kanbanId: number; number: string }) => Promise<void>;
  }

  const cases: Case[] = [
    {
      name: 'media by URL is downloaded and sent as media, caption with variables',
      steps: ({ url }) => [step('a', [{ type: 'media', url: `${url}/file/menu.png`, caption: 'Cardápio de {{firstName}}' }])],
      expectTexts: () => ['[image]'],
      check: async ({ ticket }) => {
        const [m] = await server.deps.dataSource.query(
          `SELECT "mediaType", "mimeType", body, "dataJson" FROM messages WHERE "ticketId" = $1 AND "fromMe"`,
          [ticket.id],
        );
        expect(m).toMatchObject({ mediaType: 'image', mimeType: 'image/png', body: 'Cardápio de Maria', dataJson: { origin: 'chatbot' } });
      },
    },
    {
      name: 'media whose file would run code (.exe) is refused; the rest of the step goes on',
      steps: ({ url }) => [step('a', [{ type: 'media', url: `${url}/file/menu.png`, fileName: 'cardapio.exe' }, { type: 'message', text: 'depois' }])],
      expectTexts: () => ['depois'],
    },
    {
      name: 'generative chat answers the last message through the channel\'s OpenAI-compatible endpoint',
      channelSetup: { generativeChat: { baseUrl: 'URL/v1', apiKey: 'sk-test', model: 'gpt-test' } },
      steps: () => [
        step('a', [{ type: 'message', text: 'Pergunte.' }], [{ type: 'any', target: toStep('b') }]),
        step('b', [{ type: 'generativeChat', prompt: 'Você atende {{firstName}}' }]),
      ],
      answers: ['qual o horário?'],
      expectTexts: () => ['Pergunte.', 'IA: qual o horário?'],
      check: async () => {
        const call = endpoint.requests.filter((r) => r.path === '/v1/chat/completions').pop()!;
        expect(call.headers.authorization).toBe('Bearer sk-test');
        expect(JSON.parse(call.body)).toMatchObject({ model: 'gpt-test', messages: [{ role: 'system', content: 'Você atende Maria' }, { role: 'user', content: 'qual o horário?' }] });
      },
    },
    {
      name: 'generative chat without an AI endpoint configured sends the fallback, never a made-up reply',
      settings: { fallbackMessage: 'Não entendi, um atendente já vem.' },
      steps: () => [step('a', [{ type: 'generativeChat', prompt: 'x' }])],
      expectTexts: () => ['Não entendi, um atendente já vem.'],
    },
    {
      name: 'delay sends the rest of the step later, without holding the pipeline',
      steps: () => [step('a', [{ type: 'message', text: 'um' }, { type: 'delay', seconds: 1 }, { type: 'message', text: 'dois' }])],
      expectTexts: () => ['um', 'dois'],
      check: async ({ ticket }) => {
        expect(await botState(server, ticket.id)).toMatchObject({ stepId: 'a' });
        expect((await botState(server, ticket.id)).variables).not.toHaveProperty('$resume');
      },
    },
    {
      name: 'tag is added to the contact, kanban moves the ticket',
      steps: ({ tagId, kanbanId }) => [step('a', [{ type: 'tag', tagId }, { type: 'kanban', kanbanId }, { type: 'message', text: 'ok' }])],
      expectTexts: () => ['ok'],
      check: async ({ ticket, tagId, kanbanId }) => {
        const tags = await server.deps.dataSource.query(`SELECT "tagId" FROM contact_tags WHERE "contactId" = $1`, [ticket.contactId]);
        expect(tags).toEqual([{ tagId }]);
        expect((await server.deps.dataSource.query(`SELECT "kanbanId" FROM tickets WHERE id = $1`, [ticket.id]))[0].kanbanId).toBe(kanbanId);
      },
    },
    {
      name: 'webhook GET stores fields of the JSON answer as variables',
      steps: ({ url }) => [
        step('a', [
          { type: 'webhook', url: `${url}/order/{{number}}`, store: { status: 'data.status', code: 'data.code' } },
          { type: 'message', text: 'Pedido {{var.code}}: {{var.status}}' },
        ]),
      ],
      expectTexts: (number) => [`Pedido ${number}: enviado`],
    },
    {
      name: 'startFlow hands over to another flow of the tenant',
      steps: ({ otherFlowId }) => [step('a', [{ type: 'message', text: 'primeiro' }, { type: 'startFlow', chatFlowId: otherFlowId }, { type: 'message', text: 'nunca' }])],
      expectTexts: () => ['primeiro', 'segundo fluxo'],
      check: async ({ ticket }) => {
        const [row] = await server.deps.dataSource.query(`SELECT "chatFlowId" FROM tickets WHERE id = $1`, [ticket.id]);
        expect((await botState(server, ticket.id)).chatFlowId).toBe(row.chatFlowId);
      },
    },
  ];

  it.each(cases)('$name', async (c) => {
    const [tag] = await server.deps.dataSource.query(`INSERT INTO tags ("tenantId", name, color) VALUES ($1, $2, '#ff0000') RETURNING id`, [w.tenant.id, `t${Math.random()}`]);
    const [kanban] = await server.deps.dataSource.query(`INSERT INTO kanbans ("tenantId", name) VALUES ($1, $2) RETURNING id`, [w.tenant.id, `k${Math.random()}`]);
    const other = await insertFlow(server, w.tenant.id, { startStepId: 'x', steps: [step('x', [{ type: 'message', text: 'segundo fluxo' }])] });
    const ctx = { tagId: tag.id, kanbanId: kanban.id, otherFlowId: other.id, url: endpoint.url };
    const flow = await insertFlow(server, w.tenant.id, { startStepId: 'a', settings: c.settings ?? {}, steps: c.steps(ctx) });
    await server.deps.dataSource.query(`UPDATE channels SET integrations = $2 WHERE id = $1`, [
      w.channel,
      JSON.stringify(c.channelSetup ? JSON.parse(JSON.stringify(c.channelSetup).replace('URL', endpoint.url)) : {}),
    ]);
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    for (const answer of c.answers ?? []) {
      await waitFor(() => textsTo(graph, number).length > 0, 'first bot message');
      await say(server, graph, w.channel, number, answer);
    }
    const expected = c.expectTexts(number);
    expect(await waitTexts(graph, number, expected.length)).toEqual(expected);
    await new Promise((r) => setTimeout(r, 150));
    expect(textsTo(graph, number)).toEqual(expected);
    await c.check?.({ ticket: await ticketOf(server, w.tenant.id, number), tagId: tag.id, kanbanId: kanban.id, number });
  });
});

describe('the bot\'s messages as announced', () => {
  it('each appMessage:create of a step carries the message as a fresh read presents it (the insert planned into the commit)', async () => {
    const w = await flowWorld(server, graph);
    const flow = await insertFlow(server, w.tenant.id, {
      startStepId: 'ask',
      settings: { welcomeMessage: 'Olá, {{firstName}}!' },
      steps: [
        step('ask', [{ type: 'message', text: 'Qual o seu pedido, {{firstName}}?' }], [{ type: 'any', target: toStep('done') }]),
        step('done', [{ type: 'message', text: 'Anotado.' }], [{ type: 'any', target: { type: 'close' } }]),
      ],
    });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    expect(await waitTexts(graph, number, 2)).toEqual(['Olá, Maria!', 'Qual o seu pedido, Maria?']);
    const ticket = await ticketOf(server, w.tenant.id, number);
    const events: { payload: { message: MessageDto } }[] = await server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = $2 AND (payload->>'ticketId')::int = $3 AND (payload->'message'->>'fromMe')::boolean ORDER BY seq`,
      [w.tenant.id, SOCKET_EVENTS.messageCreate, ticket.id],
    );
    expect(events.map((e) => e.payload.message.body)).toEqual(['Olá, Maria!', 'Qual o seu pedido, Maria?']);
    for (const { payload } of events) {
      const stored = presentMessage((await selectMessage(server.deps.dataSource, payload.message.id))!);
      // As created: pending, before the delivery moved it on (status, ack, provider id, tries).
      const { status, ack, messageId, sendAttempts, nextRetryAt, lastError, flags, updatedAt, ...stable } = stored;
      const created = payload.message;
      expect({ ...created, status, ack, messageId, sendAttempts, nextRetryAt, lastError, flags, updatedAt }).toEqual(stored);
      expect(created).toMatchObject({ ...stable, status: 'pending', ack: 0, messageId: null, sendAttempts: 0, lastError: null });
      expect(created.updatedAt).toBe(created.createdAt);
    }
  });
});

describe('a new ticket follows the channel\'s flow as it is now', () => {
  it('after the channel changed flows, the first message starts the new flow (the engine\'s remembered flow is only a guess)', async () => {
    const w = await flowWorld(server, graph);
    const first = await insertFlow(server, w.tenant.id, {
      startStepId: 's',
      steps: [step('s', [{ type: 'message', text: 'Fluxo A' }], [{ type: 'any', target: { type: 'close' } }])],
    });
    const second = await insertFlow(server, w.tenant.id, {
      startStepId: 's',
      steps: [step('s', [{ type: 'message', text: 'Fluxo B' }], [{ type: 'any', target: { type: 'close' } }])],
    });
    await useFlowOnChannel(server, w.channel, first.id);
    const one = newNumber();
    await say(server, graph, w.channel, one, 'oi');
    expect(await waitTexts(graph, one, 1)).toEqual(['Fluxo A']);
    // The engine saw flow A on this channel a moment ago; the channel now runs flow B.
    await useFlowOnChannel(server, w.channel, second.id);
    const two = newNumber();
    await say(server, graph, w.channel, two, 'oi');
    expect(await waitTexts(graph, two, 1)).toEqual(['Fluxo B']);
    const ticket = await ticketOf(server, w.tenant.id, two);
    expect(ticket).toMatchObject({ botActive: true, chatFlowId: second.id });
    // Its answer runs flow B's step (the answer path reads the ticket's flow under the lock).
    await say(server, graph, w.channel, two, 'ok');
    await waitFor(async () => (await ticketOf(server, w.tenant.id, two)).status === 'closed', 'closed by flow B');
  });
});

describe('generative chat set in the channel form (PUT /whatsapp/:id generativeChat)', () => {
  let w: FlowWorld;
  beforeAll(async () => {
    w = await flowWorld(server, graph);
  });

  const askFlow = () =>
    insertFlow(server, w.tenant.id, {
      startStepId: 'a',
      settings: { fallbackMessage: 'Um atendente já vem.' },
      steps: [
        step('a', [{ type: 'message', text: 'Pergunte.' }], [{ type: 'any', target: toStep('b') }]),
        step('b', [{ type: 'generativeChat', prompt: 'Você atende {{firstName}}' }]),
      ],
    });
  const configure = async (generativeChat: unknown) => {
    const res = await server.request('PUT', `/whatsapp/${w.channel}`, { token: w.users.admin.token, body: { generativeChat } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ask = async (question: string) => {
    await useFlowOnChannel(server, w.channel, (await askFlow()).id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    await waitFor(() => textsTo(graph, number).length > 0, 'first bot message');
    await say(server, graph, w.channel, number, question);
    return waitTexts(graph, number, 2);
  };
  const completions = () => endpoint.requests.filter((r) => r.path === '/v1/chat/completions');

  it('the step calls the saved endpoint with the saved model and key, also after a save that left the key empty', async () => {
    const saved = await configure({ enabled: true, baseUrl: `${endpoint.url}/v1/`, model: 'modelo-salvo', apiKey: 'sk-from-form' });
    expect(saved.generativeChat).toEqual({ enabled: true, baseUrl: `${endpoint.url}/v1`, model: 'modelo-salvo', hasApiKey: true });
    expect(await ask('tem entrega?')).toEqual(['Pergunte.', 'IA: tem entrega?']);
    const call = completions().pop()!;
    expect(call.headers.authorization).toBe('Bearer sk-from-form');
    expect(JSON.parse(call.body)).toMatchObject({
      model: 'modelo-salvo',
      messages: [{ role: 'system', content: 'Você atende Maria' }, { role: 'user', content: 'tem entrega?' }],
    });

    // Saved again from the form with the key field empty: new model, same key.
    await configure({ enabled: true, baseUrl: `${endpoint.url}/v1`, model: 'outro-modelo', apiKey: '' });
    expect(await ask('e o preço?')).toEqual(['Pergunte.', 'IA: e o preço?']);
    const again = completions().pop()!;
    expect(again.headers.authorization).toBe('Bearer sk-from-form');
    expect(JSON.parse(again.body).model).toBe('outro-modelo');

    // Key cleared: no authorization header.
    await configure({ enabled: true, baseUrl: `${endpoint.url}/v1`, model: 'outro-modelo', clearApiKey: true });
    expect(await ask('sem chave?')).toEqual(['Pergunte.', 'IA: sem chave?']);
    expect(completions().pop()!.headers.authorization).toBeUndefined();
  });

  it('turned off in the form, the step sends the fallback and calls nobody', async () => {
    await configure({ enabled: false, baseUrl: `${endpoint.url}/v1`, model: 'modelo-salvo' });
    const before = completions().length;
    expect(await ask('alguém aí?')).toEqual(['Pergunte.', 'Um atendente já vem.']);
    await new Promise((r) => setTimeout(r, 150));
    expect(completions().length).toBe(before);
  });
});

describe('conditions route the answer', () => {
  let w: FlowWorld;
  beforeAll(async () => {
    w = await flowWorld(server, graph);
    await server.deps.dataSource.query(`UPDATE contacts SET email = 'vip@example.com' WHERE "tenantId" = $1`, [w.tenant.id]);
    // Open all week, so the business-hours rows do not depend on when the test runs (a week never
    // saved is the default Monday-Friday week, tenants/business-hours.ts).
    const open = Array.from({ length: 7 }, (_, day) => ({ day, type: 'O', hr1: '08:00', hr2: '12:00', hr3: '13:00', hr4: '18:00' }));
    await server.deps.dataSource.query(`UPDATE tenants SET "businessHours" = $2 WHERE id = $1`, [w.tenant.id, JSON.stringify(open)]);
  });

  // Each row: a condition on the start step (routing to 'hit'), the answer, whether it matches.
  const rows: [string, Record<string, unknown>, string, boolean][] = [
    ['keyword, accents and case ignored', { type: 'keyword', values: ['orçamento'] }, 'Quero um ORCAMENTO', true],
    ['keyword is a whole word', { type: 'keyword', values: ['oi'] }, 'boi', false],
    ['option by number', { type: 'option', values: ['2'] }, '2', true],
    ['option by the menu text', { type: 'option', values: ['2'] }, 'suporte', true],
    ['regex', { type: 'regex', pattern: '^\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}$' }, '123.456.789-09', true],
    ['regex not matching', { type: 'regex', pattern: '^\\d+$' }, 'abc', false],
    ['any', { type: 'any' }, 'qualquer coisa', true],
    ['business hours (open all week)', { type: 'businessHours', open: true }, 'x', true],
    ['business hours closed does not match when open', { type: 'businessHours', open: false }, 'x', false],
    ['contact field', { type: 'field', field: 'firstName', operator: 'equals', value: 'maria' }, 'x', true],
    ['contact field not empty', { type: 'field', field: 'cpf', operator: 'notEmpty' }, 'x', false],
    ['variable', { type: 'field', field: 'var.plan', operator: 'empty' }, 'x', true],
  ];

  it.each(rows)('%s', async (_name, condition, answer, matches) => {
    const flow = await insertFlow(server, w.tenant.id, {
      startStepId: 'a',
      settings: { fallbackMessage: 'inválido', maxAttempts: 5 },
      steps: [
        step('a', [{ type: 'flowBuilder', text: 'Menu', options: ['Vendas', 'Suporte'] }], [{ ...condition, target: toStep('hit') }]),
        step('hit', [{ type: 'message', text: 'acertou' }]),
      ],
    });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    await waitTexts(graph, number, 1);
    await say(server, graph, w.channel, number, answer);
    expect((await waitTexts(graph, number, 2))[1]).toBe(matches ? 'acertou' : 'inválido');
  });
});

describe("business hours: the ticket queue's own week, else the tenant's (clock set)", () => {
  let w: FlowWorld;
  /** A queue whose own week each row sets. */
  let ownQueue: number;
  /** A queue without its own hours (businessHours null). */
  let plainQueue: number;
  type Day = 'O' | 'C';
  const weekOf = (rest: Day, days: Partial<Record<number, Day>> = {}) =>
    Array.from({ length: 7 }, (_, day) => ({ day, type: days[day] ?? rest, hr1: '08:00', hr2: '12:00', hr3: '13:00', hr4: '18:00' }));

  beforeAll(async () => {
    w = await flowWorld(server, graph);
    [{ id: ownQueue }] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Plantão', '#ff0000') RETURNING id`, [w.tenant.id]);
    [{ id: plainQueue }] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Comercial', '#00ff00') RETURNING id`, [w.tenant.id]);
  });

  // 2026-11-23 is a Monday; São Paulo is UTC-3, Tokyo UTC+9. The tenant's zone is São Paulo unless a row says otherwise.
  const rows: {
    name: string;
    queue: 'own' | 'plain' | 'none';
    queueWeek?: unknown[];
    tenantWeek: unknown[];
    at: string;
    timeZone?: string;
    open: boolean;
  }[] = [
    { name: 'queue with its own week open, the tenant closed: open', queue: 'own', queueWeek: weekOf('O'), tenantWeek: weekOf('C'), at: '2026-11-23T14:00:00Z', open: true },
    { name: 'queue with its own week closed, the tenant open: closed', queue: 'own', queueWeek: weekOf('C'), tenantWeek: weekOf('O'), at: '2026-11-23T14:00:00Z', open: false },
    { name: "queue without its own hours: the tenant's (closed)", queue: 'plain', tenantWeek: weekOf('C'), at: '2026-11-23T14:00:00Z', open: false },
    { name: "queue without its own hours: the tenant's (open)", queue: 'plain', tenantWeek: weekOf('O'), at: '2026-11-23T14:00:00Z', open: true },
    { name: "no queue: the tenant's (closed)", queue: 'none', tenantWeek: weekOf('C'), at: '2026-11-23T14:00:00Z', open: false },
    {
      name: "across midnight: Tuesday 01:30 UTC is the queue's Monday 22:30 in São Paulo (open)",
      queue: 'own',
      queueWeek: weekOf('C', { 1: 'O' }),
      tenantWeek: weekOf('O', { 1: 'C' }),
      at: '2026-11-24T01:30:00Z',
      open: true,
    },
    {
      name: "across midnight: Tuesday 00:30 in São Paulo is the queue's Tuesday (closed)",
      queue: 'own',
      queueWeek: weekOf('C', { 1: 'O' }),
      tenantWeek: weekOf('O', { 1: 'C' }),
      at: '2026-11-24T03:30:00Z',
      open: false,
    },
    {
      name: "across midnight without queue hours: the tenant's Monday 22:30 in São Paulo (closed)",
      queue: 'plain',
      tenantWeek: weekOf('O', { 1: 'C' }),
      at: '2026-11-24T01:30:00Z',
      open: false,
    },
    {
      name: "the queue's week in the tenant's zone: Sunday 23:30 UTC is Monday 08:30 in Tokyo (open)",
      queue: 'own',
      queueWeek: weekOf('C', { 1: 'O' }),
      tenantWeek: weekOf('O', { 1: 'C' }),
      at: '2026-11-22T23:30:00Z',
      timeZone: 'Asia/Tokyo',
      open: true,
    },
  ];

  it.each(rows)('$name', async (r) => {
    const db = server.deps.dataSource;
    const queueId = r.queue === 'own' ? ownQueue : r.queue === 'plain' ? plainQueue : null;
    await db.query(`UPDATE tenants SET "businessHours" = $2 WHERE id = $1`, [w.tenant.id, JSON.stringify(r.tenantWeek)]);
    await db.query(`UPDATE queues SET "businessHours" = $2 WHERE id = $1`, [ownQueue, JSON.stringify(r.queueWeek ?? null)]);
    await db.query(`UPDATE channels SET "queueId" = $2 WHERE id = $1`, [w.channel, queueId]);
    await db.query(`DELETE FROM settings WHERE "tenantId" = $1 AND key = 'timeZone'`, [w.tenant.id]);
    if (r.timeZone) await db.query(`INSERT INTO settings ("tenantId", key, value) VALUES ($1, 'timeZone', $2)`, [w.tenant.id, r.timeZone]);
    const shift = new Date(r.at).getTime() - clock.now().getTime();
    clock.advance(shift);
    try {
      // The flow setting "route if outside business hours".
      const outside = await insertFlow(server, w.tenant.id, {
        startStepId: 'a',
        settings: { outsideBusinessHoursTarget: toStep('fora') },
        steps: [step('a', [{ type: 'message', text: 'dentro' }]), step('fora', [{ type: 'message', text: 'fora' }])],
      });
      await useFlowOnChannel(server, w.channel, outside.id);
      const first = newNumber();
      await say(server, graph, w.channel, first, 'oi');
      expect(await waitTexts(graph, first, 1)).toEqual([r.open ? 'dentro' : 'fora']);
      expect((await ticketOf(server, w.tenant.id, first)).queueId).toBe(queueId);

      // The businessHours condition of a step.
      const condition = await insertFlow(server, w.tenant.id, {
        startStepId: 'a',
        steps: [
          step('a', [{ type: 'message', text: 'Menu' }], [
            { type: 'businessHours', open: true, target: toStep('aberto') },
            { type: 'businessHours', open: false, target: toStep('fechado') },
          ]),
          step('aberto', [{ type: 'message', text: 'aberto' }]),
          step('fechado', [{ type: 'message', text: 'fechado' }]),
        ],
      });
      await useFlowOnChannel(server, w.channel, condition.id);
      const second = newNumber();
      await say(server, graph, w.channel, second, 'oi');
      await waitTexts(graph, second, 1);
      await say(server, graph, w.channel, second, 'x');
      expect(await waitTexts(graph, second, 2)).toEqual(['Menu', r.open ? 'aberto' : 'fechado']);
    } finally {
      clock.advance(-shift);
    }
  });
});

describe('routing targets', () => {
  let w: FlowWorld;
  let queue: number;
  let second: number;
  beforeAll(async () => {
    w = await flowWorld(server, graph);
    [{ id: queue }] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Vendas', '#00ff00') RETURNING id`, [w.tenant.id]);
    [{ id: second }] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Telegram', 'telegram', 'CONNECTED') RETURNING id`,
      [w.tenant.id],
    );
  });

  const cases: { name: string; target: () => Record<string, unknown>; settings?: Record<string, unknown>; expect: () => Record<string, unknown>; texts: string[] }[] = [
    { name: 'queue (no distribution): pending in the queue', target: () => ({ type: 'queue', queueId: queue }), expect: () => ({ queueId: queue, userId: null, status: 'pending' }), texts: [] },
    { name: 'user: open for that agent', target: () => ({ type: 'user', userId: w.users.user.id }), expect: () => ({ userId: w.users.user.id, status: 'open' }), texts: [] },
    {
      name: 'close: end message, ticket closed',
      target: () => ({ type: 'close' }),
      settings: { endMessage: 'Até mais, {{firstName}}!' },
      expect: () => ({ status: 'closed', closeReason: 'chatbot' }),
      texts: ['Até mais, Maria!'],
    },
    {
      name: 'close without closing the service: end message, pending without the bot',
      target: () => ({ type: 'close' }),
      settings: { endMessage: 'Tchau', closeService: false },
      expect: () => ({ status: 'pending', userId: null }),
      texts: ['Tchau'],
    },
    { name: 'channel: the ticket moves to another channel of the tenant', target: () => ({ type: 'channel', channelId: second }), expect: () => ({ whatsappId: second, channel: 'telegram' }), texts: [] },
  ];

  it.each(cases)('$name', async (c) => {
    const flow = await insertFlow(server, w.tenant.id, {
      startStepId: 'a',
      settings: c.settings ?? {},
      steps: [step('a', [{ type: 'message', text: 'olá' }], [{ type: 'any', target: c.target() }])],
    });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    await waitTexts(graph, number, 1);
    await say(server, graph, w.channel, number, 'ok');
    const ticket = await ticketOf(server, w.tenant.id, number);
    expect(ticket).toMatchObject({ botActive: false, ...c.expect() });
    expect(await botState(server, ticket.id)).toBeNull();
    if (c.texts.length) expect((await waitTexts(graph, number, 1 + c.texts.length)).slice(1)).toEqual(c.texts);
    const logs = await server.deps.dataSource.query(`SELECT type, data FROM ticket_logs WHERE "ticketId" = $1 ORDER BY id`, [ticket.id]);
    expect(logs.map((l: { type: string }) => l.type)).toEqual(['create', 'chatbotStart', 'chatbotRoute']);
  });
});

describe('attempts, inactivity, takeover and who the bot skips', () => {
  let w: FlowWorld;
  beforeAll(async () => {
    w = await flowWorld(server, graph);
  });

  const menuFlow = (settings: Record<string, unknown> = {}) =>
    insertFlow(server, w.tenant.id, {
      startStepId: 'a',
      settings: { fallbackMessage: 'Opção inválida', ...settings },
      steps: [
        step('a', [{ type: 'flowBuilder', text: 'Menu', options: ['Sim'] }], [{ type: 'option', values: ['1'], target: toStep('b') }]),
        step('b', [{ type: 'message', text: 'ok' }]),
      ],
    });

  it('after max attempts the ticket goes to maxAttemptsTarget', async () => {
    const [{ id: queue }] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Humano', '#0000ff') RETURNING id`, [w.tenant.id]);
    const flow = await menuFlow({ maxAttempts: 3, maxAttemptsTarget: { type: 'queue', queueId: queue } });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    await say(server, graph, w.channel, number, 'x');
    await say(server, graph, w.channel, number, 'y');
    const ticket = await ticketOf(server, w.tenant.id, number);
    expect(await botState(server, ticket.id)).toMatchObject({ attempts: 2 });
    await say(server, graph, w.channel, number, 'z');
    expect(await waitTexts(graph, number, 3)).toEqual(['Menu\n\n1 - Sim', 'Opção inválida', 'Opção inválida']);
    expect(await ticketOf(server, w.tenant.id, number)).toMatchObject({ botActive: false, queueId: queue, status: 'pending' });
    expect(await botState(server, ticket.id)).toBeNull();
  });

  it('inactivity: the sweep routes an idle ticket to noAnswerTarget exactly once (default close)', async () => {
    const flow = await menuFlow({ noAnswerMinutes: 10, endMessage: 'Encerrado por falta de resposta' });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    const ticket = await ticketOf(server, w.tenant.id, number);
    const state = await botState(server, ticket.id);
    expect(new Date(state.dueAt).getTime() - new Date(state.updatedAt).getTime()).toBeGreaterThan(9.9 * 60_000);
    await server.deps.periodic.runNow(CHATBOT_SWEEP_JOB);
    expect(await botState(server, ticket.id)).not.toBeNull();
    clock.advance(11 * 60_000);
    try {
      // Two sweeps at once (two processes): one routes, the other finds nothing.
      const { chatflowEngineOf } = await import('./chatflow-wiring');
      const engine = chatflowEngineOf(server.deps);
      await Promise.all([engine.sweep(), engine.sweep(), server.deps.periodic.runNow(CHATBOT_SWEEP_JOB)]);
      expect(await ticketOf(server, w.tenant.id, number)).toMatchObject({ status: 'closed', closeReason: 'chatbot', botActive: false });
      // The end message is stamped with the advanced clock, and delivery reads the same clock:
      // it is awaited before the clock goes back (with Redis it is a job, not an inline send).
      expect(await waitTexts(graph, number, 2)).toEqual(['Menu\n\n1 - Sim', 'Encerrado por falta de resposta']);
    } finally {
      clock.advance(-11 * 60_000);
    }
    const routes = await server.deps.dataSource.query(`SELECT data FROM ticket_logs WHERE "ticketId" = $1 AND type = 'chatbotRoute'`, [ticket.id]);
    expect(routes).toHaveLength(1);
    expect(routes[0].data).toMatchObject({ reason: 'noAnswer' });
  });

  it('an agent who takes the ticket stops the bot', async () => {
    const flow = await menuFlow();
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    const ticket = await ticketOf(server, w.tenant.id, number);
    expect(await botState(server, ticket.id)).not.toBeNull();
    const res = await server.request('PUT', `/tickets/${ticket.id}`, { token: w.users.admin.token, body: { status: 'open' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ botActive: false, userId: w.users.admin.id });
    expect(await botState(server, ticket.id)).toBeNull();
    await say(server, graph, w.channel, number, '1');
    await new Promise((r) => setTimeout(r, 200));
    expect(textsTo(graph, number)).toEqual(['Menu\n\n1 - Sim']);
  });

  // Needs a PostgreSQL server: two transactions waiting on each other's row lock (the embedded
  // PGlite runs one statement at a time, so the race cannot happen there).
  it.skipIf(!process.env.DATABASE_URL)('a bot turned off while its step waits for the ticket\'s lock writes nothing (the step sees the ticket as it is after the lock)', async () => {
    const flow = await menuFlow();
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    await say(server, graph, w.channel, number, 'oi');
    await waitTexts(graph, number, 1);
    const ticket = await ticketOf(server, w.tenant.id, number);
    expect(await botState(server, ticket.id)).not.toBeNull();

    // Someone holds the ticket's row lock (as the route that turns the bot off does) ...
    const holder = server.deps.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM tickets WHERE id = $1 FOR UPDATE`, [ticket.id]);
      // ... while the customer's answer reaches the engine (as the inbound pipeline hands it over
      // after storing it): the step reads, decides and then waits for the lock.
      const event = {
        tenantId: w.tenant.id,
        messageId: 0,
        inbound: { type: 'text', body: '1' },
        ticket: { id: ticket.id, status: ticket.status, queueId: null, userId: null, botActive: true, chatFlowId: flow.id, isGroup: false, ratingRequested: false, created: false },
      } as unknown as InboundEvent;
      const answered = chatflowEngineOf(server.deps).onInbound(event);
      await waitFor(async () => {
        const [row] = await server.deps.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return row.n > 0;
      }, 'the step waiting for the ticket lock');
      // The holder turns the bot off and commits.
      await holder.query(`UPDATE tickets SET "botActive" = false WHERE id = $1`, [ticket.id]);
      await holder.query(`DELETE FROM ticket_bot_states WHERE "ticketId" = $1`, [ticket.id]);
      await holder.commitTransaction();
      expect(await answered).toBeUndefined();
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await ticketOf(server, w.tenant.id, number)).botActive).toBe(false);
    expect(await botState(server, ticket.id)).toBeNull();
    expect(textsTo(graph, number)).toEqual(['Menu\n\n1 - Sim']);
    const logs = await server.deps.dataSource.query(`SELECT type FROM ticket_logs WHERE "ticketId" = $1 AND type LIKE 'chatbot%'`, [ticket.id]);
    expect(logs.map((l: { type: string }) => l.type)).toEqual(['chatbotStart']);
    await useFlowOnChannel(server, w.channel, null);
  });

  it('contacts with block chatbot, and first messages without the start keyword, are skipped', async () => {
    const flow = await insertFlow(server, w.tenant.id, { startStepId: 'a', steps: [step('a', [{ type: 'message', text: 'bot' }])] });
    await useFlowOnChannel(server, w.channel, flow.id);
    const blocked = newNumber();
    await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number, "blockChatbot") VALUES ($1, 'Sem bot', $2, true)`, [w.tenant.id, blocked]);
    await say(server, graph, w.channel, blocked, 'oi');
    const keywordFlow = await insertFlow(server, w.tenant.id, { startStepId: 'a', settings: { startKeyword: 'atendimento' }, steps: [step('a', [{ type: 'message', text: 'bot' }])] });
    await useFlowOnChannel(server, w.channel, keywordFlow.id);
    const plain = newNumber();
    await say(server, graph, w.channel, plain, 'oi');
    const asked = newNumber();
    await say(server, graph, w.channel, asked, 'Quero ATENDIMENTO');
    await waitTexts(graph, asked, 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(textsTo(graph, blocked)).toEqual([]);
    expect(textsTo(graph, plain)).toEqual([]);
    expect((await ticketOf(server, w.tenant.id, blocked)).botActive).toBe(false);
    await useFlowOnChannel(server, w.channel, null);
  });

  it('a bot send that fails does not lose the customer\'s message', async () => {
    const flow = await insertFlow(server, w.tenant.id, { startStepId: 'a', steps: [step('a', [{ type: 'message', text: 'bot' }])] });
    await useFlowOnChannel(server, w.channel, flow.id);
    const number = newNumber();
    graph.failNext({ status: 400, error: { message: 'Recipient not allowed', code: 131030 } }, { path: '/messages' });
    await say(server, graph, w.channel, number, 'mensagem importante');
    const ticket = await ticketOf(server, w.tenant.id, number);
    await waitFor(async () => {
      const rows = await server.deps.dataSource.query(`SELECT status FROM messages WHERE "ticketId" = $1 AND "fromMe"`, [ticket.id]);
      return rows[0]?.status === 'failed';
    }, 'bot message failed');
    const inbound = await server.deps.dataSource.query(`SELECT body, status FROM messages WHERE "ticketId" = $1 AND NOT "fromMe"`, [ticket.id]);
    expect(inbound).toEqual([{ body: 'mensagem importante', status: 'received' }]);
    expect(await botState(server, ticket.id)).toMatchObject({ stepId: 'a' });
    await useFlowOnChannel(server, w.channel, null);
  });
});
