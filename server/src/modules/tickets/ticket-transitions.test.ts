import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAREWELL_CLOSE_DELAY_MS } from '@shared/limits';
import type { TicketDto } from '@shared/schemas/tickets';
import { startTestServer, type ApiResponse, type TestServer } from '../../../../tests/helpers/test-server';
import { waitFor } from '../../realtime/realtime.test-support';
import {
  AUTO_CLOSE_SWEEP_MS,
  CLOSE_DUE_SWEEP_MS,
  autoCloseIdleTickets,
  closeDueTickets,
  handleInboundForTicket,
  ratingOf,
} from './ticket-closing';
import {
  insertContact,
  insertTicket,
  logTypes,
  setSettings,
  ticketEvents,
  ticketRow,
  ticketWorld,
  type TicketWorld,
} from './tickets.test-support';

/** Transitions of spec section 4 and the refusals of section 5, each with its log and event. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

function expectError(res: ApiResponse, status: number, code: string, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
  if (message) expect(res.body.message).toBe(message);
}

const put = (token: string, id: number, body: unknown) => server.request<TicketDto>('PUT', `/tickets/${id}`, { token, body });

async function outbound(ticketId: number): Promise<{ body: string; status: string; fromMe: boolean; dataJson: any }[]> {
  return server.deps.dataSource.query(
    `SELECT body, status, "fromMe", "dataJson" FROM messages WHERE "ticketId" = $1 ORDER BY id`,
    [ticketId],
  );
}

async function withFarewell(w: TicketWorld, text: string | null) {
  await server.deps.dataSource.query(`UPDATE channels SET "farewellMessage" = $2 WHERE id = $1`, [w.channel, text]);
}

describe('start, return to queue, resolve, reopen', () => {
  it('runs a ticket through its life, one log row and one ticket:update per step', async () => {
    const w = await ticketWorld(server);
    const token = w.users.user.token;
    const id = await insertTicket(server, w.tenant.id, { queueId: w.queueA, whatsappId: w.channel });
    const before = (await ticketEvents(server, w.tenant.id)).length;

    const started = await put(token, id, { status: 'open' });
    expect(started.body).toMatchObject({ status: 'open', userId: w.users.user.id });
    const returned = await put(token, id, { status: 'pending', userId: null });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null });
    await put(token, id, { status: 'open', userId: w.users.user.id });
    const resolved = await put(token, id, { status: 'closed', userId: w.users.user.id });
    expect(resolved.body).toMatchObject({ status: 'closed', closeReason: 'resolved', userId: w.users.user.id });
    expect(resolved.body.closedAt).not.toBeNull();
    const reopened = await put(token, id, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', userId: w.users.user.id, closedAt: null, closeReason: null });

    expect(await logTypes(server, id)).toEqual(['start', 'return', 'start', 'resolve', 'reopen']);
    const logs = await server.deps.dataSource.query(`SELECT "userId", "createdAt" FROM ticket_logs WHERE "ticketId" = $1`, [id]);
    for (const log of logs) {
      expect(log.userId).toBe(w.users.user.id);
      expect(log.createdAt).toBeInstanceOf(Date);
    }
    const events = (await ticketEvents(server, w.tenant.id)).slice(before);
    expect(events.map((e) => [e.name, e.payload.ticket.status])).toEqual([
      ['ticket:update', 'open'],
      ['ticket:update', 'pending'],
      ['ticket:update', 'open'],
      ['ticket:update', 'closed'],
      ['ticket:update', 'open'],
    ]);
    // Starting again is a no-op, not a second log.
    await put(token, id, { status: 'open' });
    expect(await logTypes(server, id)).toHaveLength(5);
  });

  it('refuses to reopen when the contact has another active ticket on the channel, naming it', async () => {
    const w = await ticketWorld(server);
    const contact = await insertContact(server, w.tenant.id);
    const closed = await insertTicket(server, w.tenant.id, {
      contactId: contact,
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'closed',
      userId: w.users.user.id,
    });
    const active = await insertTicket(server, w.tenant.id, {
      contactId: contact,
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.super.id,
    });
    const res = await put(w.users.user.token, closed, { status: 'open' });
    expectError(res, 409, 'ERR_OTHER_OPEN_TICKET', 'Já existe um ticket aberto/pendente para esse contato.');
    expect(res.body).toMatchObject({ ticketId: active, userId: w.users.super.id });
    expect((await ticketRow(server, closed)).status).toBe('closed');
    expectError(
      await server.request('PUT', `/ticketsForce/${closed}`, { token: w.users.admin.token, body: { status: 'open' } }),
      409,
      'ERR_OTHER_OPEN_TICKET',
    );
    expectError(
      await server.request('PUT', `/ticketsNull/${closed}`, { token: w.users.admin.token, body: { status: 'pending' } }),
      409,
      'ERR_OTHER_OPEN_TICKET',
    );
  });

  it('a user may not assign a ticket to someone else; a privileged viewer may', async () => {
    const w = await ticketWorld(server);
    const id = await insertTicket(server, w.tenant.id, { queueId: w.queueA, whatsappId: w.channel });
    expectError(await put(w.users.user.token, id, { status: 'open', userId: w.users.super.id }), 403, 'ERR_NO_PERMISSION');
    const res = await put(w.users.super.token, id, { status: 'open', userId: w.users.user.id });
    expect(res.body).toMatchObject({ status: 'open', userId: w.users.user.id });
    expect(await logTypes(server, id)).toEqual(['assign']);
  });
});

describe('transfer (spec section 5)', () => {
  it('to a queue puts the ticket back in that queue; to a user opens it for them', async () => {
    const w = await ticketWorld(server);
    const id = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
      botActive: true,
    });
    const toQueue = await put(w.users.user.token, id, { queueId: w.queueB, isTransference: true });
    expect(toQueue.body).toMatchObject({ queueId: w.queueB, userId: null, status: 'pending', botActive: false });
    const toUser = await put(w.users.admin.token, id, {
      userId: w.other.id,
      queueId: w.queueB,
      status: 'open',
      isTransference: true,
    });
    expect(toUser.body).toMatchObject({ queueId: w.queueB, userId: w.other.id, status: 'open' });
    expect(await logTypes(server, id)).toEqual(['transfer', 'transfer']);
    const [log] = await server.deps.dataSource.query(`SELECT data FROM ticket_logs WHERE "ticketId" = $1 ORDER BY id LIMIT 1`, [
      id,
    ]);
    expect(log.data).toEqual({ fromQueueId: w.queueA, toQueueId: w.queueB, fromUserId: w.users.user.id, toUserId: null });
    // The event carries the facts before the change, so those who lose sight get ticket:delete.
    const events = await ticketEvents(server, w.tenant.id);
    const transfer = events[events.length - 2];
    expect(transfer.audience).toMatchObject({
      ticket: { queueId: w.queueB, userId: null },
      previous: { queueId: w.queueA, userId: w.users.user.id },
    });
  });

  it('refuses a transfer that changes nothing, with the three texts', async () => {
    const w = await ticketWorld(server);
    const mine = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    expectError(
      await put(w.users.user.token, mine, { userId: w.users.user.id, isTransference: true }),
      400,
      'ERR_TICKET_ALREADY_YOURS',
      'Ticket já pertence ao seu usuário.',
    );
    expectError(
      await put(w.users.admin.token, mine, { userId: w.users.user.id, isTransference: true }),
      400,
      'ERR_TICKET_ALREADY_USER',
      'Ticket já pertence ao usuário selecionado.',
    );
    expectError(
      await put(w.users.admin.token, mine, { userId: w.users.user.id, queueId: w.queueA, isTransference: true }),
      400,
      'ERR_TICKET_ALREADY_QUEUE_USER',
      'Ticket já pertence a esta fila e usuário.',
    );
    expect(await logTypes(server, mine)).toEqual([]);
    const closed = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'closed', userId: w.users.user.id });
    expectError(
      await put(w.users.user.token, closed, { queueId: w.queueB, isTransference: true }),
      409,
      'ERR_TICKET_STATUS_TRANSITION',
    );
    const foreignQueue = (await ticketWorld(server)).queueA;
    expectError(await put(w.users.user.token, mine, { queueId: foreignQueue, isTransference: true }), 404, 'ERR_NO_QUEUE_FOUND');
  });
});

describe('resolve with a farewell message', () => {
  it('queues the farewell as a pending outbound message and closes when closeAt is due', async () => {
    const w = await ticketWorld(server);
    await withFarewell(w, 'Obrigado pelo contato!');
    const id = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    const t0 = Date.now();
    const res = await put(w.users.user.token, id, { status: 'closed' });
    expect(res.body).toMatchObject({ status: 'open', closeReason: 'farewell', lastMessage: 'Obrigado pelo contato!' });
    const closeAt = new Date(res.body.closeAt as string).getTime();
    expect(closeAt - t0).toBeGreaterThanOrEqual(FAREWELL_CLOSE_DELAY_MS - 1000);
    expect(closeAt - t0).toBeLessThanOrEqual(FAREWELL_CLOSE_DELAY_MS + 5000);
    expect(await outbound(id)).toEqual([
      { body: 'Obrigado pelo contato!', status: 'pending', fromMe: true, dataJson: { origin: 'farewell' } },
    ]);

    // Not yet due: nothing closes.
    expect(await closeDueTickets(server.deps, new Date(closeAt - 1000))).not.toContain(id);
    expect((await ticketRow(server, id)).status).toBe('open');
    expect(await closeDueTickets(server.deps, new Date(closeAt + 1))).toContain(id);
    const row = await ticketRow(server, id);
    expect(row).toMatchObject({ status: 'closed', closeAt: null, closeReason: 'farewell' });
    expect(await logTypes(server, id)).toEqual(['farewell', 'close']);
  });

  it('sendFarewellMessage: false and /ticketsForce close at once without it', async () => {
    const w = await ticketWorld(server);
    await withFarewell(w, 'Tchau');
    const a = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    expect((await put(w.users.user.token, a, { status: 'closed', sendFarewellMessage: false })).body.status).toBe('closed');
    expect(await outbound(a)).toEqual([]);
  });
});

describe('farewell close survives a restart', () => {
  it('a new server on the same database closes the ticket once its time has come', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-farewell-'));
    const env = { DATA_DIR: dataDir };
    const first = await startTestServer(env, { inMemoryDatabase: false });
    let second: TestServer | undefined;
    try {
      const w = await ticketWorld(first);
      await first.deps.dataSource.query(`UPDATE channels SET "farewellMessage" = 'Até logo' WHERE id = $1`, [w.channel]);
      const id = await insertTicket(first, w.tenant.id, {
        queueId: w.queueA,
        whatsappId: w.channel,
        status: 'open',
        userId: w.users.user.id,
      });
      const res = await first.request<TicketDto>('PUT', `/tickets/${id}`, {
        token: w.users.user.token,
        body: { status: 'closed' },
      });
      expect(res.body.closeReason).toBe('farewell');
      // The process (and its timers) goes away before the close is due.
      await first.close();

      const later = { now: () => new Date(Date.now() + FAREWELL_CLOSE_DELAY_MS + 1000) };
      second = await startTestServer(env, { inMemoryDatabase: false, clock: later });
      const deadline = Date.now() + 15_000;
      let row = await ticketRow(second, id);
      while (row.status !== 'closed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        row = await ticketRow(second, id);
      }
      expect(row).toMatchObject({ status: 'closed', closeReason: 'farewell', closeAt: null });
      expect(await logTypes(second, id)).toEqual(['farewell', 'close']);
    } finally {
      await first.close();
      await second?.close();
    }
  }, 60_000);
});

describe('rating request', () => {
  it('asks for a rating; the customer’s digit records it, thanks and closes', async () => {
    const w = await ticketWorld(server);
    await server.deps.dataSource.query(`UPDATE tenants SET "ratingSettings" = $2 WHERE id = $1`, [
      w.tenant.id,
      JSON.stringify({ enabled: true, message: 'Dê uma nota de 0 a 5', maxAttempts: 2, thanksMessage: 'Valeu!' }),
    ]);
    const id = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    const res = await put(w.users.user.token, id, { status: 'closed' });
    expect(res.body.status).toBe('open');
    expect(res.body.ratingRequestedAt).not.toBeNull();
    expect((await outbound(id)).map((m) => m.body)).toEqual(['Dê uma nota de 0 a 5']);

    const inbound = (text: string) =>
      server.deps.events.transaction((tx, emit) => handleInboundForTicket(tx, emit, { id, tenantId: w.tenant.id }, text));
    expect(await inbound('não sei')).toEqual({ handled: 'ratingRetry', closed: false });
    expect((await outbound(id)).map((m) => m.body)).toEqual(['Dê uma nota de 0 a 5', 'Dê uma nota de 0 a 5']);
    expect(await inbound('nota 4!')).toEqual({ handled: 'rating', closed: true, rating: 4 });
    const row = await ticketRow(server, id);
    expect(row).toMatchObject({ status: 'closed', closeReason: 'rating', ratingRequestedAt: null });
    const [rating] = await server.deps.dataSource.query(
      `SELECT rating, "userId", attempts FROM ticket_ratings WHERE "ticketId" = $1`,
      [id],
    );
    expect(rating).toEqual({ rating: 4, userId: w.users.user.id, attempts: 2 });
    expect((await outbound(id)).map((m) => m.body).slice(-1)).toEqual(['Valeu!']);
    expect(await logTypes(server, id)).toEqual(['ratingRequest', 'ratingRequest', 'rating']);
    // After the close, replies are no longer ratings.
    expect(await inbound('5')).toEqual({ handled: 'none', closed: false });
  });

  it('closes without a rating after maxAttempts unanswered requests; requestRating: false skips it', async () => {
    const w = await ticketWorld(server);
    await server.deps.dataSource.query(`UPDATE tenants SET "ratingSettings" = $2 WHERE id = $1`, [
      w.tenant.id,
      JSON.stringify({ enabled: true, message: 'Nota?', maxAttempts: 1 }),
    ]);
    const id = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    await put(w.users.user.token, id, { status: 'closed' });
    const outcome = await server.deps.events.transaction((tx, emit) =>
      handleInboundForTicket(tx, emit, { id, tenantId: w.tenant.id }, 'oi'),
    );
    expect(outcome).toEqual({ handled: 'ratingGiveUp', closed: true });
    expect((await ticketRow(server, id)).closeReason).toBe('ratingUnanswered');

    const other = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      whatsappId: w.channel,
      status: 'open',
      userId: w.users.user.id,
    });
    expect((await put(w.users.user.token, other, { status: 'closed', requestRating: false })).body.status).toBe('closed');
  });

  it('reads a rating from the reply text', () => {
    expect(['0', ' 5 ', 'nota 3', '4!'].map(ratingOf)).toEqual([0, 5, 3, 4]);
    expect(['10', '6', '3 ou 4', 'ótimo', ''].map(ratingOf)).toEqual([null, null, null, null, null]);
  });
});

describe('idle auto-resolve', () => {
  it('resolves open and pending tickets idle longer than autoCloseTicketsMinutes, only in tenants that set it', async () => {
    const w = await ticketWorld(server);
    const quiet = await ticketWorld(server);
    await setSettings(server, w.tenant.id, { autoCloseTicketsMinutes: '60' });
    const old = new Date(Date.now() - 61 * 60_000);
    const idle = await insertTicket(server, w.tenant.id, {
      queueId: w.queueA,
      status: 'open',
      userId: w.users.user.id,
      lastMessageAt: old,
    });
    const idlePending = await insertTicket(server, w.tenant.id, { queueId: w.queueA, lastMessageAt: old });
    const recent = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.user.id });
    const elsewhere = await insertTicket(server, quiet.tenant.id, { queueId: quiet.queueA, lastMessageAt: old });
    const closed = await autoCloseIdleTickets(server.deps);
    expect(closed).toEqual(expect.arrayContaining([idle, idlePending]));
    expect(closed).not.toContain(recent);
    expect(closed).not.toContain(elsewhere);
    expect(await ticketRow(server, idle)).toMatchObject({ status: 'closed', closeReason: 'idle' });
    expect(await logTypes(server, idle)).toEqual(['autoClose']);
    expect((await ticketRow(server, elsewhere)).status).toBe('pending');
  });

  it('both sweeps are periodic tasks that run from start, with or without Redis', async () => {
    expect(server.deps.periodic.list()).toEqual(
      expect.arrayContaining([
        { name: 'tickets.close-due', intervalMs: CLOSE_DUE_SWEEP_MS },
        { name: 'tickets.auto-close', intervalMs: AUTO_CLOSE_SWEEP_MS },
      ]),
    );
    // The due-close sweep runs right after start: its run is recorded in PostgreSQL.
    await waitFor(async () => {
      const status = await server.deps.periodic.status();
      return status.some((s) => s.name === 'tickets.close-due' && s.lastFinishedAt !== null && s.lastError === null);
    }, 'the first due-close run');
  });
});
