import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGraphApi, newWamid } from '../../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../../tests/helpers/test-server';
import { sendAbsenceMessageIfClosed } from '../../tenants/absence-message';
import type { InboundMessage } from '../../../channels/channel-adapter';
import { createWabaChannel, newWaId, type WabaTestBed } from '../../../channels/waba/waba.test-support';

/**
 * The inbound hooks of issue #14 items 3-5, through the fake Cloud API channel and the real
 * pipeline, with a clock the test moves (business hours are read from it).
 */
let bed: WabaTestBed;
let now = new Date('2026-11-23T14:00:00Z'); // Monday 11:00 in São Paulo
beforeAll(async () => {
  const fake = await new FakeGraphApi().start();
  const server: TestServer = await startTestServer(
    { WABA_GRAPH_BASE_URL: fake.url, PUBLIC_URL: 'https://atende.example.com' },
    { clock: { now: () => now } },
  );
  bed = { server, fake, close: async () => (await server.close(), await fake.stop()) };
});
afterAll(async () => bed?.close());
beforeEach(() => {
  now = new Date('2026-11-23T14:00:00Z');
});

const ds = () => bed.server.deps.dataSource;
const pipeline = () => bed.server.deps.channels.inbound;

function text(tenantId: number, channelId: number, from: string, body: string): InboundMessage {
  return {
    channelId,
    tenantId,
    providerMessageId: newWamid(),
    from: { kind: 'wa', externalId: from, phone: from, name: `Cliente ${from.slice(-4)}` },
    isGroup: false,
    timestamp: Math.floor(now.getTime() / 1000),
    type: 'chat',
    body,
  };
}

async function receive(t: { tenant: { id: number } }, channelId: number, from: string, body: string) {
  const result = await pipeline().receiveOne(text(t.tenant.id, channelId, from, body));
  await pipeline().idle();
  return result;
}

async function automated(ticketId: number): Promise<{ body: string; origin: string }[]> {
  return ds().query(`SELECT body, "dataJson"->>'origin' AS origin FROM messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY id`, [
    ticketId,
  ]);
}

async function setup(channelExtra: Record<string, unknown> = {}) {
  const t = await bed.server.createTenantWithUsers();
  const token = t.users.admin.token;
  const channel = await createWabaChannel(bed, token, channelExtra);
  return { ...t, token, channel };
}

async function absenceSetup(message = 'Estamos fechados, {{name}}.') {
  const t = await setup();
  const res = await bed.server.request('PUT', '/tenants/message-business-hours', {
    token: t.token,
    body: { messageBusinessHours: message },
  });
  expect(res.status).toBe(200);
  return t;
}

describe('business hours hook (order 200)', () => {
  it('sends the absence message outside hours once per window, not inside hours', async () => {
    const t = await absenceSetup();
    const contact = newWaId();
    // Monday 11:00 local: open.
    const first = await receive(t, t.channel.id, contact, 'oi');
    expect(await automated(first.ticketId!)).toEqual([]);
    // Monday 19:30 local (22:30 UTC): closed; the message once, even for three messages.
    now = new Date('2026-11-23T22:30:00Z');
    await receive(t, t.channel.id, contact, 'alguém aí?');
    // The ticket list shows it as the last message, as it does the farewell.
    const [{ lastMessage }] = await ds().query(`SELECT "lastMessage" FROM tickets WHERE id = $1`, [first.ticketId]);
    expect(lastMessage).toBe(`Estamos fechados, Cliente ${contact.slice(-4)}.`);
    await receive(t, t.channel.id, contact, 'olá?');
    now = new Date('2026-11-24T02:59:00Z'); // 23:59 local, same window
    await receive(t, t.channel.id, contact, 'ainda aqui');
    const sent = await automated(first.ticketId!);
    expect(sent).toEqual([{ body: `Estamos fechados, Cliente ${contact.slice(-4)}.`, origin: 'businessHours' }]);
    // Across midnight into Tuesday 07:00 local, more than 12 h later: a new window.
    now = new Date('2026-11-24T10:31:00Z');
    await receive(t, t.channel.id, contact, 'bom dia');
    expect((await automated(first.ticketId!)).map((m) => m.origin)).toEqual(['businessHours', 'businessHours']);
    // Automated messages count as such in the metrics, never as an agent's reply.
    const facts = await ds().query(
      `SELECT count(*)::int AS n FROM ticket_metric_events WHERE "ticketId" = $1 AND kind = 'autoMessage'`,
      [first.ticketId],
    );
    expect(facts[0].n).toBe(2);
  });

  it('does not send it when an agent replied within the window (a conversation carried past closing time)', async () => {
    const t = await absenceSetup('Fechado');
    const contact = newWaId();
    now = new Date('2026-11-23T21:30:00Z'); // Monday 18:30 local: closed
    const r = await receive(t, t.channel.id, contact, 'oi');
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['businessHours']);
    // The agent answers at 22:00 local.
    await ds().query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", "mediaType", status, timestamp, "createdAt")
       SELECT "tenantId", id, "contactId", 'resposta do agente', true, $2, "whatsappId", 'chat', 'sent', 0, $3 FROM tickets WHERE id = $1`,
      [r.ticketId, t.users.admin.id, new Date('2026-11-24T01:00:00Z')],
    );
    // Tuesday 07:40 local: the absence mark is 13 h old, but the agent replied 9 h 40 ago.
    now = new Date('2026-11-24T10:40:00Z');
    await receive(t, t.channel.id, contact, 'bom dia');
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['businessHours', null]);
  });

  it('two workers handling the same ticket at once send the absence message once (the window is claimed in the database)', async () => {
    const t = await absenceSetup('Fechado agora');
    now = new Date('2026-11-23T12:00:00Z'); // Monday 09:00 local: open, so the hook sends nothing yet
    const r = await receive(t, t.channel.id, newWaId(), 'oi');
    const closed = new Date('2026-11-23T23:00:00Z');
    const ticket = { id: r.ticketId!, tenantId: t.tenant.id, queueId: null };
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => bed.server.deps.events.transaction((tx) => sendAbsenceMessageIfClosed(tx, ticket, closed))),
    );
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'alreadySent')).toHaveLength(3);
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['businessHours']);
  });

  it('C sends it all day, O never, in the tenant time zone setting', async () => {
    const t = await absenceSetup('Fechado hoje');
    const days = Array.from({ length: 7 }, (_, day) => ({
      day,
      type: day === 1 ? 'C' : 'O',
      hr1: '08:00',
      hr2: '12:00',
      hr3: '13:00',
      hr4: '18:00',
    }));
    expect((await bed.server.request('PUT', '/tenants/business-hours', { token: t.token, body: days })).status).toBe(200);
    expect(
      (await bed.server.request('PUT', '/settings/timeZone', { token: t.token, body: { value: 'Asia/Tokyo' } })).status,
    ).toBe(200);
    // Monday 11:00 in São Paulo is Monday 23:00 in Tokyo: Monday, closed (C).
    const a = await receive(t, t.channel.id, newWaId(), 'oi');
    expect((await automated(a.ticketId!)).map((m) => m.body)).toEqual(['Fechado hoje']);
    // Monday 16:00 UTC is Tuesday 01:00 in Tokyo: open all day (O).
    now = new Date('2026-11-23T16:00:00Z');
    const b = await receive(t, t.channel.id, newWaId(), 'oi');
    expect(await automated(b.ticketId!)).toEqual([]);
  });

  it("uses the queue's own hours when the queue has them", async () => {
    const t = await absenceSetup('Fila fechada');
    const open = Array.from({ length: 7 }, (_, day) => ({
      day,
      type: 'O',
      hr1: '08:00',
      hr2: '12:00',
      hr3: '13:00',
      hr4: '18:00',
    }));
    const queue = await bed.server.request('POST', '/queue', { token: t.token, body: { name: 'Plantão', businessHours: open } });
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    expect(queue.body.businessHours).toHaveLength(7);
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: queue.body.id } });
    now = new Date('2026-11-23T23:30:00Z'); // 20:30 local: the tenant is closed, the queue open
    const a = await receive(t, t.channel.id, newWaId(), 'oi');
    expect(await automated(a.ticketId!)).toEqual([]);
  });
});

describe('channel rules hook (order 150)', () => {
  it('greets a new ticket in the channel queue once, and again when it enters another queue', async () => {
    const t = await setup();
    const q1 = await bed.server.request('POST', '/queue', {
      token: t.token,
      body: { name: 'Vendas', greetingMessage: 'Bem-vindo a Vendas, {{firstName}}' },
    });
    const q2 = await bed.server.request('POST', '/queue', {
      token: t.token,
      body: { name: 'Suporte', greetingMessage: 'Suporte aqui' },
    });
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: q1.body.id } });
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'oi');
    await receive(t, t.channel.id, contact, 'oi de novo');
    expect(await automated(r.ticketId!)).toEqual([{ body: 'Bem-vindo a Vendas, Cliente', origin: 'queueGreeting' }]);
    const moved = await bed.server.request('PUT', `/tickets/${r.ticketId}`, {
      token: t.token,
      body: { queueId: q2.body.id, isTransference: true },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await automated(r.ticketId!)).map((m) => m.body)).toEqual(['Bem-vindo a Vendas, Cliente', 'Suporte aqui']);
    // Taken, then given back to the queue: another entry.
    await bed.server.request('PUT', `/tickets/${r.ticketId}`, { token: t.token, body: { status: 'open' } });
    await bed.server.request('PUT', `/tickets/${r.ticketId}`, { token: t.token, body: { status: 'pending' } });
    expect((await automated(r.ticketId!)).map((m) => m.body)).toEqual([
      'Bem-vindo a Vendas, Cliente',
      'Suporte aqui',
      'Suporte aqui',
    ]);
  });

  it('closes the ticket when the message is the closing keyword (trim, case and accents aside), with the farewell', async () => {
    const t = await setup({ closingKeyword: 'Encerrar', farewellMessage: 'Até logo!' });
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'oi');
    const other = await receive(t, t.channel.id, newWaId(), 'quero encerrar a conta');
    await receive(t, t.channel.id, contact, '  ENCERRÁR ');
    const [row] = await ds().query(`SELECT status, "closeAt", "closeReason" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(row.closeReason).toBe('farewell');
    expect(row.closeAt).not.toBeNull();
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['farewell']);
    const [kept] = await ds().query(`SELECT status, "closeAt" FROM tickets WHERE id = $1`, [other.ticketId]);
    expect(kept).toEqual({ status: 'pending', closeAt: null });
  });

  it('asks for the rating first when the tenant has ratings on (the reply then closes it)', async () => {
    const t = await setup({ closingKeyword: 'fim', farewellMessage: 'Tchau' });
    const rating = await bed.server.request('PUT', '/tenants/rating', {
      token: t.token,
      body: { enabled: true, message: 'Dê uma nota de 0 a 5' },
    });
    expect(rating.status).toBe(200);
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'Fim');
    let [row] = await ds().query(`SELECT status, "ratingRequestedAt" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(row.status).toBe('pending');
    expect(row.ratingRequestedAt).not.toBeNull();
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['ratingRequest']);
    await receive(t, t.channel.id, contact, '5');
    [row] = await ds().query(`SELECT status, "closeReason" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(row).toEqual({ status: 'closed', closeReason: 'rating' });
  });

  it('closes at once without a farewell', async () => {
    const t = await setup({ closingKeyword: 'sair' });
    const r = await receive(t, t.channel.id, newWaId(), 'Sair');
    const [row] = await ds().query(`SELECT status, "closeReason" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(row).toEqual({ status: 'closed', closeReason: 'closingKeyword' });
  });

  it('balanced auto-distribution gives new tickets to the queue user with the fewest open tickets', async () => {
    const t = await setup({ autoDistribution: 'balanced' });
    const q = await bed.server.request('POST', '/queue', { token: t.token, body: { name: 'Geral' } });
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: q.body.id } });
    const agents = [t.users.user.id, t.users.super.id];
    await ds().query(`UPDATE users SET queues = $2::jsonb WHERE id = ANY($1::int[])`, [agents, JSON.stringify([q.body.id])]);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await receive(t, t.channel.id, newWaId(), 'oi'));
    const rows: { userId: number; status: string }[] = await ds().query(
      `SELECT "userId", status FROM tickets WHERE id = ANY($1::int[]) ORDER BY id`,
      [results.map((r) => r.ticketId)],
    );
    expect(rows.every((r) => r.status === 'open')).toBe(true);
    const counts = agents.map((id) => rows.filter((r) => r.userId === id).length);
    expect(counts).toEqual([2, 2]);
  });

  it('leaves a new ticket to the chatflow on a channel with one: no distribution, no greeting yet', async () => {
    const t = await setup({ autoDistribution: 'balanced' });
    const q = await bed.server.request('POST', '/queue', { token: t.token, body: { name: 'Geral', greetingMessage: 'Oi' } });
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: q.body.id } });
    await ds().query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [t.users.user.id, JSON.stringify([q.body.id])]);
    const [flow] = await ds().query(
      `INSERT INTO chat_flows ("tenantId", name, active, flow) VALUES ($1, 'Fluxo', true, '{}'::jsonb) RETURNING id`,
      [t.tenant.id],
    );
    await ds().query(`UPDATE channels SET "chatFlowId" = $2 WHERE id = $1`, [t.channel.id, flow.id]);
    const r = await receive(t, t.channel.id, newWaId(), 'oi');
    expect((await ds().query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [r.ticketId]))[0]).toEqual({
      status: 'pending',
      userId: null,
    });
    expect(await automated(r.ticketId!)).toEqual([]);
  });

  it('random auto-distribution assigns a queue user; a queue without users leaves the ticket pending', async () => {
    const t = await setup({ autoDistribution: 'random' });
    const q = await bed.server.request('POST', '/queue', { token: t.token, body: { name: 'Geral' } });
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: q.body.id } });
    const empty = await receive(t, t.channel.id, newWaId(), 'oi');
    expect((await ds().query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [empty.ticketId]))[0]).toEqual({
      status: 'pending',
      userId: null,
    });
    await ds().query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [t.users.user.id, JSON.stringify([q.body.id])]);
    const r = await receive(t, t.channel.id, newWaId(), 'oi');
    expect((await ds().query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [r.ticketId]))[0]).toEqual({
      status: 'open',
      userId: t.users.user.id,
    });
  });
});

describe('auto-reply hook (order 250)', () => {
  async function botSetup(channelExtra: Record<string, unknown> = {}) {
    const t = await setup(channelExtra);
    const token = t.token;
    const queue = await bed.server.request('POST', '/queue', {
      token,
      body: { name: 'Financeiro', greetingMessage: 'Financeiro, diga' },
    });
    const bot = await bed.server.request('POST', '/auto-reply', { token, body: { name: 'Menu' } });
    const menu = await bed.server.request('POST', `/auto-reply/${bot.body.id}/steps`, {
      token,
      body: { reply: 'Olá {{firstName}}! 1 vendas, 2 financeiro, 3 agente' },
    });
    const sales = await bed.server.request('POST', `/auto-reply/${bot.body.id}/steps`, {
      token,
      body: { reply: 'Qual produto?' },
    });
    const action = (body: Record<string, unknown>) =>
      bed.server.request('POST', '/auto-reply-action', { token, body: { stepReplyId: menu.body.id, ...body } });
    await action({ words: '1, vendas', action: 0, nextStepId: sales.body.id });
    await action({ words: '2,financeiro', action: 1, queueId: queue.body.id, replyDefinition: 'Encaminhando ao financeiro' });
    await action({ words: '3', action: 2, userIdDestination: t.users.user.id });
    return { ...t, queue: queue.body, bot: bot.body, menu: menu.body, sales: sales.body };
  }

  it('sends the initial step to a new ticket, repeats it on an unknown answer, and follows the actions to the next step', async () => {
    const t = await botSetup();
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'oi');
    expect(await automated(r.ticketId!)).toEqual([
      { body: 'Olá Cliente! 1 vendas, 2 financeiro, 3 agente', origin: 'autoReply' },
    ]);
    const announced = await ds().query(
      `SELECT count(*)::int AS n FROM domain_events
        WHERE "tenantId" = $1 AND name = 'appMessage:create' AND (payload->'message'->>'fromMe')::boolean`,
      [t.tenant.id],
    );
    expect(announced[0].n).toBe(1);
    await receive(t, t.channel.id, contact, 'hã?');
    await receive(t, t.channel.id, contact, ' VENDAS ');
    expect((await automated(r.ticketId!)).map((m) => m.body)).toEqual([
      'Olá Cliente! 1 vendas, 2 financeiro, 3 agente',
      'Olá Cliente! 1 vendas, 2 financeiro, 3 agente',
      'Qual produto?',
    ]);
    const [state] = await ds().query(`SELECT "autoReplyId", "stepAutoReplyId" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(state).toEqual({ autoReplyId: t.bot.id, stepAutoReplyId: t.sales.id });
  });

  it('routes to a queue (reply definition, then the queue greeting) and ends the bot', async () => {
    const t = await botSetup();
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'oi');
    await receive(t, t.channel.id, contact, '2');
    await receive(t, t.channel.id, contact, 'obrigado');
    expect((await automated(r.ticketId!)).map((m) => m.body)).toEqual([
      'Olá Cliente! 1 vendas, 2 financeiro, 3 agente',
      'Encaminhando ao financeiro',
      'Financeiro, diga',
    ]);
    const [row] = await ds().query(`SELECT status, "queueId", "userId", "stepAutoReplyId" FROM tickets WHERE id = $1`, [
      r.ticketId,
    ]);
    expect(row).toEqual({ status: 'pending', queueId: t.queue.id, userId: null, stepAutoReplyId: null });
  });

  it('routes to a user: the ticket opens for them and the bot stops answering', async () => {
    const t = await botSetup();
    const contact = newWaId();
    const r = await receive(t, t.channel.id, contact, 'oi');
    await receive(t, t.channel.id, contact, '3');
    await receive(t, t.channel.id, contact, '1');
    const [row] = await ds().query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [r.ticketId]);
    expect(row).toEqual({ status: 'open', userId: t.users.user.id });
    expect((await automated(r.ticketId!)).length).toBe(1);
  });

  it('a bot with a test number answers only that contact; an inactive bot answers nobody', async () => {
    const t = await botSetup();
    const tester = newWaId();
    await bed.server.request('PUT', `/auto-reply/${t.bot.id}`, { token: t.token, body: { testNumber: tester } });
    const other = await receive(t, t.channel.id, newWaId(), 'oi');
    expect(await automated(other.ticketId!)).toEqual([]);
    const mine = await receive(t, t.channel.id, tester, 'oi');
    expect((await automated(mine.ticketId!)).length).toBe(1);
    await bed.server.request('PUT', `/auto-reply/${t.bot.id}`, { token: t.token, body: { active: false, testNumber: null } });
    const off = await receive(t, t.channel.id, newWaId(), 'oi');
    expect(await automated(off.ticketId!)).toEqual([]);
  });

  it('does not run for tickets auto-distributed to an agent', async () => {
    const t = await botSetup({ autoDistribution: 'balanced' });
    await bed.server.request('PUT', `/whatsapp/${t.channel.id}`, { token: t.token, body: { queueId: t.queue.id } });
    await ds().query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [t.users.user.id, JSON.stringify([t.queue.id])]);
    const r = await receive(t, t.channel.id, newWaId(), 'oi');
    expect((await automated(r.ticketId!)).map((m) => m.origin)).toEqual(['queueGreeting']);
  });
});
