import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEventEnvelope } from '@shared/events';
import { MESSAGE_PAGE_SIZE } from '@shared/schemas/messages';
import type { TicketDto } from '@shared/schemas/tickets';
import { waitFor, type RecordingSocket } from '../../../server/src/realtime/realtime.test-support';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { createOutbox } from '../outbox/outbox';
import { GAP_REPLAY_DELAY_MS } from './sync-engine';
import type { PurgeRequest } from './sync-events';
import {
  headSeq,
  note,
  openConsole,
  send,
  serverThread,
  socketOf,
  syncWorld,
  ticketOf,
  type Console,
  type SyncWorld,
} from './sync.test-support';

/**
 * The sync engine against the real server (in-process, embedded PostgreSQL) with a real
 * encrypted cache: snapshot, replay, socket envelopes, gaps, reloads, visibility losses,
 * older history and network failures.
 */

const SYNC_MAX_EVENTS = 40;
let server: TestServer;
const consoles: Console[] = [];
const sockets: RecordingSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ SYNC_MAX_EVENTS: String(SYNC_MAX_EVENTS) });
});
afterAll(async () => server?.close());
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
  for (const c of consoles.splice(0)) c.close();
});

function consoleOf(w: SyncWorld, ...rest: Parameters<typeof openConsole> extends [unknown, unknown, ...infer R] ? R : never) {
  const c = openConsole(server, w, ...rest);
  consoles.push(c);
  return c;
}

async function socket(w: SyncWorld) {
  const s = await socketOf(server, w.agent);
  sockets.push(s);
  return s;
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const threadIds = (c: Console, ticketId: number) => ids(c.cache.store().threadPage(ticketId, { limit: 200 }).messages);
const cachedTicket = (c: Console, id: number): TicketDto | undefined =>
  c.cache
    .store()
    .listTickets({ status: ['open', 'pending', 'closed', 'schedule'], limit: 100 })
    .tickets.find((t) => t.id === id);

/** Waits until the socket got `count` more envelopes than it had, and returns those. */
async function nextEnvelopes(s: RecordingSocket, from: number, count: number): Promise<DomainEventEnvelope[]> {
  await waitFor(() => s.envelopes.length >= from + count, `${count} envelopes`);
  return s.envelopes.slice(from, from + count);
}

describe('first sync (snapshot)', () => {
  it('caches the tabs the agent sees with their newest messages and contacts, consistent from the seq read before', async () => {
    const w = await syncWorld(server);
    const mine = await ticketOf(server, w, { status: 'open', userId: w.agent.id, contactName: 'Joana Prado', unreadMessages: 2 });
    const waiting = await ticketOf(server, w, { status: 'pending' });
    const closed = await ticketOf(server, w, { status: 'closed', userId: w.agent.id });
    const otherQueue = await ticketOf(server, w, { status: 'pending', queueId: w.queueB });
    await note(server, w.agent.token, mine.id, 'primeira anotação');
    await note(server, w.agent.token, mine.id, 'segunda anotação');
    await note(server, w.admin.token, otherQueue.id, 'não é para o agente');

    const c = consoleOf(w);
    const status = await c.engine.sync();

    expect(status).toMatchObject({ state: 'idle', lastSeq: await headSeq(server, w.tenantId), error: null });
    expect(status.lastSyncedAt).not.toBeNull();
    expect(c.statuses.map((s) => s.state)).toEqual(['syncing', 'idle']);
    const store = c.cache.store();
    expect(ids(store.listTickets({ status: 'open' }).tickets)).toEqual([mine.id]);
    expect(ids(store.listTickets({ status: 'pending' }).tickets)).toEqual([waiting.id]);
    expect(ids(store.listTickets({ status: 'closed' }).tickets)).toEqual([closed.id]);
    expect(threadIds(c, mine.id)).toEqual(await serverThread(server, w.agent.token, mine.id));
    expect(store.threadCoverage(mine.id)).toEqual({ ticketId: mine.id, beforeId: null });
    expect(ids(store.search('joana').contacts)).toEqual([mine.contactId]);
    expect(store.search('agente').messages).toEqual([]);
    // Reading the threads in the background did not mark the agent's ticket read.
    const [row] = await server.deps.dataSource.query(`SELECT "unreadMessages" FROM tickets WHERE id = $1`, [mine.id]);
    expect(row.unreadMessages).toBe(2);
  });

  it('a network failure half-way leaves the cache empty; the retry completes it', async () => {
    const w = await syncWorld(server);
    const tickets = [];
    for (let i = 0; i < 3; i++) tickets.push(await ticketOf(server, w, { status: 'open', userId: w.agent.id }));
    for (const t of tickets) await note(server, w.agent.token, t.id, `nota ${t.id}`);

    const c = consoleOf(w);
    let threadReads = 0;
    // The second thread read never gets an answer, once.
    c.net.cutWhen((url) => new URL(url).pathname.startsWith('/messages/') && ++threadReads === 2);
    const failed = await c.engine.sync();
    expect(failed.state).toBe('offline');
    expect(failed.error).toMatchObject({ code: 'ERR_SYNC_NETWORK', httpStatus: null });
    expect(failed.nextRetryAt).not.toBeNull();
    expect(c.cache.store().lastSeq()).toBeNull();
    expect(c.cache.store().listTickets().tickets).toEqual([]);

    await waitFor(() => c.engine.status().state === 'idle', 'the retry');
    expect(ids(c.cache.store().listTickets().tickets).sort()).toEqual(ids(tickets).sort());
    for (const t of tickets) expect(threadIds(c, t.id)).toHaveLength(1);
    expect(c.engine.status()).toMatchObject({ lastSeq: await headSeq(server, w.tenantId), error: null, nextRetryAt: null });
  });
});

describe('incremental sync', () => {
  it('applies socket envelopes in order without asking /sync, then replays what was missed while away', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const waiting = await ticketOf(server, w, { status: 'pending' });
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);
    s.socket.on('event', (e: unknown) => c.engine.onEnvelope(e));
    const replaysBefore = c.net.replays().length;

    const sent = await send(server, w.agent.token, t.id, 'Olá, em que posso ajudar?');
    const started = await server.request('PUT', `/tickets/${waiting.id}`, { token: w.agent.token, body: { status: 'open' } });
    expect(started.status).toBe(200);
    const head = await headSeq(server, w.tenantId);
    await waitFor(() => c.engine.status().lastSeq === head, 'the live events');

    expect(c.net.replays().length).toBe(replaysBefore);
    expect(threadIds(c, t.id)).toEqual([sent.id]);
    expect(cachedTicket(c, t.id)?.lastMessage).toBe('Olá, em que posso ajudar?');
    expect(cachedTicket(c, waiting.id)).toMatchObject({ status: 'open', userId: w.agent.id });
    expect(c.cache.store().lastSeq()).toBe(await headSeq(server, w.tenantId));

    // Offline for a while: the socket is gone, the server moves on.
    s.close();
    const missed = await send(server, w.agent.token, t.id, 'Ainda está aí?');
    await server.request('PUT', `/tickets/${waiting.id}`, { token: w.agent.token, body: { status: 'closed', sendFarewellMessage: false } });
    const back = await c.engine.sync();
    expect(back.state).toBe('idle');
    expect(threadIds(c, t.id)).toEqual([missed.id, sent.id]);
    expect(cachedTicket(c, waiting.id)?.status).toBe('closed');
    expect(back.lastSeq).toBe(await headSeq(server, w.tenantId));
  });

  it('a gap (seq + 2) is closed by a replay; the late envelope and duplicates are ignored', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);

    const first = await note(server, w.agent.token, t.id, 'um');
    const second = await note(server, w.agent.token, t.id, 'dois');
    const [e1, e2] = await nextEnvelopes(s, 0, 2);
    expect(e2.seq).toBe(e1.seq + 1);
    const replaysBefore = c.net.replays().length;

    c.engine.onEnvelope(e2); // e1 never arrived (yet)
    await waitFor(() => c.engine.status().lastSeq === e2.seq && c.engine.status().state === 'idle', 'the replay');
    expect(c.net.replays().length).toBe(replaysBefore + 1);
    expect(threadIds(c, t.id)).toEqual([second.id, first.id]);
    expect(threadIds(c, t.id)).toEqual(await serverThread(server, w.agent.token, t.id));

    // The missing one arrives late, and the socket repeats the last one: both already applied.
    const tampered = (e: DomainEventEnvelope) => ({
      ...e,
      payload: { ...(e.payload as object), message: { ...(e.payload as { message: object }).message, body: 'adulterada' } },
    });
    c.engine.onEnvelope(tampered(e1));
    c.engine.onEnvelope(tampered(e2));
    c.engine.onEnvelope(e2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.net.replays().length).toBe(replaysBefore + 1);
    expect(c.cache.store().threadPage(t.id).messages.map((m) => m.body)).toEqual(['dois', 'um']);
    expect(c.cache.store().search('adulterada').messages).toEqual([]);
  });

  it('holes in a row (events the agent may not see) cost one replay per gap period, not one per hole', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);
    const notes = [];
    for (let i = 1; i <= 6; i++) notes.push(await note(server, w.agent.token, t.id, `nota ${i}`));
    const envelopes = await nextEnvelopes(s, 0, 6);
    const replaysBefore = c.net.replays().length;

    // Every other one reaches the engine: three holes within the gap period.
    for (const e of [envelopes[1], envelopes[3], envelopes[5]]) c.engine.onEnvelope(e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.net.replays().length).toBe(replaysBefore); // still waiting for the period to end
    await waitFor(() => c.engine.status().lastSeq === envelopes[5].seq && c.engine.status().state === 'idle', 'the replay');
    expect(c.net.replays().length).toBe(replaysBefore + 1);
    expect(threadIds(c, t.id)).toEqual(notes.map((n) => n.id).reverse());
  });

  it('a late envelope that fills the hole within the gap period needs no replay', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);
    await note(server, w.agent.token, t.id, 'primeira');
    await note(server, w.agent.token, t.id, 'segunda');
    const [e1, e2] = await nextEnvelopes(s, 0, 2);
    const replaysBefore = c.net.replays().length;
    c.engine.onEnvelope(e2);
    c.engine.onEnvelope(e1);
    expect(c.engine.status().lastSeq).toBe(e2.seq);
    await new Promise((resolve) => setTimeout(resolve, GAP_REPLAY_DELAY_MS + 200));
    expect(c.net.replays().length).toBe(replaysBefore);
  });

  it('envelopes arriving during a run wait for it and are applied in seq order after its replay', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    const s = await socket(w);
    const release = c.net.holdWhen((url) => new URL(url).pathname.startsWith('/messages/'));
    const running = c.engine.sync(); // the snapshot is being read …
    const a = await note(server, w.agent.token, t.id, 'durante');
    const [e] = await nextEnvelopes(s, 0, 1);
    c.engine.onEnvelope(e); // … when the live event arrives
    const second = c.engine.sync(); // and another trigger joins the run
    expect(second).toBe(running);
    expect(c.engine.status().state).toBe('syncing');
    release();
    expect((await running).state).toBe('idle');
    expect(threadIds(c, t.id)).toEqual([a.id]);
    expect(c.engine.status().lastSeq).toBe(await headSeq(server, w.tenantId));
  });

  it('a network failure during a replay leaves the cache as it was; the retry applies the events', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    await c.engine.sync();
    const seqBefore = c.cache.store().lastSeq();
    const m = await send(server, w.agent.token, t.id, 'sem rede');

    let cuts = 0;
    c.net.cutWhen((url) => new URL(url).pathname === '/sync' && ++cuts <= 2);
    const failed = await c.engine.sync();
    expect(failed.state).toBe('offline');
    expect(c.cache.store().lastSeq()).toBe(seqBefore);
    expect(threadIds(c, t.id)).toEqual([]);

    await waitFor(() => c.engine.status().state === 'idle', 'the retries');
    expect(cuts).toBeGreaterThanOrEqual(3);
    expect(threadIds(c, t.id)).toEqual([m.id]);
    expect(c.engine.status().lastSeq).toBe(await headSeq(server, w.tenantId));
  });
});

describe('runs', () => {
  it('events the agent may not see leave holes in the socket stream: each is closed by one replay', async () => {
    const w = await syncWorld(server);
    const mine = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const elsewhere = await ticketOf(server, w, { status: 'pending', queueId: w.queueB });
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);
    s.socket.on('event', (e: unknown) => c.engine.onEnvelope(e));
    const replaysBefore = c.net.replays().length;

    await note(server, w.admin.token, elsewhere.id, 'fila B'); // not for the agent: never on its socket
    const m = await note(server, w.agent.token, mine.id, 'fila A');
    const head = await headSeq(server, w.tenantId);
    await waitFor(() => c.engine.status().lastSeq === head && c.engine.status().state === 'idle', 'the replay');
    expect(s.envelopes.map((e) => e.seq)).toEqual([head]);
    expect(c.net.replays().length).toBe(replaysBefore + 1);
    expect(threadIds(c, mine.id)).toEqual([m.id]);
    expect(cachedTicket(c, elsewhere.id)).toBeUndefined();
  });

  it('stop() during a run: nothing more is written, no retry, later envelopes are ignored', async () => {
    const w = await syncWorld(server);
    await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const c = consoleOf(w);
    const release = c.net.holdWhen((url) => new URL(url).pathname.startsWith('/messages/'));
    const running = c.engine.sync();
    await waitFor(() => c.net.calls.some((call) => call.url.includes('/messages/')), 'the snapshot reading threads');
    c.engine.stop();
    release();
    await running;
    expect(c.cache.store().lastSeq()).toBeNull();
    expect(c.cache.store().listTickets().tickets).toEqual([]);
    const calls = c.net.calls.length;
    c.engine.onEnvelope({ seq: 99, tenantId: w.tenantId, name: 'user:status', payload: {}, createdAt: new Date().toISOString() });
    await c.engine.sync();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.net.calls.length).toBe(calls);
  });

  it('a refused session is an error (not offline) with the HTTP status, retried with growing delays', async () => {
    const w = await syncWorld(server);
    const c = consoleOf(w, { ...w.agent, token: 'not-a-token' }, { retry: { initialMs: 30, maxMs: 60 } });
    const first = await c.engine.sync();
    expect(first).toMatchObject({ state: 'error', lastSeq: null, error: { code: 'ERR_SYNC_HTTP', httpStatus: 401 } });
    await waitFor(() => c.statuses.filter((s) => s.state === 'error').length >= 3, 'two retries');
    expect(c.statuses.map((s) => s.state)).not.toContain('offline');
    for (const s of c.statuses.filter((x) => x.state === 'error')) expect(s.error?.httpStatus).toBe(401);
    expect(c.cache.store().lastSeq()).toBeNull();
  });
});

describe('reload and visibility', () => {
  it('a reload answer replaces the cached copy with a new snapshot, and keeps the outbox', async () => {
    const w = await syncWorld(server);
    const stays = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const leaves = await ticketOf(server, w, { status: 'pending' });
    const c = consoleOf(w);
    await c.engine.sync();
    expect(ids(c.cache.store().listTickets().tickets).sort()).toEqual([stays.id, leaves.id].sort());
    // A send typed offline and not delivered yet lives in the same database: a reload must keep it.
    const outbox = createOutbox({
      cache: c.cache.database(),
      serverUrl: server.url,
      getAccessToken: () => null,
      refreshAccessToken: async () => null,
    });
    const queued = outbox.enqueue({ kind: 'message', ticketId: stays.id, payload: { body: 'digitado offline' } });

    // Away for longer than the server replays: the ticket left the agent's queue meanwhile.
    await server.request('PUT', `/tickets/${leaves.id}`, { token: w.admin.token, body: { isTransference: true, queueId: w.queueB } });
    const since = c.cache.store().lastSeq() as number;
    let last: { id: number } | null = null;
    while ((await headSeq(server, w.tenantId)) - since <= SYNC_MAX_EVENTS) last = await note(server, w.agent.token, stays.id, `nota ${Date.now()}`);

    const status = await c.engine.sync();
    expect(status.state).toBe('idle');
    expect(c.net.calls.some((call) => call.sync?.reload && !call.url.includes('999999999999999'))).toBe(true);
    expect(outbox.list().map((item) => [item.clientId, item.state])).toEqual([[queued, 'queued']]);
    expect(ids(c.cache.store().listTickets().tickets)).toEqual([stays.id]);
    expect(threadIds(c, stays.id)[0]).toBe(last?.id);
    expect(status.lastSeq).toBe(await headSeq(server, w.tenantId));
  });

  it('a ticket that leaves the agent’s sight becomes a tombstone; an older copy does not bring it back, a newer one does', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'pending' });
    await note(server, w.admin.token, t.id, 'histórico');
    const c = consoleOf(w);
    await c.engine.sync();
    const s = await socket(w);
    s.socket.on('event', (e: unknown) => c.engine.onEnvelope(e));
    const before = cachedTicket(c, t.id) as TicketDto;
    expect(before?.id).toBe(t.id);

    const moved = await server.request('PUT', `/tickets/${t.id}`, { token: w.admin.token, body: { isTransference: true, queueId: w.queueB } });
    expect(moved.status).toBe(200);
    const [hidden] = await nextEnvelopes(s, 0, 1);
    expect(hidden).toMatchObject({ name: 'ticket:delete', payload: { ticketId: t.id, reason: 'hidden' } });
    await waitFor(() => c.engine.status().lastSeq === hidden.seq, 'the deletion');
    expect(cachedTicket(c, t.id)).toBeUndefined();
    expect(threadIds(c, t.id)).toEqual([]);

    // A copy read before the transfer (a slow snapshot page, a late answer) stays out.
    c.cache.store().applySyncBatch({ tickets: [before] });
    expect(cachedTicket(c, t.id)).toBeUndefined();
    // So does a re-delivered older event.
    c.engine.onEnvelope({ seq: hidden.seq - 1, tenantId: w.tenantId, name: 'ticket:update', payload: { action: 'update', ticket: before }, createdAt: before.updatedAt });
    expect(cachedTicket(c, t.id)).toBeUndefined();

    // Back in the agent's queue: the newer copy wins over the tombstone.
    await server.request('PUT', `/tickets/${t.id}`, { token: w.admin.token, body: { isTransference: true, queueId: w.queueA } });
    await nextEnvelopes(s, 1, 1);
    await waitFor(() => cachedTicket(c, t.id)?.queueId === w.queueA, 'the ticket back');
    // Its history is unknown to the cache now: loadOlder starts from the newest page.
    expect(c.cache.store().threadCoverage(t.id)).toBeNull();
    expect(await c.engine.loadOlder(t.id)).toMatchObject({ complete: true });
    expect(threadIds(c, t.id)).toEqual(await serverThread(server, w.agent.token, t.id));
    expect(threadIds(c, t.id)).toHaveLength(1);
  });

  it('events of another tenant never reach the cache', async () => {
    const a = await syncWorld(server);
    const b = await syncWorld(server);
    const ta = await ticketOf(server, a, { status: 'open', userId: a.agent.id });
    const tb = await ticketOf(server, b, { status: 'open', userId: b.agent.id });
    const c = consoleOf(a);
    await c.engine.sync();
    const sb = await socketOf(server, b.agent);
    sockets.push(sb);

    await note(server, b.agent.token, tb.id, 'segredo do inquilino B');
    const mine = await note(server, a.agent.token, ta.id, 'do inquilino A');
    await note(server, b.agent.token, tb.id, 'outro segredo de B');
    const [foreign] = await nextEnvelopes(sb, 0, 1);
    // Even handed in by a confused caller, B's envelope is refused (and B's seq would look like a gap).
    c.engine.onEnvelope(foreign);
    await c.engine.sync();

    const answers = c.net.calls.flatMap((call) => call.sync?.events ?? []);
    expect(answers.length).toBeGreaterThan(0);
    for (const e of answers) expect(e.tenantId).toBe(a.tenantId);
    expect(JSON.stringify(answers)).not.toContain('inquilino B');
    expect(c.cache.store().search('segredo').messages).toEqual([]);
    expect(cachedTicket(c, tb.id)).toBeUndefined();
    expect(threadIds(c, ta.id)).toEqual([mine.id]);
  });
});

describe('older history', () => {
  it('loadOlder pages down to the first message, then answers from the cache', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const total = MESSAGE_PAGE_SIZE * 2 + 5;
    for (let i = 1; i <= total; i++) await note(server, w.agent.token, t.id, `mensagem ${i}`);
    const c = consoleOf(w);
    await c.engine.sync();
    const all = await serverThread(server, w.agent.token, t.id);
    expect(all).toHaveLength(total);
    expect(threadIds(c, t.id)).toEqual(all.slice(0, MESSAGE_PAGE_SIZE));
    expect(c.cache.store().threadCoverage(t.id)?.beforeId).toBe(all[MESSAGE_PAGE_SIZE - 1]);

    const [one, same] = await Promise.all([c.engine.loadOlder(t.id), c.engine.loadOlder(t.id)]);
    expect(one).toEqual({ added: MESSAGE_PAGE_SIZE, complete: false });
    expect(same).toBe(one);
    expect(await c.engine.loadOlder(t.id)).toEqual({ added: 5, complete: true });
    expect(threadIds(c, t.id)).toEqual(all);
    expect(c.cache.store().search('mensagem 1').messages.map((m) => m.body)).toContain('mensagem 1');

    const requests = c.net.calls.length;
    expect(await c.engine.loadOlder(t.id)).toEqual({ added: 0, complete: true });
    expect(c.net.calls.length).toBe(requests);
  });
});

describe('server purge', () => {
  /** The admin asks the server to purge the agent's desktop cache: one desktop:purge, to the agent. */
  async function purgeAgent(w: SyncWorld): Promise<number> {
    const res = await server.request('POST', `/users/${w.agent.id}/desktop-purge`, { token: w.admin.token, body: {} });
    expect(res.status).toBe(200);
    return res.body.seq;
  }

  it('a purge applied live stops the engine at it: what follows is not written, onPurge is called once', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const requests: PurgeRequest[] = [];
    const c = consoleOf(w, w.agent, { onPurge: (request) => requests.push(request) });
    await c.engine.sync();
    const s = await socket(w);
    const from = s.envelopes.length;

    const before = await note(server, w.agent.token, t.id, 'antes da limpeza');
    const seq = await purgeAgent(w);
    await note(server, w.agent.token, t.id, 'depois da limpeza');
    for (const e of await nextEnvelopes(s, from, 3)) c.engine.onEnvelope(e);

    expect(requests).toEqual([{ seq, reason: 'admin' }]);
    // The event before the purge was applied when it came; nothing from the purge on.
    expect(c.cache.store().lastSeq()).toBe(seq - 1);
    expect(threadIds(c, t.id)).toEqual([before.id]);
    // Stopped: no replay, no status, no second call, whatever comes next.
    const calls = c.net.calls.length;
    const statuses = c.statuses.length;
    for (const e of s.envelopes.slice(from)) c.engine.onEnvelope(e);
    await c.engine.sync();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.net.calls.length).toBe(calls);
    expect(c.statuses.length).toBe(statuses);
    expect(requests).toHaveLength(1);
  });

  it('a purge replayed by /sync after being offline: nothing of that answer is written, onPurge is called once', async () => {
    const w = await syncWorld(server);
    const t = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const requests: PurgeRequest[] = [];
    const c = consoleOf(w, w.agent, { onPurge: (request) => requests.push(request) });
    await c.engine.sync();
    const synced = c.cache.store().lastSeq();

    await note(server, w.agent.token, t.id, 'antes da limpeza');
    const seq = await purgeAgent(w);
    await note(server, w.agent.token, t.id, 'depois da limpeza');
    await c.engine.sync();

    expect(requests).toEqual([{ seq, reason: 'admin' }]);
    const replayed = c.net.replays().at(-1)?.sync?.events ?? [];
    expect(replayed.map((e) => e.seq)).toContain(seq);
    expect(c.cache.store().lastSeq()).toBe(synced);
    expect(threadIds(c, t.id)).toEqual([]);
    await c.engine.sync();
    expect(requests).toHaveLength(1);
  });

  it('a purge naming another user is an event like any other: applied past, the engine runs on', async () => {
    const w = await syncWorld(server);
    const requests: PurgeRequest[] = [];
    const c = consoleOf(w, w.agent, { onPurge: (request) => requests.push(request) });
    await c.engine.sync();
    // Sent to the agent by mistake but naming the admin: not this cache's purge.
    await server.deps.events.emit(
      w.tenantId,
      'desktop:purge',
      { userId: w.admin.id, reason: 'admin' },
      { scope: 'user', userId: w.agent.id },
    );
    const head = await headSeq(server, w.tenantId);
    const status = await c.engine.sync();
    expect(status).toMatchObject({ state: 'idle', lastSeq: head });
    expect(requests).toEqual([]);
  });
});
