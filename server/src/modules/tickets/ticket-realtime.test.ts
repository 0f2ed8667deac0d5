import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SyncResponse } from '@shared/events';
import type { TicketDto } from '@shared/schemas/tickets';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import {
  ABSENCE_WAIT_MS,
  connectAs,
  issueToken,
  sleep,
  waitFor,
  type RecordingSocket,
} from '../../realtime/realtime.test-support';
import { insertContact, insertTicket, setUserQueues, ticketWorld } from './tickets.test-support';

/**
 * Realtime delivery of ticket events (LESSONS 5): only sockets whose user may see the ticket
 * receive its events; a change that takes the ticket out of someone's sight sends them
 * `ticket:delete`; GET /sync replays with the same rule.
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

async function socketOf(s: TestServer, user: TestUser): Promise<RecordingSocket> {
  const socket = await connectAs(s.url, (await issueToken(s, user)).token);
  open.push(socket);
  return socket;
}

const names = (s: RecordingSocket) =>
  s.envelopes.map((e) => [
    e.name,
    (e.payload as { ticket?: { id: number }; ticketId?: number }).ticket?.id ?? (e.payload as { ticketId?: number }).ticketId,
  ]);

async function sync(s: TestServer, user: TestUser, since = 0): Promise<SyncResponse> {
  const { token } = await issueToken(s, user);
  const res = await s.request<SyncResponse>('GET', `/sync?since=${since}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('ticket event fan-out', () => {
  it('a user of queue A never receives events of a ticket in queue B (socket and /sync)', async () => {
    const w = await ticketWorld(server);
    const [agentA, agentB, admin] = [
      await socketOf(server, w.users.user),
      await socketOf(server, w.other),
      await socketOf(server, w.users.admin),
    ];
    const inB = await insertTicket(server, w.tenant.id, { queueId: w.queueB, whatsappId: w.channel });
    const inA = await insertTicket(server, w.tenant.id, { queueId: w.queueA, whatsappId: w.channel });

    await server.request('PUT', `/tickets/${inB}`, { token: w.other.token, body: { status: 'open' } });
    await server.request('PUT', `/tickets/${inA}`, { token: w.users.user.token, body: { status: 'open' } });

    await waitFor(
      () => agentA.envelopes.length === 1 && agentB.envelopes.length === 1 && admin.envelopes.length === 2,
      'the ticket events',
    );
    await sleep(ABSENCE_WAIT_MS);
    expect(names(agentA)).toEqual([['ticket:update', inA]]);
    expect(names(agentB)).toEqual([['ticket:update', inB]]);
    expect(names(admin)).toEqual([
      ['ticket:update', inB],
      ['ticket:update', inA],
    ]);
    // The anchor naming carries the same decision.
    expect(
      agentA.received
        .filter(([n]) => n === `${w.tenant.id}:ticket:update`)
        .map(([, p]) => (p as { ticket: TicketDto }).ticket.id),
    ).toEqual([inA]);

    const replayA = await sync(server, w.users.user);
    expect(
      replayA.events.filter((e) => e.name.startsWith('ticket')).map((e) => (e.payload as { ticket: TicketDto }).ticket.id),
    ).toEqual([inA]);
    const replayB = await sync(server, w.other);
    expect(
      replayB.events.filter((e) => e.name.startsWith('ticket')).map((e) => (e.payload as { ticket: TicketDto }).ticket.id),
    ).toEqual([inB]);
    expect(replayA.lastSeq).toBe(replayB.lastSeq);
  });

  it('a transfer to another queue sends ticket:delete to those who lose sight, ticket:update to the new queue', async () => {
    const w = await ticketWorld(server);
    const id = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    const [agentA, agentB, sup] = [
      await socketOf(server, w.users.user),
      await socketOf(server, w.other),
      await socketOf(server, w.users.super),
    ];

    const res = await server.request('PUT', `/tickets/${id}`, {
      token: w.users.user.token,
      body: { queueId: w.queueB, isTransference: true },
    });
    expect(res.status).toBe(200);

    await waitFor(
      () => agentA.envelopes.length === 1 && agentB.envelopes.length === 1 && sup.envelopes.length === 1,
      'the transfer event',
    );
    expect(agentA.envelopes[0]).toMatchObject({
      name: 'ticket:delete',
      payload: { action: 'delete', ticketId: id, reason: 'hidden' },
    });
    expect(agentA.received.find(([n]) => n === `${w.tenant.id}:ticket:delete`)?.[1]).toEqual({
      action: 'delete',
      ticketId: id,
      reason: 'hidden',
    });
    expect(agentB.envelopes[0]).toMatchObject({ name: 'ticket:update', payload: { ticket: { id, queueId: w.queueB } } });
    // The same seq for both renderings of the one recorded event.
    expect(agentA.envelopes[0].seq).toBe(agentB.envelopes[0].seq);
    expect(sup.envelopes[0].name).toBe('ticket:update');

    const replay = await sync(server, w.users.user, agentA.envelopes[0].seq - 1);
    expect(replay.events).toEqual([
      expect.objectContaining({ name: 'ticket:delete', payload: { action: 'delete', ticketId: id, reason: 'hidden' } }),
    ]);

    // A later change of that ticket reaches agent A no more.
    await server.request('PUT', `/tickets/${id}`, { token: w.other.token, body: { status: 'open' } });
    await waitFor(() => agentB.envelopes.length === 2, 'the next event on B');
    await sleep(ABSENCE_WAIT_MS);
    expect(agentA.envelopes).toHaveLength(1);
  });

  it('ticket:create reaches only those who may see the new ticket', async () => {
    const w = await ticketWorld(server);
    const [agentA, agentB] = [await socketOf(server, w.users.user), await socketOf(server, w.other)];
    const contact = await insertContact(server, w.tenant.id);
    const res = await server.request<TicketDto>('POST', '/tickets', {
      token: w.other.token,
      body: { contactId: contact, queueId: w.queueB },
    });
    expect(res.status).toBe(201);
    await waitFor(() => agentB.envelopes.length === 1, 'ticket:create on B');
    expect(agentB.envelopes[0]).toMatchObject({
      name: 'ticket:create',
      payload: { action: 'create', ticket: { id: res.body.id } },
    });
    await sleep(ABSENCE_WAIT_MS);
    expect(agentA.envelopes).toEqual([]);
  });

  it('follows a change of the user’s queues (user:update) and of the tenant’s settings (settings:update)', async () => {
    const w = await ticketWorld(server);
    const agentA = await socketOf(server, w.users.user);
    const inB = await insertTicket(server, w.tenant.id, { queueId: w.queueB });
    const noQueue = await insertTicket(server, w.tenant.id, { queueId: null });

    await setUserQueues(server, w.users.user.id, [w.queueA, w.queueB]);
    // Any user:update of that user refreshes the facts of their sockets.
    await server.request('PUT', `/users/${w.users.user.id}/configs`, { token: w.users.user.token, body: { isDark: true } });
    await waitFor(() => agentA.envelopes.some((e) => e.name === 'user:update'), 'the user update');
    await sleep(200);
    await server.request('PUT', `/tickets/${inB}`, { token: w.users.admin.token, body: { difyStatus: 'on' } });
    await waitFor(() => agentA.envelopes.some((e) => e.name === 'ticket:update'), 'the queue B event after joining B');

    await server.request('PUT', `/tickets/${noQueue}`, { token: w.users.admin.token, body: { difyStatus: 'on' } });
    await sleep(ABSENCE_WAIT_MS);
    expect(agentA.envelopes.filter((e) => e.name === 'ticket:update')).toHaveLength(1);
    const settings = await server.request('PUT', '/settings/nullticket', {
      token: w.users.admin.token,
      body: { value: 'enabled' },
    });
    expect(settings.status).toBe(200);
    await waitFor(() => agentA.envelopes.some((e) => e.name === 'settings:update'), 'the settings update');
    await sleep(200);
    await server.request('PUT', `/tickets/${noQueue}`, { token: w.users.admin.token, body: { difyStatus: 'off' } });
    await waitFor(
      () => agentA.envelopes.filter((e) => e.name === 'ticket:update').length === 2,
      'the no-queue event after nullticket',
    );
  });
});

const missing = ['DATABASE_URL', 'REDIS_URL'].filter((v) => !process.env[v]);
describe.skipIf(missing.length > 0)(
  missing.length ? `ticket fan-out across servers (skipped: needs ${missing.join(' and ')})` : 'ticket fan-out across servers',
  () => {
    const prefix = `test-ticket-cluster-${randomBytes(4).toString('hex')}`;
    let first: TestServer;
    let second: TestServer;
    beforeAll(async () => {
      first = await startTestServer({}, { redisPrefix: prefix });
      second = await startTestServer({}, { redisPrefix: prefix });
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
    });

    it('every process fans out to its own sockets with the same rule', async () => {
      const w = await ticketWorld(first);
      const [agentAOnSecond, agentBOnSecond, agentAOnFirst] = [
        await socketOf(second, w.users.user),
        await socketOf(second, w.other),
        await socketOf(first, w.users.user),
      ];
      const inA = await insertTicket(first, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.user.id });
      const res = await first.request('PUT', `/tickets/${inA}`, {
        token: w.users.user.token,
        body: { queueId: w.queueB, isTransference: true },
      });
      expect(res.status).toBe(200);
      await waitFor(
        () =>
          agentAOnSecond.envelopes.length === 1 && agentBOnSecond.envelopes.length === 1 && agentAOnFirst.envelopes.length === 1,
        'the events on both servers',
      );
      expect(agentAOnSecond.envelopes[0]).toMatchObject({ name: 'ticket:delete', payload: { ticketId: inA } });
      expect(agentAOnFirst.envelopes[0]).toMatchObject({ name: 'ticket:delete', payload: { ticketId: inA } });
      expect(agentBOnSecond.envelopes[0]).toMatchObject({ name: 'ticket:update', payload: { ticket: { id: inA } } });

      // A queue change announced on the first server refreshes facts of sockets on the second.
      await setUserQueues(first, w.users.user.id, [w.queueA, w.queueB]);
      await first.request('PUT', `/users/${w.users.user.id}/configs`, { token: w.users.user.token, body: { isDark: true } });
      await waitFor(() => agentAOnSecond.envelopes.some((e) => e.name === 'user:update'), 'the user update on the second server');
      await sleep(300);
      await first.request('PUT', `/tickets/${inA}`, { token: w.other.token, body: { status: 'open' } });
      await waitFor(
        () => agentAOnSecond.envelopes.filter((e) => e.name === 'ticket:update').length === 1,
        'the queue B event on the second server',
      );
    });
  },
);
