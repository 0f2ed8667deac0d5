import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import type { ChannelSessionPayload } from '@shared/schemas/channels';
import type { MessageDto } from '@shared/schemas/messages';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { connectAs, type RecordingSocket } from '../../realtime/realtime.test-support';
import { CHANNEL_PROBE_JOB, UNREACHABLE_AFTER_FAILURES } from './channel-reachability';
import {
  createMessagingTenant,
  frozenClock,
  messageRow,
  runSweep,
  startMessagingServer,
  waitFor,
  waitForMessage,
  type MessagingTenant,
} from './messages.test-support';
import { CHANNEL_LOST_REASON, CHANNEL_WAIT_DELAY_MS, CLAIM_LEASE_MS, MAX_SEND_ATTEMPTS, retryDelayMs, waitingForChannelText } from './outbound-delivery';

/**
 * Fault suite, short profile (issue #12, item 4): the real Cloud API client against a local fake
 * of the Graph API that goes down (connection refused), comes back answering 503, and recovers;
 * and one that resets the connection after taking a send. The server's clock stands still and
 * the test moves it, so "minutes" of outage take no real time.
 */
const clock = frozenClock();
let server: TestServer;
let graph: FakeGraphApi;
const sockets: RecordingSocket[] = [];

beforeAll(async () => {
  ({ server, graph } = await startMessagingServer({ clock }));
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  graph.clearFailures();
  await graph.comeBack();
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const send = async (t: MessagingTenant, body: string): Promise<number> => {
  const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.messages[0].id;
};
/** A retry is planned (not the lease of a claim in progress). */
const retryPlanned = (r: { nextRetryAt: Date | null }) => {
  const wait = r.nextRetryAt ? new Date(r.nextRetryAt).getTime() - clock.now().getTime() : -1;
  return wait > 0 && wait < CLAIM_LEASE_MS;
};
const acceptedFor = (t: MessagingTenant) => graph.acceptedMessages().filter((m) => m.to === t.contact.number);
/** Session states the admin's socket was told about for a channel, in order. */
const sessionStates = (socket: RecordingSocket, channelId: number) =>
  socket.envelopes
    .filter((e): e is DomainEventEnvelope<ChannelSessionPayload> => e.name === SOCKET_EVENTS.whatsappSession)
    .map((e) => e.payload.session)
    .filter((s) => s.id === channelId);
const messageStates = (socket: RecordingSocket, id: number) =>
  socket.envelopes
    .filter((e) => e.name === SOCKET_EVENTS.messageUpdate)
    .map((e) => (e.payload as { message: MessageDto }).message)
    .filter((m) => m.id === id);

describe('a provider down for minutes', () => {
  it('keeps the reply pending while refused and answering 503, publishes the channel as unreachable, and delivers it once when the provider returns', async () => {
    const t = await createMessagingTenant(server, graph);
    const admin = await connectAs(server.url, t.users.admin.token);
    sockets.push(admin);

    await graph.goDown();
    const id = await send(t, 'Enviada com o provedor fora');
    // 1st try: connection refused. Pending with the reason, a retry planned.
    const first = await waitForMessage(server, id, (r) => r.sendAttempts === 1 && r.lastError !== null && retryPlanned(r));
    expect(first.status).toBe('pending');
    expect(first.lastError).toMatch(/^Graph API indisponível: ECONNREFUSED/);

    // 2nd try, still refused; then the provider answers, but 503 to everything.
    clock.advance(retryDelayMs(1));
    await runSweep(server);
    await waitForMessage(server, id, (r) => r.sendAttempts === 2 && retryPlanned(r));
    await graph.comeBack();
    graph.failNext({ status: 503 }, { times: 10_000 });
    clock.advance(retryDelayMs(2));
    await runSweep(server);
    const third = await waitForMessage(server, id, (r) => r.sendAttempts === UNREACHABLE_AFTER_FAILURES && /unexpected error/.test(r.lastError ?? '') && retryPlanned(r));
    expect(third.status).toBe('pending');

    // Three sends in a row without a usable answer: the channel is published as unreachable.
    await waitFor(() => sessionStates(admin, t.channelId!).some((s) => s.status === 'CONNECTION_LOST'), 'the CONNECTION_LOST event');
    const lost = sessionStates(admin, t.channelId!).find((s) => s.status === 'CONNECTION_LOST')!;
    expect(lost.statusReason).toMatch(/^Provedor inacessível \(Graph API: .*\)\. As mensagens aguardam e serão enviadas quando ele voltar\.$/);
    const channels = await server.request('GET', '/whatsapp', { token: t.users.admin.token });
    expect(channels.body.find((c: { id: number }) => c.id === t.channelId)).toMatchObject({ status: 'CONNECTION_LOST' });

    // Minutes pass: the reply waits for the channel without spending tries, and the probe finds
    // the provider still failing.
    for (let minute = 0; minute < 10; minute++) {
      clock.advance(CHANNEL_WAIT_DELAY_MS + 1_000);
      await runSweep(server);
      await server.deps.periodic.runNow(CHANNEL_PROBE_JOB);
    }
    const waiting = await messageRow(server, id);
    expect(waiting).toMatchObject({ status: 'pending', sendAttempts: UNREACHABLE_AFTER_FAILURES, lastError: waitingForChannelText(CHANNEL_LOST_REASON) });
    expect(waiting.sendAttempts).toBeLessThan(MAX_SEND_ATTEMPTS);
    expect(acceptedFor(t)).toHaveLength(0);

    // The provider is back: the probe sees it, the channel is CONNECTED again and the reply goes out, once.
    graph.clearFailures();
    await server.deps.periodic.runNow(CHANNEL_PROBE_JOB);
    await waitFor(() => sessionStates(admin, t.channelId!).at(-1)?.status === 'CONNECTED', 'the CONNECTED event');
    expect(sessionStates(admin, t.channelId!).at(-1)?.statusReason).toBeNull();
    const sent = await waitForMessage(server, id, (r) => r.status === 'sent', 'the reply, once the provider is back');
    expect(sent).toMatchObject({ ack: 1, lastError: null, unconfirmed: false });
    clock.advance(10 * 60_000);
    await runSweep(server);
    expect(acceptedFor(t).map((m) => m.json.text.body)).toEqual(['Enviada com o provedor fora']);
    // Never shown as undelivered on the way.
    await waitFor(() => messageStates(admin, id).some((m) => m.status === 'sent'), 'the sent event');
    expect(messageStates(admin, id).some((m) => m.status === 'failed')).toBe(false);
  });

  it('sends failing with 5xx while the provider answers its health check do not mark the channel: the reply spends its tries', async () => {
    const t = await createMessagingTenant(server, graph);
    const admin = await connectAs(server.url, t.users.admin.token);
    sockets.push(admin);
    graph.failNext({ status: 503 }, { path: (r) => r.json?.to === t.contact.number, times: UNREACHABLE_AFTER_FAILURES });
    const id = await send(t, 'Falha só no envio');
    for (let attempt = 1; attempt <= UNREACHABLE_AFTER_FAILURES; attempt++) {
      await waitForMessage(server, id, (r) => r.sendAttempts === attempt && r.lastError !== null && retryPlanned(r));
      clock.advance(retryDelayMs(attempt));
      await runSweep(server);
    }
    await waitForMessage(server, id, (r) => r.status === 'sent');
    // The health check (GET of the phone number) answered each time the count was reached.
    expect(graph.requests.filter((r) => r.method === 'GET' && r.query.fields === 'id').length).toBeGreaterThanOrEqual(1);
    const [channel] = await server.deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [t.channelId]);
    expect(channel.status).toBe('CONNECTED');
    expect(sessionStates(admin, t.channelId!)).toEqual([]);
    expect(acceptedFor(t)).toHaveLength(1);
  });
});

describe('a connection reset in the middle of the answer', () => {
  for (const when of ['before-answer', 'mid-answer'] as const) {
    it(`(${when}) fails the reply as unconfirmed instead of resending it; the agent’s retry sends it again`, async () => {
      const t = await createMessagingTenant(server, graph);
      graph.failNext({ reset: when }, { path: (r) => r.json?.to === t.contact.number });
      const id = await send(t, `Resposta cortada ${when}`);
      const failed = await waitForMessage(server, id, (r) => r.status === 'failed');
      expect(failed).toMatchObject({ unconfirmed: true, ack: -1, sendClaimedAt: null, sendAttempts: 1 });
      expect(failed.lastError).toBe(
        'Envio não confirmado: Graph API: a conexão caiu antes da resposta (UND_ERR_SOCKET). A mensagem pode ter chegado; reenvie se o cliente não a recebeu.',
      );
      // The provider had it: one message at the customer, and sweeps do not send it again.
      clock.advance(10 * 60_000);
      await runSweep(server);
      expect(acceptedFor(t)).toHaveLength(1);
      const page = await server.request<{ messages: MessageDto[] }>('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
      expect(page.body.messages.find((m) => m.id === id)?.flags).toMatchObject({ undelivered: true, unconfirmed: true });

      const retried = await server.request('POST', `/messages/${id}/retry`, { token: t.users.user.token });
      expect(retried.status).toBe(200);
      await waitForMessage(server, id, (r) => r.status === 'sent' && r.unconfirmed === false);
      expect(acceptedFor(t)).toHaveLength(2);
    });
  }

  it('a connection refused is never ambiguous: the reply is retried and sent once', async () => {
    const t = await createMessagingTenant(server, graph);
    await graph.goDown();
    const id = await send(t, 'Recusada e depois enviada');
    await waitForMessage(server, id, (r) => r.sendAttempts === 1 && r.lastError !== null && retryPlanned(r));
    await graph.comeBack();
    clock.advance(retryDelayMs(1));
    await runSweep(server);
    const row = await waitForMessage(server, id, (r) => r.status === 'sent');
    expect(row).toMatchObject({ sendAttempts: 2, unconfirmed: false });
    expect(acceptedFor(t)).toHaveLength(1);
  });
});
