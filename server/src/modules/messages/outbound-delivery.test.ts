import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { FakeGraphApi, deliverWebhook, statusPayload } from '../../../../tests/fakes/graph-api.fake';
import { lastEvent } from '../../../../tests/helpers/domain-events';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createMessagingTenant,
  frozenClock,
  isolatedDatabase,
  messageRow,
  runSweep,
  sentTo,
  startMessagingServer,
  waitForMessage,
} from './messages.test-support';
import { presentMessage } from './messages.presenter';
import { selectMessage } from './messages.query';
import { CLAIM_LEASE_MS, DELIVER_JOB, MAX_SEND_ATTEMPTS, OutboundDelivery, retryDelayMs } from './outbound-delivery';

const clock = frozenClock();
let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer({ clock }));
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

/** Claimed by a worker right now (the lease), rather than waiting for its next try. */
/** Past the longest first-retry wait (2 s with jitter). */
const RETRY_MAX_WAIT_FOR_TEST = 2_000;

const isLeased = (row: any) => new Date(row.nextRetryAt).getTime() - clock.now().getTime() >= CLAIM_LEASE_MS;

const send = (t: { ticketId: number; users: { user: { token: string } } }, body: string) =>
  server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body } });

describe('outbound delivery', () => {
  /** The message as a fresh read presents it, against the payload of its latest update event. */
  const latestUpdateMatchesRow = async (tenantId: number, id: number) => {
    const event = await lastEvent(server, tenantId, SOCKET_EVENTS.messageUpdate);
    expect(event?.payload.message.id).toBe(id);
    expect(event?.payload.message).toEqual(presentMessage((await selectMessage(server.deps.dataSource, id))!));
  };

  it('announces a sent message exactly as a fresh read presents it (the one-statement outcome write)', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await send(t, 'Enviada numa instrução');
    const id = res.body.messages[0].id;
    const row = await waitForMessage(server, id, (r) => r.status === 'sent');
    expect(row.messageId).toMatch(/^wamid\./);
    await latestUpdateMatchesRow(t.tenant.id, id);
  });

  it('a message changed during its provider call is announced as it is after the change, still sent', async () => {
    const t = await createMessagingTenant(server, graph);
    let deleted = 0;
    graph.beforeSendAnswer = async () => {
      graph.beforeSendAnswer = undefined;
      const del = await server.request('DELETE', '/messages', { token: t.users.user.token, body: { id } });
      deleted = del.status;
    };
    let id = 0;
    try {
      const res = await send(t, 'Apagada durante o envio');
      id = res.body.messages[0].id;
      const row = await waitForMessage(server, id, (r) => r.messageId !== null);
      expect(deleted).toBe(200);
      expect(row.isDeleted).toBe(true);
      await latestUpdateMatchesRow(t.tenant.id, id);
    } finally {
      graph.beforeSendAnswer = undefined;
    }
  });

  it('keeps a delivery status that arrives before the send recorded its id, and applies it once recorded', async () => {
    const t = await createMessagingTenant(server, graph);
    const statusesAnswered: number[] = [];
    graph.beforeSendAnswer = async (wamid, to) => {
      const res = await deliverWebhook(
        `${server.url}/webhooks/waba/${t.channelId}`,
        statusPayload(graph.phoneNumberId, [{ id: wamid, status: 'delivered', recipient: to }]),
        'app-secret-0123456789',
      );
      statusesAnswered.push(res.status);
    };
    try {
      const res = await send(t, 'Status antes da resposta');
      const id = res.body.messages[0].id;
      const row = await waitForMessage(server, id, (r) => r.ack === 2);
      expect(statusesAnswered).toEqual([200]);
      expect(row.status).toBe('delivered');
      const left = await server.deps.dataSource.query(`SELECT * FROM message_status_early WHERE "whatsappId" = $1`, [
        t.channelId,
      ]);
      expect(left).toEqual([]);
    } finally {
      graph.beforeSendAnswer = undefined;
    }
  });

  it("drops early statuses of another tenant's channel and applies waiting ones in the sweep", async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    // A status for a message id nobody has recorded yet waits; one naming another tenant's channel is ignored.
    const inbound = server.deps.channels.inbound;
    expect(
      await inbound.applyStatus({
        tenantId: t.tenant.id,
        channelId: t.channelId!,
        providerMessageId: 'wamid.LATER',
        status: 'read',
        timestamp: 1,
      }),
    ).toBe(false);
    expect(
      await inbound.applyStatus({
        tenantId: t.tenant.id,
        channelId: other.channelId!,
        providerMessageId: 'wamid.X',
        status: 'read',
        timestamp: 1,
      }),
    ).toBe(false);
    const waiting = await server.deps.dataSource.query(
      `SELECT "tenantId", "whatsappId", "messageId", status FROM message_status_early WHERE "tenantId" = $1 ORDER BY "messageId"`,
      [t.tenant.id],
    );
    expect(waiting).toEqual([{ tenantId: t.tenant.id, whatsappId: t.channelId, messageId: 'wamid.LATER', status: 'read' }]);
    // The message gets that id (as a send answered meanwhile would record it); the sweep applies the status.
    const res = await send(t, 'Lida antes');
    const id = res.body.messages[0].id;
    await waitForMessage(server, id, (r) => r.status === 'sent');
    await server.deps.dataSource.query(`UPDATE messages SET "messageId" = 'wamid.LATER' WHERE id = $1`, [id]);
    await runSweep(server);
    const row = await waitForMessage(server, id, (r) => r.ack === 3);
    expect(row.status).toBe('read');
  });

  it('backs off 2 s, 4 s ... after provider 5xx answers, then sends once it succeeds', async () => {
    const t = await createMessagingTenant(server, graph);
    graph.failNext({ status: 500 }, { times: 2, path: `/${graph.phoneNumberId}/messages` });
    const res = await send(t, 'Tentar de novo');
    const id = res.body.messages[0].id;

    const first = await waitForMessage(server, id, (r) => r.sendAttempts === 1 && r.lastError !== null && !isLeased(r));
    expect(first.status).toBe('pending');
    // Between half and all of 2 s (jitter).
    const firstWait = new Date(first.nextRetryAt).getTime() - clock.now().getTime();
    expect(firstWait).toBeGreaterThanOrEqual(1000);
    expect(firstWait).toBeLessThanOrEqual(2000);
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageUpdate);
    expect(event?.payload.message).toMatchObject({
      id,
      status: 'pending',
      flags: expect.objectContaining({ retryPending: true }),
    });
    // Not due yet: a sweep now sends nothing.
    await runSweep(server);
    await new Promise((r) => setTimeout(r, 150));
    expect((await messageRow(server, id)).sendAttempts).toBe(1);

    clock.advance(firstWait);
    await runSweep(server);
    const second = await waitForMessage(server, id, (r) => r.sendAttempts === 2 && !isLeased(r));
    const secondWait = new Date(second.nextRetryAt).getTime() - clock.now().getTime();
    expect(secondWait).toBeGreaterThanOrEqual(2000);
    expect(secondWait).toBeLessThanOrEqual(4000);

    clock.advance(secondWait);
    await runSweep(server);
    const done = await waitForMessage(server, id, (r) => r.status === 'sent');
    expect(done).toMatchObject({ ack: 1, sendAttempts: 3, lastError: null, nextRetryAt: null });
    expect(graph.requests.filter((r) => r.json?.to === t.contact.number)).toHaveLength(3);
    expect(sentTo(graph, t.contact.number)).toHaveLength(3);
  });

  it(`fails at once on a 4xx ('Mensagem não entregue' with the provider's reason), and POST /messages/{id}/retry sends it again`, async () => {
    const t = await createMessagingTenant(server, graph);
    graph.failNext(
      { status: 400, error: { message: '(#131026) Message undeliverable', code: 131026 } },
      { path: `/${graph.phoneNumberId}/messages` },
    );
    const res = await send(t, 'Número inválido?');
    const id = res.body.messages[0].id;
    const failed = await waitForMessage(server, id, (r) => r.status === 'failed');
    expect(failed.ack).toBe(-1);
    expect(failed.lastError).toMatch(/^Mensagem não entregue: .*131026/);
    expect(failed.sendAttempts).toBe(1);
    const list = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    expect(list.body.messages[0].flags).toMatchObject({ undelivered: true, retryPending: false });

    const other = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/messages/${id}/retry`, { token: other.users.admin.token })).status).toBe(404);
    expect((await server.request('POST', `/messages/${id}/retry`)).status).toBe(401);
    const retried = await server.request('POST', `/messages/${id}/retry`, { token: t.users.user.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, status: 'pending', sendAttempts: 0, lastError: null });
    await waitForMessage(server, id, (r) => r.status === 'sent');
    const again = await server.request('POST', `/messages/${id}/retry`, { token: t.users.user.token });
    expect(again.status).toBe(400);
    expect(again.body.fields[0].path).toBe('id');
  });

  it('waits at least what a 429 Retry-After asks for', async () => {
    const t = await createMessagingTenant(server, graph);
    graph.failNext({ status: 429, retryAfterSeconds: 90 }, { path: `/${graph.phoneNumberId}/messages` });
    const id = (await send(t, 'Devagar')).body.messages[0].id;
    const row = await waitForMessage(server, id, (r) => r.sendAttempts === 1 && r.lastError !== null && !isLeased(r));
    expect(new Date(row.nextRetryAt).getTime() - clock.now().getTime()).toBe(90_000);
    clock.advance(90_000);
    await runSweep(server);
    await waitForMessage(server, id, (r) => r.status === 'sent');
  });

  it('a channel whose provider hangs does not hold another tenant’s sends in the same sweep', async () => {
    const slow = await createMessagingTenant(server, graph);
    const fast = await createMessagingTenant(server, graph);
    const toEither = (r: { path: string; json?: { to?: string } }) =>
      r.path.endsWith('/messages') && [slow.contact.number, fast.contact.number].includes(r.json?.to ?? '');
    // Both first tries fail, so both become due in the same sweep, the slow tenant's first.
    graph.failNext({ status: 500 }, { times: 2, path: toEither });
    const slowId = (await send(slow, 'Canal lento')).body.messages[0].id;
    await waitForMessage(server, slowId, (r) => r.sendAttempts === 1 && r.lastError !== null && !isLeased(r));
    const fastId = (await send(fast, 'Canal bom')).body.messages[0].id;
    await waitForMessage(server, fastId, (r) => r.sendAttempts === 1 && r.lastError !== null && !isLeased(r));
    graph.failNext({ hang: true }, { path: (r) => r.path.endsWith('/messages') && r.json?.to === slow.contact.number });
    clock.advance(RETRY_MAX_WAIT_FOR_TEST);
    const sweep = runSweep(server);
    try {
      // Sent while the slow provider call is still hanging (it would time out after 15 s).
      await waitForMessage(server, fastId, (r) => r.status === 'sent', 'the other tenant’s send during the hang');
      expect((await messageRow(server, slowId)).status).toBe('pending');
    } finally {
      graph.releaseHanging();
      await sweep;
    }
    // The hanging call ends with its connection reset: the provider had the request, so the
    // message may have arrived and is not resent blindly; the agent decides.
    const slowRow = await waitForMessage(server, slowId, (r) => r.status === 'failed', 'the slow tenant’s send, unconfirmed');
    expect(slowRow).toMatchObject({ unconfirmed: true, sendClaimedAt: null });
    expect(slowRow.lastError).toMatch(/^Envio não confirmado: Graph API: a conexão caiu antes da resposta/);
    expect(graph.requests.filter((r) => r.json?.to === slow.contact.number)).toHaveLength(2);
  });

  it(`gives up after ${MAX_SEND_ATTEMPTS} tries of passing failures`, async () => {
    const t = await createMessagingTenant(server, graph);
    graph.failNext({ status: 503 }, { times: MAX_SEND_ATTEMPTS, path: `/${graph.phoneNumberId}/messages` });
    const res = await send(t, 'Nunca chega');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.messages[0].id;
    for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
      await waitForMessage(server, id, (r) => r.sendAttempts === attempt && r.lastError !== null && !isLeased(r));
      clock.advance(retryDelayMs(attempt));
      await runSweep(server);
    }
    const failed = await waitForMessage(server, id, (r) => r.status === 'failed');
    expect(failed.sendAttempts).toBe(MAX_SEND_ATTEMPTS);
    expect(failed.lastError).toMatch(/^Mensagem não entregue/);
    expect(sentTo(graph, t.contact.number)).toHaveLength(MAX_SEND_ATTEMPTS);
  });

  it('a message waiting for its channel does not spend tries, and goes out when the channel connects', async () => {
    const t = await createMessagingTenant(server, graph);
    await server.deps.dataSource.query(`UPDATE channels SET status = 'DISCONNECTED' WHERE id = $1`, [t.channelId]);
    const res = await send(t, 'Espera a conexão');
    const id = res.body.messages[0].id;
    await waitForMessage(server, id, (r) => r.nextRetryAt !== null && new Date(r.nextRetryAt).getTime() > clock.now().getTime());
    for (let i = 0; i < 3; i++) {
      clock.advance(31_000);
      await runSweep(server);
      await new Promise((r) => setTimeout(r, 100));
    }
    const waiting = await messageRow(server, id);
    expect(waiting).toMatchObject({ status: 'pending', sendAttempts: 0 });
    expect(waiting.lastError).toContain('Sessão não inicializada.');
    await server.deps.dataSource.query(`UPDATE channels SET status = 'CONNECTED' WHERE id = $1`, [t.channelId]);
    clock.advance(31_000);
    await runSweep(server);
    await waitForMessage(server, id, (r) => r.status === 'sent');
  });

  it('several workers sweeping at once send each due message exactly once', async () => {
    const t = await createMessagingTenant(server, graph);
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const [row] = await server.deps.dataSource.query(
        `INSERT INTO messages ("tenantId", "ticketId", "contactId", "whatsappId", "userId", "clientId", "fromMe", body, status, "nextRetryAt", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6, true, $7, 'pending', $8, $8) RETURNING id`,
        [t.tenant.id, t.ticketId, t.contact.id, t.channelId, t.users.user.id, `bulk-${i}`, `lote ${i}`, clock.now()],
      );
      ids.push(Number(row.id));
    }
    const workers = [1, 2, 3].map(() => new OutboundDelivery(server.deps, () => server.deps.channels));
    await Promise.all([...workers.map((w) => w.sweep()), ...ids.slice(0, 10).map((id) => workers[0].deliver(id))]);
    for (const id of ids) await waitForMessage(server, id, (r) => r.status === 'sent');
    const bodies = sentTo(graph, t.contact.number).map((m) => m.text.body);
    expect(bodies).toHaveLength(30);
    expect(new Set(bodies).size).toBe(30);
  });

  it('a message never overtakes an older due one of its ticket: the newer job, run first, sends both in order', async () => {
    const t = await createMessagingTenant(server, graph);
    const ids: number[] = [];
    for (const body of ['primeira', 'segunda', 'terceira']) {
      const [row] = await server.deps.dataSource.query(
        `INSERT INTO messages ("tenantId", "ticketId", "contactId", "whatsappId", "userId", "clientId", "fromMe", body, status, "nextRetryAt", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6, true, $7, 'pending', $8, $8) RETURNING id`,
        [t.tenant.id, t.ticketId, t.contact.id, t.channelId, t.users.user.id, `order-${body}`, body, clock.now()],
      );
      ids.push(Number(row.id));
    }
    const worker = new OutboundDelivery(server.deps, () => server.deps.channels);
    // The jobs of the second and first messages arrive in that order (two workers, a retry ...).
    expect(await worker.deliver(ids[1], { wait: true })).toBe('sent');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['primeira', 'segunda']);
    expect(await worker.deliver(ids[0], { wait: true })).toBe('skipped');
    // The third is newer than the job that ran: it waits for its own job or the sweep.
    expect((await messageRow(server, ids[2])).status).toBe('pending');
    expect(await worker.deliver(ids[2], { wait: true })).toBe('sent');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['primeira', 'segunda', 'terceira']);
  });

  it('the deliver job for a message that is not due (or not pending) does nothing', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'nota' },
    });
    await server.deps.jobs.enqueue(DELIVER_JOB, { messageId: res.body.messages[0].id });
    await new Promise((r) => setTimeout(r, 150));
    expect(sentTo(graph, t.contact.number)).toHaveLength(0);
  });
});

describe.runIf(Boolean(inject('testDatabaseUrl')))('restart safety (DATABASE_URL)', () => {
  it('a pending message survives a server restart and is sent by the new process’s sweep', async () => {
    const fake = await new FakeGraphApi().start();
    const database = await isolatedDatabase();
    const first = await startMessagingServer({}, fake, database);
    const t = await createMessagingTenant(first.server, fake);
    // The provider is down when the message is written: it stays pending with a retry planned.
    fake.failNext({ status: 503 }, { times: 1, path: '/messages' });
    const res = await first.server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'Sobrevive ao reinício' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.messages[0].id;
    await waitForMessage(first.server, id, (r) => r.sendAttempts === 1 && r.status === 'pending');
    await first.server.close();

    const second = await startMessagingServer({}, fake, database);
    try {
      const row = await waitForMessage(second.server, id, (r) => r.status === 'sent');
      expect(row.sendAttempts).toBe(2);
      expect(sentTo(fake, t.contact.number).map((m) => m.text.body)).toEqual(['Sobrevive ao reinício', 'Sobrevive ao reinício']);
    } finally {
      await second.server.close();
      await database.drop();
      await fake.stop();
    }
  });
});
