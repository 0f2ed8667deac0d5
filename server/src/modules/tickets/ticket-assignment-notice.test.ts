import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { NotificationInboxDto } from '@shared/schemas/notifications';
import { startTestServer, type ApiResponse, type TestServer } from '../../../../tests/helpers/test-server';
import { transferNoticeText } from './ticket-assignment-notice';
import { insertContact, insertTicket, ticketRow, ticketWorld, type LoggedUser } from './tickets.test-support';

/**
 * Issue #18: a ticket handed to a user by someone else puts one 'transfer' notification in that
 * user's bell, with a link that opens the ticket.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function inbox(user: LoggedUser): Promise<NotificationInboxDto> {
  const res = await server.request<NotificationInboxDto>('GET', '/notifications?limit=100', { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

const transfers = async (user: LoggedUser) => (await inbox(user)).notifications.filter((n) => n.kind === 'transfer');

/** The transfer notifications recorded for a user, straight from the table. */
async function storedFor(userId: number): Promise<{ id: number; message: string; link: string; tenantIds: number[] }[]> {
  return server.deps.dataSource.query(
    `SELECT id, message, link, "tenantIds" FROM notifications WHERE "userId" = $1 AND kind = 'transfer' ORDER BY id`,
    [userId],
  );
}

function expectStatus(res: ApiResponse, status: number, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.error).toBe(code);
}

describe('transfer notifications', () => {
  it('a transfer to a user notifies that user once, with a link to the ticket; the bell shows it and marks it read', async () => {
    const w = await ticketWorld(server);
    const ticket = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.super.id, whatsappId: w.channel });

    const res = await server.request('PUT', `/tickets/${ticket}`, {
      token: w.users.super.token,
      body: { isTransference: true, userId: w.users.user.id },
    });
    expectStatus(res, 200);
    expect((await ticketRow(server, ticket)).userId).toBe(w.users.user.id);

    const [notification] = await transfers(w.users.user);
    expect(await transfers(w.users.user)).toHaveLength(1);
    expect(notification).toMatchObject({
      kind: 'transfer',
      message: `Ticket #${ticket} transferido para você por User super`,
      link: `/atendimento/${ticket}`,
      read: false,
    });
    expect(notification.message).toBe(transferNoticeText(ticket, 'User super'));
    // Only the new agent hears of it, live.
    const events = await server.deps.dataSource.query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq`,
      [w.tenant.id, SOCKET_EVENTS.notificationCreate],
    );
    expect(events).toEqual([{ payload: { notification }, audience: { scope: 'user', userId: w.users.user.id } }]);
    expect(await transfers(w.users.super)).toEqual([]);
    expect(await transfers(w.users.admin)).toEqual([]);

    // The same transfer again is refused and notifies nobody.
    const again = await server.request('PUT', `/tickets/${ticket}`, {
      token: w.users.super.token,
      body: { isTransference: true, userId: w.users.user.id },
    });
    expectStatus(again, 400, 'ERR_TICKET_ALREADY_USER');
    expect(await storedFor(w.users.user.id)).toHaveLength(1);

    // Opening it from the bell marks it read.
    const read = await server.request('PUT', `/notifications/${notification.id}/read`, { token: w.users.user.token });
    expectStatus(read, 200);
    expect((await transfers(w.users.user))[0].read).toBe(true);
  });

  it('an assignment by someone else notifies; taking a ticket oneself, a transfer to a queue or to oneself does not', async () => {
    const w = await ticketWorld(server);
    const pending = () => insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'pending', whatsappId: w.channel });

    // The agent takes a pending ticket: theirs, no notice.
    const taken = await pending();
    expectStatus(await server.request('PUT', `/tickets/${taken}`, { token: w.users.user.token, body: { status: 'open' } }), 200);
    expect(await storedFor(w.users.user.id)).toEqual([]);

    // An administrator transfers a ticket to themselves: no notice to anyone.
    const own = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.super.id });
    expectStatus(
      await server.request('PUT', `/tickets/${own}`, { token: w.users.admin.token, body: { isTransference: true, userId: w.users.admin.id } }),
      200,
    );
    expect(await storedFor(w.users.admin.id)).toEqual([]);

    // To a queue only: the ticket waits in the queue, nobody is notified.
    const toQueue = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.user.id });
    expectStatus(
      await server.request('PUT', `/tickets/${toQueue}`, { token: w.users.admin.token, body: { isTransference: true, queueId: w.queueB } }),
      200,
    );
    const anyNotice = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM notifications WHERE "tenantIds" = ARRAY[$1::int]`, [
      w.tenant.id,
    ]);
    expect(anyNotice[0].n).toBe(0);

    // An administrator assigns a pending ticket to the agent (start for someone else): one notice.
    const assigned = await pending();
    expectStatus(
      await server.request('PUT', `/tickets/${assigned}`, { token: w.users.admin.token, body: { status: 'open', userId: w.users.user.id } }),
      200,
    );
    expect((await storedFor(w.users.user.id)).map((n) => n.message)).toEqual([`Ticket #${assigned} transferido para você por User admin`]);

    // A new ticket opened for another agent by an administrator: one notice to that agent.
    const contactId = await insertContact(server, w.tenant.id);
    const created = await server.request('POST', '/tickets', {
      token: w.users.admin.token,
      body: { contactId, status: 'open', userId: w.other.id },
    });
    expectStatus(created, 201);
    expect((await storedFor(w.other.id)).map((n) => n.link)).toEqual([`/atendimento/${created.body.id}`]);
  });

  it('a mass transfer notifies the new agent once per ticket', async () => {
    const w = await ticketWorld(server);
    const second = await server.createUser(w.tenant.id, { profile: 'user', name: 'Segunda' });
    await server.deps.dataSource.query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [second.id, JSON.stringify([w.queueA])]);
    const t1 = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.user.id });
    const t2 = await insertTicket(server, w.tenant.id, { queueId: w.queueA, status: 'open', userId: w.users.user.id });
    const res = await server.request('POST', '/tickets/mass-transfer', {
      token: w.users.admin.token,
      body: { fromUserId: w.users.user.id, toUserId: second.id },
    });
    expectStatus(res, 200);
    expect((await storedFor(second.id)).map((n) => n.link).sort()).toEqual([`/atendimento/${t1}`, `/atendimento/${t2}`].sort());
    expect(await storedFor(w.users.user.id)).toEqual([]);
  });

  it('refused transfers (another tenant, a wrong role, a malformed body) notify nobody; another tenant never sees the notice', async () => {
    const a = await ticketWorld(server);
    const b = await ticketWorld(server);
    const ticket = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });

    // Another tenant's administrator: not found, nothing changes.
    expectStatus(
      await server.request('PUT', `/tickets/${ticket}`, { token: b.users.admin.token, body: { isTransference: true, userId: b.users.user.id } }),
      404,
    );
    // An agent may not give another agent's ticket away.
    const others = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.super.id });
    const refused = await server.request('PUT', `/tickets/${others}`, {
      token: a.users.user.token,
      body: { status: 'open', userId: a.other.id },
    });
    expectStatus(refused, 403, 'ERR_NO_PERMISSION');
    // Malformed bodies.
    for (const body of [
      { isTransference: true, userId: 'x' },
      { isTransference: true, userId: -1 },
      { isTransference: true },
      { isTransference: true, userId: a.other.id, unknown: 1 },
    ]) {
      const bad = await server.request('PUT', `/tickets/${ticket}`, { token: a.users.admin.token, body });
      expectStatus(bad, 400, 'ERR_VALIDATION');
    }
    // A user of another tenant as the target.
    expectStatus(
      await server.request('PUT', `/tickets/${ticket}`, { token: a.users.admin.token, body: { isTransference: true, userId: b.users.user.id } }),
      404,
      'ERR_NO_USER_FOUND',
    );
    const none = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM notifications WHERE kind = 'transfer' AND "tenantIds" && ARRAY[$1::int, $2::int]`, [
      a.tenant.id,
      b.tenant.id,
    ]);
    expect(none[0].n).toBe(0);
    expect((await ticketRow(server, ticket)).userId).toBe(a.users.user.id);

    // A real transfer in A: B's users never see it, nor can they mark it read.
    expectStatus(
      await server.request('PUT', `/tickets/${ticket}`, { token: a.users.admin.token, body: { isTransference: true, userId: a.other.id } }),
      200,
    );
    const [notice] = await storedFor(a.other.id);
    expect(notice.tenantIds).toEqual([a.tenant.id]);
    for (const user of [...Object.values(b.users), b.other, a.users.user, a.users.super]) {
      expect((await inbox(user)).notifications.map((n) => n.id)).not.toContain(notice.id);
      expectStatus(await server.request('PUT', `/notifications/${notice.id}/read`, { token: user.token }), 404, 'ERR_NO_NOTIFICATION_FOUND');
    }
  });
});
