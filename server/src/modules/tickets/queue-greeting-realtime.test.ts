import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageEventPayload } from '@shared/schemas/messages';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import {
  ABSENCE_WAIT_MS,
  connectAs,
  issueToken,
  sleep,
  waitFor,
  type RecordingSocket,
} from '../../realtime/realtime.test-support';
import { insertTicket, ticketWorld, type TicketWorld } from './tickets.test-support';

/**
 * Issue #14: the queue greeting a transfer queues (applyTicketChange -> sendQueueGreeting) is
 * announced live with `appMessage:create`, as every other automated message, so an open console
 * shows it without a reload. Real socket.io clients.
 */

let server: TestServer;
const open: RecordingSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function socketOf(user: TestUser): Promise<RecordingSocket> {
  const socket = await connectAs(server.url, (await issueToken(server, user)).token);
  open.push(socket);
  return socket;
}

const created = (s: RecordingSocket, ticketId: number): MessageEventPayload[] =>
  s.envelopes
    .filter((e) => e.name === 'appMessage:create' && (e.payload as MessageEventPayload).ticketId === ticketId)
    .map((e) => e.payload as MessageEventPayload);

async function greetingRows(ticketId: number): Promise<{ id: number; body: string }[]> {
  return (
    await server.deps.dataSource.query(
      `SELECT id, body FROM messages WHERE "ticketId" = $1 AND "dataJson"->>'origin' = 'queueGreeting' ORDER BY id`,
      [ticketId],
    )
  ).map((r: { id: string; body: string }) => ({ id: Number(r.id), body: r.body }));
}

describe('queue greeting on a transfer is announced live', () => {
  let w: TicketWorld;
  beforeAll(async () => {
    w = await ticketWorld(server);
    await server.deps.dataSource.query(
      `UPDATE queues SET "greetingMessage" = 'Bem-vindo à fila B, {{firstName}}' WHERE id = $1`,
      [w.queueB],
    );
  });

  const cases: { name: string; body: () => Record<string, unknown>; start: () => Record<string, unknown> }[] = [
    {
      name: 'transfer dialog to a queue (PUT /tickets/:id isTransference, queueId)',
      start: () => ({ queueId: w.queueA, status: 'open', userId: w.users.user.id }),
      body: () => ({ isTransference: true, queueId: w.queueB }),
    },
    {
      name: 'transfer dialog to an agent of another queue (userId and queueId)',
      start: () => ({ queueId: w.queueA, status: 'open', userId: w.users.user.id }),
      body: () => ({ isTransference: true, userId: w.other.id, queueId: w.queueB }),
    },
    {
      name: 'return to the queue (the agent gives the ticket back: pending, no agent)',
      start: () => ({ queueId: w.queueB, status: 'open', userId: w.other.id }),
      body: () => ({ status: 'pending' }),
    },
  ];

  it.each(cases)('$name', async (c) => {
    const ticketId = await insertTicket(server, w.tenant.id, { ...c.start(), whatsappId: w.channel });
    // The admin sees every ticket; the agent of queue B sees the ticket once it is there.
    const [admin, agentB] = [await socketOf(w.users.admin), await socketOf(w.other)];
    const res = await server.request('PUT', `/tickets/${ticketId}`, { token: w.users.admin.token, body: c.body() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [greeting] = await greetingRows(ticketId);
    expect(greeting?.body).toMatch(/^Bem-vindo à fila B, /);
    await waitFor(
      () => created(admin, ticketId).length > 0 && created(agentB, ticketId).length > 0,
      'appMessage:create of the greeting',
    );
    await sleep(ABSENCE_WAIT_MS);
    for (const s of [admin, agentB]) {
      // Once: the greeting only (the transfer itself writes no message).
      expect(created(s, ticketId)).toHaveLength(1);
      const [event] = created(s, ticketId);
      expect(event).toMatchObject({
        action: 'create',
        ticketId,
        message: { id: greeting.id, body: greeting.body, fromMe: true },
      });
    }
  });
});

/**
 * The farewell and the rating request an agent's resolve queues (tickets.service.ts) are
 * announced the same way, after the resolve's ticket:update.
 */
describe('farewell and rating request of a resolve are announced live', () => {
  let w: TicketWorld;
  beforeAll(async () => {
    w = await ticketWorld(server);
    await server.deps.dataSource.query(`UPDATE channels SET "farewellMessage" = 'Até logo, {{firstName}}!' WHERE id = $1`, [
      w.channel,
    ]);
  });
  afterEach(async () => {
    await server.deps.dataSource.query(`UPDATE tenants SET "ratingSettings" = '{}'::jsonb WHERE id = $1`, [w.tenant.id]);
  });

  const automated = async (ticketId: number, origin: string) =>
    (
      await server.deps.dataSource.query(`SELECT id, body FROM messages WHERE "ticketId" = $1 AND "dataJson"->>'origin' = $2`, [
        ticketId,
        origin,
      ])
    ).map((r: { id: string; body: string }) => ({ id: Number(r.id), body: r.body }));

  it.each([
    { name: 'the farewell', origin: 'farewell', rating: null, expected: /^Até logo, / },
    {
      name: 'the rating request',
      origin: 'ratingRequest',
      rating: { enabled: true, message: 'Avalie de 0 a 5' },
      expected: /^Avalie de 0 a 5$/,
    },
  ])('$name', async (c) => {
    if (c.rating) {
      await server.deps.dataSource.query(`UPDATE tenants SET "ratingSettings" = $2 WHERE id = $1`, [
        w.tenant.id,
        JSON.stringify(c.rating),
      ]);
    }
    const ticketId = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      status: 'open',
      userId: w.users.user.id,
      whatsappId: w.channel,
    });
    const [admin, agent] = [await socketOf(w.users.admin), await socketOf(w.users.user)];
    const res = await server.request('PUT', `/tickets/${ticketId}`, { token: w.users.user.token, body: { status: 'closed' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await automated(ticketId, c.origin);
    expect(row?.body).toMatch(c.expected);
    await waitFor(
      () => created(admin, ticketId).length > 0 && created(agent, ticketId).length > 0,
      `appMessage:create of ${c.origin}`,
    );
    await sleep(ABSENCE_WAIT_MS);
    for (const s of [admin, agent]) {
      expect(created(s, ticketId)).toHaveLength(1);
      expect(created(s, ticketId)[0]).toMatchObject({
        action: 'create',
        ticketId,
        message: { id: row.id, body: row.body, fromMe: true },
      });
    }
  });
});
