import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentNowRow, DashTicketsQueuesAnswer } from '@shared/schemas/statistics';
import { WAITING_SINCE_JOIN } from './ticket-panel.service';
import { startTestServer, type ApiResponse, type TestServer } from '../../../../tests/helpers/test-server';
import {
  insertContact,
  insertQueue,
  insertTicket,
  setSettings,
  setUserQueues,
  ticketWorld,
  type TicketWorld,
} from '../tickets/tickets.test-support';

/**
 * GET /dash-tickets-queues and GET /statistics-tickets-per-users-detail through the real app:
 * every figure is computed here from the rows the test writes, against a frozen clock.
 */

/** The server's clock, frozen: waiting times are exact. */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { clock: { now: () => NOW } });
});
afterAll(async () => server?.close());

function expectError(res: ApiResponse, status: number, code: string, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
  // A bad item of a list is named with its index: queuesIds.0
  if (field) expect(res.body.fields.map((f: { path: string }) => f.path.split('.')[0])).toContain(field);
}

const db = () => server.deps.dataSource;

/** One message of a ticket at a given time (customer's unless fromMe). */
async function message(ticketId: number, at: Date, fromMe: boolean, extra: { isPrivate?: boolean } = {}) {
  const [t] = await db().query(`SELECT "tenantId", "contactId" FROM tickets WHERE id = $1`, [ticketId]);
  await db().query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "isPrivate", status, "createdAt")
     VALUES ($1, $2, $3, 'oi', $4, $5, $6, $7)`,
    [t.tenantId, ticketId, t.contactId, fromMe, extra.isPrivate ?? false, fromMe ? 'sent' : 'received', at],
  );
}

async function answered(ticketId: number, value: boolean) {
  await db().query(`UPDATE tickets SET answered = $2 WHERE id = $1`, [ticketId, value]);
}

async function online(userId: number, value: boolean) {
  await db().query(`UPDATE users SET "isOnline" = $2 WHERE id = $1`, [userId, value]);
}

async function ticket(w: TicketWorld, fields: Parameters<typeof insertTicket>[2] & { contactName?: string }) {
  const contactId = await insertContact(server, w.tenant.id, fields.contactName);
  return insertTicket(server, w.tenant.id, { whatsappId: w.channel, ...fields, contactId });
}

const lane = (answer: DashTicketsQueuesAnswer, userId: number | null) => answer.users.find((u) => u.userId === userId)!;

describe('GET /dash-tickets-queues', () => {
  it('puts every open and pending ticket in its agent lane, oldest waiting first, with the queue summary', async () => {
    const w = await ticketWorld(server);
    // The user's lane: one waiting 30 min (first unanswered customer message after a reply), one
    // waiting 5 min, one answered (not waiting: last).
    const waiting30 = await ticket(w, {
      status: 'open',
      userId: w.users.user.id,
      queueId: w.queueA,
      lastMessageAt: minutesAgo(1),
      contactName: 'Ana',
    });
    await message(waiting30, minutesAgo(50), false);
    await message(waiting30, minutesAgo(40), true);
    await message(waiting30, minutesAgo(35), true, { isPrivate: true }); // a note answers nobody
    await message(waiting30, minutesAgo(30), false);
    await message(waiting30, minutesAgo(2), false);
    const waiting5 = await ticket(w, {
      status: 'open',
      userId: w.users.user.id,
      queueId: w.queueA,
      lastMessageAt: minutesAgo(60),
      contactName: 'Bruno',
    });
    await message(waiting5, minutesAgo(5), false);
    const replied = await ticket(w, {
      status: 'open',
      userId: w.users.user.id,
      queueId: w.queueA,
      lastMessageAt: minutesAgo(90),
    });
    await message(replied, minutesAgo(100), false);
    await message(replied, minutesAgo(95), true);
    await answered(replied, true);
    // Pending without an agent, in queue B and without a queue.
    const pendingB = await ticket(w, { status: 'pending', queueId: w.queueB });
    await message(pendingB, minutesAgo(12), false);
    const pendingNoQueue = await ticket(w, { status: 'pending', queueId: null });
    await message(pendingNoQueue, minutesAgo(20), false);
    // Not on the board: closed, and another tenant's open ticket.
    await ticket(w, { status: 'closed', userId: w.users.user.id, queueId: w.queueA });
    const b = await ticketWorld(server);
    await insertTicket(server, b.tenant.id, { status: 'open', userId: b.users.user.id, queueId: b.queueA });
    await online(w.users.user.id, true);
    await online(w.other.id, false);
    await db().query(`UPDATE queues SET color = '#ff0000' WHERE id = $1`, [w.queueA]);

    const res = await server.request<DashTicketsQueuesAnswer>('GET', '/dash-tickets-queues', { token: w.users.admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = res.body;

    // One lane per user of the tenant plus "Sem atendente" first; nobody of tenant B.
    expect(answer.users[0]).toMatchObject({ userId: null, name: 'Sem atendente', online: false, open: 0, pending: 2 });
    const tenantUsers = [w.users.admin.id, w.users.super.id, w.users.user.id, w.other.id].sort((x, y) => x - y);
    expect(
      answer.users
        .slice(1)
        .map((u) => u.userId)
        .sort((x, y) => (x ?? 0) - (y ?? 0)),
    ).toEqual(tenantUsers);

    const agent = lane(answer, w.users.user.id);
    expect(agent).toMatchObject({ online: true, open: 3, pending: 0 });
    expect(agent.tickets.map((t) => t.id)).toEqual([waiting30, waiting5, replied]);
    expect(agent.tickets[0]).toMatchObject({
      status: 'open',
      contactName: 'Ana',
      queueId: w.queueA,
      userId: w.users.user.id,
      channelId: w.channel,
      waitingSince: minutesAgo(30).toISOString(),
      waitingSeconds: 30 * 60,
    });
    expect(agent.tickets[1]).toMatchObject({ contactName: 'Bruno', waitingSeconds: 5 * 60 });
    expect(agent.tickets[2]).toMatchObject({ waitingSince: null, waitingSeconds: null });
    expect(lane(answer, w.other.id)).toMatchObject({ online: false, open: 0, pending: 0, tickets: [] });

    // No agent: the one without a queue has waited longer (20 min) than queue B's (12 min).
    expect(lane(answer, null).tickets.map((t) => [t.id, t.waitingSeconds])).toEqual([
      [pendingNoQueue, 20 * 60],
      [pendingB, 12 * 60],
    ]);

    const queues = new Map(answer.queues.map((q) => [q.queueId, q]));
    expect(queues.get(w.queueA)).toMatchObject({ color: '#ff0000', open: 3, pending: 0 });
    expect(queues.get(w.queueB)).toMatchObject({ open: 0, pending: 1 });
    expect(queues.get(null)).toMatchObject({ name: 'Sem fila', color: null, open: 0, pending: 1 });
    expect(answer.queues).toHaveLength(3);
  });

  it('narrows to the chosen queues and caps each lane at limit while still counting all of it', async () => {
    const w = await ticketWorld(server);
    for (let i = 0; i < 4; i++) {
      const id = await ticket(w, { status: 'pending', queueId: w.queueA });
      await message(id, minutesAgo(10 + i), false);
    }
    await ticket(w, { status: 'pending', queueId: w.queueB });
    await ticket(w, { status: 'pending', queueId: null });

    const res = await server.request<DashTicketsQueuesAnswer>('GET', `/dash-tickets-queues?queuesIds=${w.queueA}&limit=2`, {
      token: w.users.admin.token,
    });
    expect(res.status).toBe(200);
    const noAgent = lane(res.body, null);
    expect(noAgent.pending).toBe(4);
    // Oldest waiting first: 13 and 12 minutes.
    expect(noAgent.tickets.map((t) => t.waitingSeconds)).toEqual([13 * 60, 12 * 60]);
    expect(res.body.queues.map((q) => q.queueId)).toEqual([w.queueA]);

    // The axios spelling of the list is the same filter.
    const brackets = await server.request('GET', `/dash-tickets-queues?queuesIds[]=${w.queueA}&queuesIds[]=${w.queueB}`, {
      token: w.users.admin.token,
    });
    expect(lane(brackets.body, null).pending).toBe(5);
  });

  it('is the administrators’ only: a supervisor and an agent get 403, no token 401', async () => {
    const w = await ticketWorld(server);
    expectError(await server.request('GET', '/dash-tickets-queues', { token: w.users.super.token }), 403, 'ERR_NO_PERMISSION');
    expectError(await server.request('GET', '/dash-tickets-queues', { token: w.users.user.token }), 403, 'ERR_NO_PERMISSION');
    expectError(await server.request('GET', '/dash-tickets-queues'), 401, 'ERR_INVALID_TOKEN');
  });

  it('refuses malformed queries with 400 naming the field', async () => {
    const w = await ticketWorld(server);
    const token = w.users.admin.token;
    for (const query of ['queuesIds=abc', 'queuesIds=0', 'queuesIds=2147483648', 'queuesIds=1.5']) {
      expectError(await server.request('GET', `/dash-tickets-queues?${query}`, { token }), 400, 'ERR_VALIDATION', 'queuesIds');
    }
    for (const query of ['limit=0', 'limit=501', 'limit=x', 'limit=']) {
      expectError(await server.request('GET', `/dash-tickets-queues?${query}`, { token }), 400, 'ERR_VALIDATION', 'limit');
    }
  });

  it('shows another tenant’s queue ids as nothing (no rows of theirs, no error)', async () => {
    const w = await ticketWorld(server);
    const b = await ticketWorld(server);
    await insertTicket(server, b.tenant.id, { status: 'pending', queueId: b.queueA });
    const res = await server.request<DashTicketsQueuesAnswer>('GET', `/dash-tickets-queues?queuesIds=${b.queueA}`, {
      token: w.users.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.queues).toEqual([]);
    expect(res.body.users.flatMap((u) => u.tickets)).toEqual([]);
  });
});

describe('GET /statistics-tickets-per-users-detail', () => {
  it('lists the tenant’s agents, online first, with their open and pending tickets and the oldest wait', async () => {
    const w = await ticketWorld(server);
    await online(w.users.user.id, true);
    await online(w.other.id, true);
    await online(w.users.admin.id, false);
    await online(w.users.super.id, false);
    const a1 = await ticket(w, { status: 'open', userId: w.users.user.id, queueId: w.queueA });
    await message(a1, minutesAgo(7), false);
    const a2 = await ticket(w, { status: 'open', userId: w.users.user.id, queueId: w.queueA });
    await message(a2, minutesAgo(3), false);
    await ticket(w, { status: 'pending', userId: w.users.user.id, queueId: w.queueA });
    const replied = await ticket(w, { status: 'open', userId: w.other.id, queueId: w.queueB });
    await message(replied, minutesAgo(30), false);
    await message(replied, minutesAgo(29), true);
    await answered(replied, true);
    const b = await ticketWorld(server);
    await insertTicket(server, b.tenant.id, { status: 'open', userId: b.users.user.id, queueId: b.queueA });

    const res = await server.request<AgentNowRow[]>('GET', '/statistics-tickets-per-users-detail', {
      token: w.users.admin.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = new Map(res.body.map((r) => [r.userId, r]));
    expect(res.body).toHaveLength(4);
    expect(res.body.slice(0, 2).every((r) => r.online)).toBe(true);
    expect(res.body.slice(2).every((r) => !r.online)).toBe(true);
    expect(rows.get(w.users.user.id)).toEqual({
      userId: w.users.user.id,
      name: 'User user',
      online: true,
      open: 2,
      pending: 1,
      oldestWaitingSeconds: 7 * 60,
    });
    expect(rows.get(w.other.id)).toMatchObject({ online: true, open: 1, pending: 0, oldestWaitingSeconds: null });
    expect(rows.get(w.users.admin.id)).toMatchObject({ online: false, open: 0, pending: 0, oldestWaitingSeconds: null });
  });

  it('counts for a supervisor only the tickets the visibility policy shows them', async () => {
    const w = await ticketWorld(server); // the supervisor is in queue A only
    await ticket(w, { status: 'open', userId: w.users.user.id, queueId: w.queueA });
    await ticket(w, { status: 'open', userId: w.other.id, queueId: w.queueB });
    await ticket(w, { status: 'open', userId: w.other.id, queueId: w.queueB });
    const get = async () => {
      const res = await server.request<AgentNowRow[]>('GET', '/statistics-tickets-per-users-detail', {
        token: w.users.super.token,
      });
      expect(res.status).toBe(200);
      return new Map(res.body.map((r) => [r.userId, r.open]));
    };
    const bySuper = await get();
    expect(bySuper.get(w.users.user.id)).toBe(1);
    expect(bySuper.get(w.other.id)).toBe(0);

    // With the supervisor in both queues, both count.
    await setUserQueues(server, w.users.super.id, [w.queueA, w.queueB]);
    expect((await get()).get(w.other.id)).toBe(2);

    // supervisorAdmin enabled: the supervisor follows an agent's rule; NotViewAssignedTickets then
    // hides the tickets assigned to others.
    await setSettings(server, w.tenant.id, { supervisorAdmin: 'enabled', NotViewAssignedTickets: 'enabled' });
    const restricted = await get();
    expect(restricted.get(w.users.user.id)).toBe(0);
    expect(restricted.get(w.other.id)).toBe(0);

    // The administrator counts everything.
    const res = await server.request<AgentNowRow[]>('GET', '/statistics-tickets-per-users-detail', {
      token: w.users.admin.token,
    });
    expect(new Map(res.body.map((r) => [r.userId, r.open])).get(w.other.id)).toBe(2);
  });

  it('narrows to the chosen queues', async () => {
    const w = await ticketWorld(server);
    const queueC = await insertQueue(server, w.tenant.id);
    await ticket(w, { status: 'open', userId: w.users.user.id, queueId: w.queueA });
    await ticket(w, { status: 'open', userId: w.users.user.id, queueId: queueC });
    const res = await server.request<AgentNowRow[]>('GET', `/statistics-tickets-per-users-detail?queuesIds=${queueC}`, {
      token: w.users.admin.token,
    });
    expect(res.body.find((r) => r.userId === w.users.user.id)?.open).toBe(1);
  });

  it('refuses an agent (403), no token (401) and a malformed queue list (400)', async () => {
    const w = await ticketWorld(server);
    expectError(
      await server.request('GET', '/statistics-tickets-per-users-detail', { token: w.users.user.token }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(await server.request('GET', '/statistics-tickets-per-users-detail'), 401, 'ERR_INVALID_TOKEN');
    expectError(
      await server.request('GET', '/statistics-tickets-per-users-detail?queuesIds=1,x', { token: w.users.admin.token }),
      400,
      'ERR_VALIDATION',
      'queuesIds',
    );
  });
});

describe('the waiting-since walk', () => {
  it('follows the ticket index even when the statistics put thousands of messages in every ticket (never the primary key)', async () => {
    const w = await ticketWorld(server);
    const long = await ticket(w, { status: 'open', userId: w.users.user.id });
    const quiet = await Promise.all(Array.from({ length: 40 }, () => ticket(w, { status: 'open', userId: w.users.user.id })));
    // In a transaction that is rolled back: a thread of 6,000 messages, and statistics that say
    // so (ANALYZE inside a transaction is rolled back with it).
    const runner = db().createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const [t] = await runner.query(`SELECT "tenantId", "contactId" FROM tickets WHERE id = $1`, [long]);
      await runner.query(
        `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status)
         SELECT $1, $2, $3, 'oi', false, 'received' FROM generate_series(1, 6000)`,
        [t.tenantId, long, t.contactId],
      );
      await runner.query(`ANALYZE messages`);
      const [{ 'QUERY PLAN': plan }] = await runner.query(
        `EXPLAIN (FORMAT JSON) SELECT t.id, w.since FROM tickets t ${WAITING_SINCE_JOIN} WHERE t.id = ANY($1::int[])`,
        [[long, ...quiet]],
      );
      const indexes = JSON.stringify(plan).match(/"Index Name": ?"[^"]+"/g) ?? [];
      expect(indexes.join(' ')).toContain('messages_ticket_idx');
      expect(indexes.join(' ')).not.toContain('messages_pkey');
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  });
});
