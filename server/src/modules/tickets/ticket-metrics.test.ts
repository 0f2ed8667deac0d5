import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillTicketMetrics } from '../../../../migrations/1763780000000-ticket-metrics';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import type { InboundMessage } from '../../channels/channel-adapter';
import { transitionFacts } from './ticket-metrics';
import { insertChannel, ticketWorld, type TicketWorld } from './tickets.test-support';

/**
 * Recorded metrics (issue #13): a ticket's life through the real routes and the inbound
 * pipeline writes its facts in the same transactions; the migration's back-fill, run over the
 * same tickets, logs and messages, derives the same facts.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const q = (sql: string, params?: unknown[]) => server.deps.dataSource.query(sql, params);

interface Fact {
  ticketId: number;
  kind: string;
  at: Date;
  queueId: number | null;
  userId: number | null;
  whatsappId: number | null;
  channel: string | null;
  contactId: number;
  fromQueueId: number | null;
  fromUserId: number | null;
  value: number | null;
}

async function facts(tenantId: number): Promise<Fact[]> {
  return q(
    `SELECT "ticketId", kind, at, "queueId", "userId", "whatsappId", channel, "contactId", "fromQueueId", "fromUserId", value
       FROM ticket_metric_events WHERE "tenantId" = $1 ORDER BY "ticketId", at, id`,
    [tenantId],
  );
}

/** ticket_metric_daily as stored (slots added up), and as the message facts add up per UTC day. */
async function dailyCounts(tenantId: number): Promise<{ stored: unknown[]; fromFacts: unknown[] }> {
  const order = `ORDER BY kind, day, "queueId" NULLS FIRST, "userId" NULLS FIRST`;
  return {
    // A day's count may be spread over several slot rows (one per writing connection): their sum.
    stored: await q(
      `SELECT kind, day, "queueId", "userId", sum(n)::int AS n FROM ticket_metric_daily WHERE "tenantId" = $1 GROUP BY 1, 2, 3, 4 ${order}`,
      [tenantId],
    ),
    fromFacts: await q(
      `SELECT kind, (at AT TIME ZONE 'UTC')::date AS day, "queueId", CASE WHEN kind = 'reply' THEN "userId" END AS "userId", count(*)::int AS n
         FROM ticket_metric_events
        WHERE "tenantId" = $1 AND kind IN ('messageIn', 'reply', 'autoMessage') GROUP BY 1, 2, 3, 4 ${order}`,
      [tenantId],
    ),
  };
}

async function summaries(tenantId: number): Promise<Record<string, unknown>[]> {
  return q(
    `SELECT id, "isActiveDemand", "firstOpenedAt", "waitingSeconds", "firstReplyAt", "firstResponseSeconds", "resolutionSeconds"
       FROM tickets WHERE "tenantId" = $1 ORDER BY id`,
    [tenantId],
  );
}

const kindsOf = (list: Fact[], ticketId: number) => list.filter((f) => f.ticketId === ticketId).map((f) => f.kind);
const secondsBetween = (a: Date, b: Date) => Math.round((new Date(a).getTime() - new Date(b).getTime()) / 1000);

function inbound(w: TicketWorld, from: string, body: string): InboundMessage {
  return {
    channelId: w.channel,
    tenantId: w.tenant.id,
    providerMessageId: `wamid.${randomBytes(8).toString('hex')}`,
    from: { kind: 'wa', externalId: from, phone: from, name: `Cliente ${from.slice(-4)}` },
    isGroup: false,
    timestamp: Math.floor(Date.now() / 1000),
    type: 'chat',
    body,
  };
}

async function customerWrites(w: TicketWorld, from: string, body: string): Promise<number> {
  const [result] = await server.deps.channels.inbound.receive([inbound(w, from, body)]);
  expect(result.outcome).toBe('stored');
  return (result as { ticketId: number }).ticketId;
}

async function ok(res: Promise<{ status: number; body: any }>, status = 200) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}

/** A world whose channel sends inbound tickets to queue A (so queue A's agent sees them). */
async function world(): Promise<TicketWorld> {
  const w = await ticketWorld(server);
  await q(`UPDATE channels SET "queueId" = $2 WHERE id = $1`, [w.channel, w.queueA]);
  return w;
}

/** The life of several tickets through the routes; answers their ids. */
async function liveStory(w: TicketWorld) {
  const { admin, user: agentA } = w.users;
  const agentB = w.other;
  const put = (token: string, id: number, body: unknown) => ok(server.request('PUT', `/tickets/${id}`, { token, body }));
  const send = (token: string, id: number, body: string) => ok(server.request('POST', `/messages/${id}`, { token, body: { body } }), 201);

  // T1: a customer writes, agent A takes it and answers twice, the customer writes again, the
  // admin transfers it to queue B and agent B, who answers and resolves; rated 4 then 5;
  // reopened by the admin for agent B and resolved again.
  const c1 = `5511${Date.now().toString().slice(-9)}`;
  const t1 = await customerWrites(w, c1, 'Olá, preciso de ajuda');
  await put(agentA.token, t1, { status: 'open' });
  await send(agentA.token, t1, 'Bom dia! Como posso ajudar?');
  await send(agentA.token, t1, 'Um momento, por favor.');
  await customerWrites(w, c1, 'Obrigado');
  await put(admin.token, t1, { isTransference: true, queueId: w.queueB, userId: agentB.id });
  await send(agentB.token, t1, 'Sou do time B.');
  await put(agentB.token, t1, { status: 'closed', sendFarewellMessage: false, requestRating: false });
  await ok(server.request('POST', `/tickets/${t1}/rating`, { token: admin.token, body: { rating: 4 } }));
  await ok(server.request('POST', `/tickets/${t1}/rating`, { token: admin.token, body: { rating: 5 } }));
  await put(admin.token, t1, { status: 'open', userId: agentB.id });
  await put(agentB.token, t1, { status: 'closed', sendFarewellMessage: false, requestRating: false });

  // T2: agent A starts a conversation (an active demand, open from its first instant) and writes first.
  const [contact] = await q(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Ativo', $2) RETURNING id`, [
    w.tenant.id,
    `5521${Date.now().toString().slice(-9)}`,
  ]);
  const t2 = (await ok(server.request('POST', '/tickets', { token: agentA.token, body: { contactId: contact.id, queueId: w.queueA } }), 201)).id;
  await send(agentA.token, t2, 'Olá! Passando para confirmar seu pedido.');

  // T3: a customer writes, agent A takes it and gives it back to the queue, agent B... cannot see
  // queue A: the admin takes it and forces it closed.
  const c3 = `5531${Date.now().toString().slice(-9)}`;
  const t3 = await customerWrites(w, c3, 'Oi');
  await put(agentA.token, t3, { status: 'open' });
  await put(agentA.token, t3, { status: 'pending' });
  await put(admin.token, t3, { status: 'open' });
  await ok(server.request('PUT', `/ticketsForce/${t3}`, { token: admin.token, body: { status: 'closed' } }));

  // T4: a customer writes and nobody answers.
  const t4 = await customerWrites(w, `5541${Date.now().toString().slice(-9)}`, 'Alguém?');
  return { t1, t2, t3, t4 };
}

describe('facts recorded with each change', () => {
  it('records opening, waiting, replies, transfer, resolution, rating and reopening, each with its queue and agent', async () => {
    const w = await world();
    const { t1, t2, t3, t4 } = await liveStory(w);
    const all = await facts(w.tenant.id);
    const agentA = w.users.user.id;
    const agentB = w.other.id;

    // The story's order (each step its own transaction); the rating's fact is the correction's.
    const t1Facts = all.filter((f) => f.ticketId === t1);
    expect(t1Facts.map((f) => f.kind)).toEqual([
      'opened',
      'messageIn',
      'started',
      'assigned',
      'firstReply',
      'reply',
      'reply',
      'messageIn',
      'assigned',
      'transfer',
      'reply',
      'resolved',
      'rating',
      'reopened',
      'resolved',
    ]);
    const [ticket1] = await q(`SELECT * FROM tickets WHERE id = $1`, [t1]);
    const byKind = (kind: string) => t1Facts.filter((f) => f.kind === kind);
    // Opened by the customer: no agent, the channel's queue.
    expect(byKind('opened')[0]).toMatchObject({ userId: null, queueId: w.queueA, whatsappId: w.channel, channel: 'waba' });
    // Waiting: from creation to agent A's start.
    const started = byKind('started')[0];
    expect(started).toMatchObject({ userId: agentA, queueId: w.queueA });
    expect(started.value).toBe(secondsBetween(started.at, ticket1.createdAt));
    // First response: agent A's first message, measured from the customer's first message.
    const first = byKind('firstReply')[0];
    expect(first).toMatchObject({ userId: agentA, queueId: w.queueA });
    expect(first.value).toBe(secondsBetween(first.at, ticket1.createdAt));
    expect(byKind('reply').map((f) => [f.userId, f.queueId])).toEqual([
      [agentA, w.queueA],
      [agentA, w.queueA],
      [agentB, w.queueB],
    ]);
    // The customer's second message came while agent A had the ticket.
    expect(byKind('messageIn').map((f) => f.userId)).toEqual([null, agentA]);
    expect(byKind('transfer')[0]).toMatchObject({ fromQueueId: w.queueA, fromUserId: agentA, queueId: w.queueB, userId: agentB });
    expect(byKind('assigned').map((f) => [f.userId, f.queueId])).toEqual([
      [agentA, w.queueA],
      [agentB, w.queueB],
    ]);
    // Resolved by agent B twice; the rating (corrected to 5) is one fact for agent B.
    expect(byKind('resolved').map((f) => [f.userId, f.queueId])).toEqual([
      [agentB, w.queueB],
      [agentB, w.queueB],
    ]);
    for (const f of byKind('resolved')) expect(f.value).toBe(secondsBetween(f.at, ticket1.createdAt));
    expect(byKind('rating')).toHaveLength(1);
    expect(byKind('rating')[0]).toMatchObject({ value: 5, userId: agentB });

    // T2: the agent's own ticket is open at once (no waiting) and its first message answers nothing.
    expect(kindsOf(all, t2)).toEqual(['opened', 'assigned', 'firstReply', 'reply']);
    expect(all.find((f) => f.ticketId === t2 && f.kind === 'opened')).toMatchObject({ userId: agentA, queueId: w.queueA });
    expect(all.find((f) => f.ticketId === t2 && f.kind === 'firstReply')).toMatchObject({ userId: agentA, value: null });

    // T3: giving the ticket back to the queue moves it away from agent A; the admin's start is not a
    // second waiting time; the forced close resolves it for the admin.
    expect(kindsOf(all, t3)).toEqual(['opened', 'messageIn', 'started', 'assigned', 'transfer', 'assigned', 'resolved']);
    expect(all.filter((f) => f.ticketId === t3 && f.kind === 'assigned').map((f) => f.userId)).toEqual([agentA, w.users.admin.id]);
    expect(all.find((f) => f.ticketId === t3 && f.kind === 'transfer')).toMatchObject({
      fromUserId: agentA,
      userId: null,
      fromQueueId: w.queueA,
      queueId: w.queueA,
    });
    expect(all.find((f) => f.ticketId === t3 && f.kind === 'resolved')).toMatchObject({ userId: w.users.admin.id });
    expect(kindsOf(all, t4)).toEqual(['opened', 'messageIn']);

    // Summary columns.
    const rows = new Map((await summaries(w.tenant.id)).map((r) => [r.id as number, r]));
    const s1 = rows.get(t1)!;
    expect(s1).toMatchObject({ isActiveDemand: false, waitingSeconds: started.value, firstResponseSeconds: first.value });
    expect(s1.resolutionSeconds).toBe(byKind('resolved')[1].value);
    expect(new Date(s1.firstOpenedAt as Date).getTime()).toBe(new Date(started.at).getTime());
    expect(rows.get(t2)).toMatchObject({ isActiveDemand: true, waitingSeconds: null, firstResponseSeconds: null });
    expect(rows.get(t2)!.firstOpenedAt).not.toBeNull();
    expect(rows.get(t4)).toMatchObject({ isActiveDemand: false, firstOpenedAt: null, firstReplyAt: null, resolutionSeconds: null });

    // The day counts hold every message fact: 2 + 1 + 1 from customers, 3 + 1 replies.
    const daily = await dailyCounts(w.tenant.id);
    expect(daily.stored).toEqual(daily.fromFacts);
    const total = (kind: string) => (daily.stored as { kind: string; n: number }[]).filter((d) => d.kind === kind).reduce((a, d) => a + d.n, 0);
    expect([total('messageIn'), total('reply')]).toEqual([4, 4]);
  });

  it('does not count private notes or scheduled messages as replies; a refused change leaves no fact', async () => {
    const w = await world();
    const t = await customerWrites(w, `5551${Date.now().toString().slice(-9)}`, 'Oi');
    const token = w.users.user.token;
    await ok(server.request('PUT', `/tickets/${t}`, { token, body: { status: 'open' } }));
    await ok(server.request('POST', `/messages/${t}`, { token, body: { body: 'nota interna', isPrivate: true } }), 201);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await ok(server.request('POST', `/messages/${t}`, { token, body: { body: 'amanhã', scheduleDate: later } }), 201);
    expect(kindsOf(await facts(w.tenant.id), t)).toEqual(['opened', 'messageIn', 'started', 'assigned']);
    // Refused transfer (nothing changes): no transfer fact.
    const refused = await server.request('PUT', `/tickets/${t}`, { token, body: { isTransference: true, userId: w.users.user.id } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(kindsOf(await facts(w.tenant.id), t)).toEqual(['opened', 'messageIn', 'started', 'assigned']);
  });
});

describe('transition facts', () => {
  const s = (status: string, queueId: number | null, userId: number | null) => ({ status, queueId, userId });
  it('tells transfers from takes, and resolutions from reopenings', () => {
    expect(transitionFacts(s('pending', 1, null), s('open', 1, 7)).map((f) => f.kind)).toEqual(['started', 'assigned']);
    expect(transitionFacts(s('open', 1, 7), s('open', 1, 8))).toEqual([
      { kind: 'assigned', fromQueueId: null, fromUserId: null },
      { kind: 'transfer', fromQueueId: 1, fromUserId: 7 },
    ]);
    expect(transitionFacts(s('open', 1, 7), s('pending', 2, null)).map((f) => f.kind)).toEqual(['transfer']);
    expect(transitionFacts(s('pending', 1, null), s('pending', 2, null)).map((f) => f.kind)).toEqual(['transfer']);
    expect(transitionFacts(s('pending', 1, null), s('closed', 1, 9)).map((f) => f.kind)).toEqual(['resolved', 'assigned']);
    expect(transitionFacts(s('closed', 1, 9), s('open', 2, 3)).map((f) => f.kind)).toEqual(['reopened', 'assigned']);
    expect(transitionFacts(s('closed', 1, 9), s('pending', 1, null)).map((f) => f.kind)).toEqual(['reopened']);
    expect(transitionFacts(s('open', 1, 7), s('open', 1, 7))).toEqual([]);
  });
});

describe('back-fill', () => {
  it('derives from tickets, logs, messages and ratings the facts live recording wrote', async () => {
    const w = await world();
    await liveStory(w);
    // A second channel, so facts carry channels too.
    await insertChannel(server, w.tenant.id, { type: 'telegram' });
    const live = await facts(w.tenant.id);
    const liveSummaries = await summaries(w.tenant.id);
    const liveDaily = (await dailyCounts(w.tenant.id)).stored;
    expect(liveDaily.length).toBeGreaterThan(0);
    expect(live.length).toBeGreaterThan(20);

    await q(`DELETE FROM ticket_metric_events WHERE "tenantId" = $1`, [w.tenant.id]);
    await q(`DELETE FROM ticket_metric_daily WHERE "tenantId" = $1`, [w.tenant.id]);
    await q(
      `UPDATE tickets SET "isActiveDemand" = false, "firstOpenedAt" = NULL, "waitingSeconds" = NULL, "firstReplyAt" = NULL,
              "firstResponseSeconds" = NULL, "resolutionSeconds" = NULL WHERE "tenantId" = $1`,
      [w.tenant.id],
    );
    await backfillTicketMetrics(server.deps.dataSource, { tenantId: w.tenant.id });

    const normal = (list: Fact[]) =>
      list
        .map((f) => ({ ...f, at: new Date(f.at).toISOString() }))
        .sort((a, b) => a.ticketId - b.ticketId || a.at.localeCompare(b.at) || a.kind.localeCompare(b.kind));
    expect(normal(await facts(w.tenant.id))).toEqual(normal(live));
    expect(await summaries(w.tenant.id)).toEqual(liveSummaries);
    expect((await dailyCounts(w.tenant.id)).stored).toEqual(liveDaily);
  });
});
