import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGraphApi } from '../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../tests/helpers/test-server';
import {
  createContact,
  createMessagingTenant,
  createTicket,
  insertMessages,
  sentTo,
  startMessagingServer,
  waitForMessage,
  type LoggedUser,
  type MessagingTenant,
} from '../../../server/src/modules/messages/messages.test-support';
import { openCacheDatabase, type CacheDatabase } from '../cache/cache-database';
import { createOutbox, type Outbox, type OutboxChange } from './outbox';

/**
 * The outbox against the real server (in-process, on its real database, a fake WhatsApp Graph
 * API behind the channel) and a real encrypted cache. The only stand-in is the network between
 * them: a fetch that can be "offline", lose an answer after the server sent it, or answer as a
 * failing proxy would.
 */

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const directories: string[] = [];
const caches: CacheDatabase[] = [];
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Fault = { match: (method: string, path: string) => boolean; action: 'loseAnswer' | (() => Response) };

/** The network between the app and the server. */
function network() {
  const net = {
    online: true,
    calls: [] as string[],
    faults: [] as Fault[],
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const pathname = new URL(String(input)).pathname;
      net.calls.push(`${method} ${pathname}`);
      if (!net.online) throw new TypeError('fetch failed');
      const index = net.faults.findIndex((f) => f.match(method, pathname));
      const fault = index >= 0 ? net.faults.splice(index, 1)[0] : null;
      if (fault && fault.action !== 'loseAnswer') return fault.action();
      const res = await fetch(input, init);
      if (fault?.action === 'loseAnswer') {
        // The server handled the request and answered; the connection drops before the app reads it.
        await res.arrayBuffer();
        throw new TypeError('fetch failed: other side closed');
      }
      return res;
    }) as typeof fetch,
  };
  return net;
}

const on = (method: string, prefix: string) => (m: string, p: string) => m === method && p.startsWith(prefix);

interface Harness {
  outbox: Outbox;
  net: ReturnType<typeof network>;
  clock: { now: number };
  refreshes: number;
  changes: OutboxChange[];
  /** Opens the same cache file again (an app restart) with a new outbox over it. */
  restart(): Harness;
}

function harness(
  user: LoggedUser,
  options: {
    directory?: string;
    key?: Buffer;
    token?: () => string;
    net?: ReturnType<typeof network>;
    clock?: { now: number };
  } = {},
): Harness {
  const directory = options.directory ?? mkdtempSync(path.join(os.tmpdir(), 'outbox-server-'));
  if (!options.directory) directories.push(directory);
  const key = options.key ?? randomBytes(32);
  const cache = openCacheDatabase({
    directory,
    key,
    account: { serverOrigin: server.url, tenantId: user.tenantId, userId: user.id },
  });
  caches.push(cache);
  const net = options.net ?? network();
  const clock = options.clock ?? { now: Date.now() };
  const h: Harness = {
    net,
    clock,
    refreshes: 0,
    changes: [],
    outbox: undefined as unknown as Outbox,
    restart() {
      cache.close();
      return harness(user, { directory, key, net, clock, token: options.token });
    },
  };
  h.outbox = createOutbox({
    cache,
    serverUrl: server.url,
    getAccessToken: options.token ?? (() => user.token),
    refreshAccessToken: async () => {
      h.refreshes++;
      return user.token;
    },
    fetch: net.fetch,
    now: () => clock.now,
  });
  h.outbox.onChange((change) => h.changes.push(change));
  return h;
}

async function messagesOf(
  ticketId: number,
): Promise<{ id: number; body: string; clientId: string; isPrivate: boolean; quotedMsgId: number | null }[]> {
  const rows = await server.deps.dataSource.query(
    `SELECT id, body, "clientId", "isPrivate", "quotedMsgId" FROM messages WHERE "ticketId" = $1 ORDER BY id`,
    [ticketId],
  );
  return rows.map((r: any) => ({ ...r, id: Number(r.id), quotedMsgId: r.quotedMsgId === null ? null : Number(r.quotedMsgId) }));
}

async function ticketLogTypes(ticketId: number): Promise<string[]> {
  const rows = await server.deps.dataSource.query(`SELECT type FROM ticket_logs WHERE "ticketId" = $1 ORDER BY id`, [ticketId]);
  return rows.map((r: { type: string }) => r.type);
}

async function secondTicket(t: MessagingTenant, userId: number | null = t.users.user.id): Promise<number> {
  const contact = await createContact(server, t.tenant.id);
  return createTicket(server, { tenantId: t.tenant.id, contactId: contact.id, channelId: t.channelId, userId });
}

const closeTicket = (t: MessagingTenant, ticketId = t.ticketId) =>
  server.request('PUT', `/tickets/${ticketId}`, {
    token: t.users.admin.token,
    body: { status: 'closed', sendFarewellMessage: false, requestRating: false },
  });

describe('offline outbox against the server', () => {
  it('queues sends, notes and quotes while offline, then replays them in order, each ticket in its own order', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await secondTicket(t);
    const [quoted] = await insertMessages(server, { tenantId: t.tenant.id, ticketId: t.ticketId, contactId: t.contact.id }, [
      'Qual o prazo?',
    ]);
    const h = harness(t.users.user);
    h.net.online = false;

    const ids = [
      h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'um', quotedMsgId: quoted } }),
      h.outbox.enqueue({ kind: 'message', ticketId: other, payload: { body: 'outro atendimento' } }),
      h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'nota interna', isPrivate: true } }),
      h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'três' } }),
    ];
    const offline = await h.outbox.replay();
    expect(offline).toMatchObject({ done: 0, stopped: 'offline', queued: 4, retryAt: null });
    expect(h.outbox.list().map((i) => [i.state, i.lastError?.code])).toEqual([
      ['queued', 'ERR_OUTBOX_OFFLINE'],
      ['queued', undefined],
      ['queued', undefined],
      ['queued', undefined],
    ]);
    expect(await messagesOf(t.ticketId)).toHaveLength(1);

    h.net.online = true;
    const report = await h.outbox.replay();
    expect(report).toMatchObject({ done: 4, conflicts: 0, failed: 0, queued: 0, stopped: null });
    const stored = (await messagesOf(t.ticketId)).slice(1);
    expect(stored.map((m) => [m.body, m.clientId, m.isPrivate])).toEqual([
      ['um', ids[0], false],
      ['nota interna', ids[2], true],
      ['três', ids[3], false],
    ]);
    expect(stored[0].quotedMsgId).toBe(quoted);
    expect((await messagesOf(other)).map((m) => m.clientId)).toEqual([ids[1]]);
    // FIFO across tickets too: the server's ids follow the order of the queue.
    const otherId = (await messagesOf(other))[0].id;
    expect(stored[0].id).toBeLessThan(otherId);
    expect(otherId).toBeLessThan(stored[1].id);
    const items = h.outbox.list();
    expect(items.every((i) => i.state === 'done')).toBe(true);
    expect(items[0].result).toEqual({ messageIds: [stored[0].id], alreadyApplied: false });
    expect(h.changes.filter((c) => c.type === 'enqueued')).toHaveLength(4);
  });

  it('replays called together (reconnect and enqueue at once) share one pass: each item is sent once', async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.user);
    const ids = ['a', 'b', 'c'].map((body) => h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body } }));
    const reports = await Promise.all([h.outbox.replay(), h.outbox.replay(), h.outbox.replay()]);
    expect(reports.map((r) => r.queued)).toEqual([0, 0, 0]);
    expect(h.net.calls).toEqual(ids.map(() => `POST /messages/${t.ticketId}`));
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual(ids);
    const states = h.changes.flatMap((c) => (c.type === 'updated' ? [c.item.state] : []));
    expect(states).toEqual(['sending', 'done', 'sending', 'done', 'sending', 'done']);
  });

  it('a send the server accepted before the connection dropped is stored and delivered once', async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.user);
    const clientId = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Pedido confirmado' } });
    const next = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Obrigado!' } });
    h.net.faults.push({ match: on('POST', `/messages/${t.ticketId}`), action: 'loseAnswer' });

    expect(await h.outbox.replay()).toMatchObject({ done: 0, stopped: 'offline', queued: 2 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([clientId]);

    expect(await h.outbox.replay()).toMatchObject({ done: 2, stopped: null });
    const stored = await messagesOf(t.ticketId);
    expect(stored.map((m) => [m.clientId, m.body])).toEqual([
      [clientId, 'Pedido confirmado'],
      [next, 'Obrigado!'],
    ]);
    expect(h.outbox.list()[0]).toMatchObject({
      state: 'done',
      attempts: 2,
      result: { messageIds: [stored[0].id], alreadyApplied: true },
    });
    await waitForMessage(server, stored[0].id, (row) => row.status === 'sent');
    await waitForMessage(server, stored[1].id, (row) => row.status === 'sent');
    await new Promise((r) => setTimeout(r, 200)); // room for a duplicate delivery, if there were one
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['Pedido confirmado', 'Obrigado!']);
  });

  it("a send the console tried online whose answer never came is queued under the same client id: stored once", async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.user);
    // The composer's request reached the server (stored), its answer did not reach the console.
    const tried = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'Pedido saiu', clientId: 'web-try-1' },
    });
    expect(tried.status).toBe(201);
    const entry = { kind: 'message', ticketId: t.ticketId, clientId: 'web-try-1', payload: { body: 'Pedido saiu' } };
    expect(h.outbox.enqueue(entry)).toBe('web-try-1');
    expect(h.outbox.enqueue(entry)).toBe('web-try-1'); // the console retrying its enqueue: one item
    expect(h.outbox.list()).toHaveLength(1);
    expect(() => h.outbox.enqueue({ ...entry, ticketId: t.ticketId + 1 })).toThrow(/clientId/);

    expect(await h.outbox.replay()).toMatchObject({ done: 1, conflicts: 0 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual(['web-try-1']);
    expect(h.outbox.list()[0]).toMatchObject({ state: 'done', result: { alreadyApplied: true } });
  });

  it('a send whose answer was lost, then its ticket closed by a colleague, is still done (stored once), not a conflict', async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.user);
    const clientId = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Segue o boleto' } });
    h.net.faults.push({ match: on('POST', `/messages/${t.ticketId}`), action: 'loseAnswer' });
    await h.outbox.replay();
    expect((await closeTicket(t)).status).toBe(200);

    expect(await h.outbox.replay()).toMatchObject({ done: 1, conflicts: 0 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([clientId]);
  });

  it('a ticket closed meanwhile: the send is a conflict with the server code, kept; later items of that ticket wait, others go on', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await secondTicket(t);
    const h = harness(t.users.user);
    h.net.online = false;
    const refused = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Ainda está aí?' } });
    const behind = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Vou encerrar' } });
    const elsewhere = h.outbox.enqueue({ kind: 'message', ticketId: other, payload: { body: 'Bom dia' } });
    expect((await closeTicket(t)).status).toBe(200);

    h.net.online = true;
    expect(await h.outbox.replay()).toMatchObject({ done: 1, conflicts: 1, queued: 1, stopped: null });
    const conflict = h.outbox.list({ states: ['conflict'] });
    expect(conflict).toHaveLength(1);
    expect(conflict[0]).toMatchObject({ clientId: refused, lastError: { code: 'ERR_VALIDATION', status: 400 } });
    expect(conflict[0].lastError?.message).toContain('encerrado');
    expect(h.outbox.list().find((i) => i.clientId === behind)?.state).toBe('queued');
    expect(h.outbox.list().find((i) => i.clientId === elsewhere)?.state).toBe('done');
    expect(await messagesOf(t.ticketId)).toEqual([]);

    // Still there on the next pass: never dropped, and still holding the item behind it.
    expect(await h.outbox.replay()).toMatchObject({ done: 0, conflicts: 0, queued: 1 });
    expect(h.outbox.list({ states: ['conflict'] }).map((i) => i.clientId)).toEqual([refused]);

    // The agent reopens the ticket and sends again: both go, in their order.
    const reopened = await server.request('PUT', `/tickets/${t.ticketId}`, {
      token: t.users.user.token,
      body: { status: 'open' },
    });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(h.outbox.retry(refused)).toBe(true);
    expect(await h.outbox.replay()).toMatchObject({ done: 2, conflicts: 0, queued: 0 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([refused, behind]);
  });

  it('a ticket transferred meanwhile (the state the agent saw is gone) is a conflict, and nothing is written', async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.admin);
    const seen = { status: 'open' as const, userId: t.users.user.id };
    const message = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'Eu assumo' }, expected: seen });
    const close = h.outbox.enqueue({ kind: 'ticketStatus', ticketId: t.ticketId, payload: { status: 'closed' }, expected: seen });
    const transfer = await server.request('PUT', `/tickets/${t.ticketId}`, {
      token: t.users.admin.token,
      body: { isTransference: true, userId: t.users.super.id },
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);

    expect(await h.outbox.replay()).toMatchObject({ done: 0, conflicts: 1, queued: 1 });
    expect(h.outbox.list().map((i) => [i.clientId, i.state, i.lastError?.code])).toEqual([
      [message, 'conflict', 'ERR_OUTBOX_TICKET_CHANGED'],
      [close, 'queued', undefined],
    ]);
    expect(await messagesOf(t.ticketId)).toEqual([]);
    // Discarding the send lets the close be checked on its own: the ticket changed for it too.
    expect(h.outbox.discard(message)).toBe(true);
    expect(await h.outbox.replay()).toMatchObject({ conflicts: 1 });
    expect(h.outbox.list()[0]).toMatchObject({
      clientId: close,
      state: 'conflict',
      lastError: { code: 'ERR_OUTBOX_TICKET_CHANGED' },
    });
    const [ticket] = await server.deps.dataSource.query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(ticket).toEqual({ status: 'open', userId: t.users.super.id });
  });

  it('the queue survives a restart of the app (the cache reopened) and is replayed then', async () => {
    const t = await createMessagingTenant(server, graph);
    const first = harness(t.users.user);
    first.net.online = false;
    const a = first.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'antes' } });
    const b = first.outbox.enqueue({
      kind: 'ticketStatus',
      ticketId: t.ticketId,
      payload: { status: 'closed', sendFarewellMessage: false, requestRating: false },
    });
    await first.outbox.replay();

    const second = first.restart();
    second.net.online = true;
    expect(second.outbox.list().map((i) => [i.clientId, i.kind, i.state])).toEqual([
      [a, 'message', 'queued'],
      [b, 'ticketStatus', 'queued'],
    ]);
    expect(await second.outbox.replay()).toMatchObject({ done: 2 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([a]);
    const [ticket] = await server.deps.dataSource.query(`SELECT status FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(ticket.status).toBe('closed');
  });

  it('a reaction replayed after a lost answer leaves one reaction of the agent on the message', async () => {
    const t = await createMessagingTenant(server, graph);
    const [received] = await insertMessages(
      server,
      { tenantId: t.tenant.id, ticketId: t.ticketId, contactId: t.contact.id },
      ['Chegou!'],
      { messageId: () => `wamid.IN-${randomBytes(4).toString('hex')}`, whatsappId: t.channelId },
    );
    const h = harness(t.users.user);
    h.outbox.enqueue({ kind: 'reaction', ticketId: t.ticketId, payload: { messageId: received, emoji: '👍' } });
    h.net.faults.push({ match: on('POST', '/messages/reactionMessage'), action: 'loseAnswer' });
    expect(await h.outbox.replay()).toMatchObject({ stopped: 'offline' });
    expect(await h.outbox.replay()).toMatchObject({ done: 1 });

    const [row] = await server.deps.dataSource.query(`SELECT reactions FROM messages WHERE id = $1`, [received]);
    expect(row.reactions).toEqual([expect.objectContaining({ emoji: '👍', fromMe: true, userId: t.users.user.id })]);
    // WhatsApp keeps one reaction per sender and message: the second is the same reaction again.
    expect(
      sentTo(graph, t.contact.number)
        .filter((m) => m.type === 'reaction')
        .map((m) => m.reaction.emoji),
    ).toEqual(['👍', '👍']);
  });

  it('status changes replayed after a lost answer are done once: accept, then close', async () => {
    const t = await createMessagingTenant(server, graph);
    const pending = await secondTicket(t, null);
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'pending' WHERE id = $1`, [pending]);
    // The administrator: an agent in no queue does not see a pending ticket without a queue.
    const h = harness(t.users.admin);
    const accept = h.outbox.enqueue({
      kind: 'ticketStatus',
      ticketId: pending,
      payload: { status: 'open' },
      expected: { status: 'pending', userId: null },
    });
    const close = h.outbox.enqueue({
      kind: 'ticketStatus',
      ticketId: pending,
      payload: { status: 'closed', sendFarewellMessage: false, requestRating: false },
      expected: { status: 'pending', userId: null },
    });
    h.net.faults.push({ match: on('PUT', `/tickets/${pending}`), action: 'loseAnswer' });

    expect(await h.outbox.replay()).toMatchObject({ stopped: 'offline', queued: 2 });
    const [accepted] = await server.deps.dataSource.query(`SELECT status, "userId" FROM tickets WHERE id = $1`, [pending]);
    expect(accepted).toEqual({ status: 'open', userId: t.users.admin.id });

    // The accept is found done; the close then meets a ticket that is no longer as it was seen.
    expect(await h.outbox.replay()).toMatchObject({ done: 1, conflicts: 1 });
    expect(h.outbox.list().find((i) => i.clientId === accept)?.result).toEqual({ alreadyApplied: true });
    expect(h.outbox.list().find((i) => i.clientId === close)?.lastError?.code).toBe('ERR_OUTBOX_TICKET_CHANGED');

    // Without an expected state (the agent's own later close), the close goes, and its replay is a no-op.
    h.outbox.discard(close);
    h.outbox.enqueue({
      kind: 'ticketStatus',
      ticketId: pending,
      payload: { status: 'closed', sendFarewellMessage: false, requestRating: false },
    });
    h.net.faults.push({ match: on('PUT', `/tickets/${pending}`), action: 'loseAnswer' });
    await h.outbox.replay();
    expect(await h.outbox.replay()).toMatchObject({ done: 1, queued: 0 });
    expect((await ticketLogTypes(pending)).filter((type) => type !== 'create')).toEqual(['start', 'resolve']);
  });

  it("another tenant's ticket or message is a conflict, and nothing is written there", async () => {
    const a = await createMessagingTenant(server, graph);
    const b = await createMessagingTenant(server, graph);
    const [theirs] = await insertMessages(
      server,
      { tenantId: b.tenant.id, ticketId: b.ticketId, contactId: b.contact.id },
      ['deles'],
      { messageId: () => `wamid.B-${randomBytes(4).toString('hex')}`, whatsappId: b.channelId },
    );
    const h = harness(a.users.admin);
    h.outbox.enqueue({ kind: 'message', ticketId: b.ticketId, payload: { body: 'intruso' } });
    h.outbox.enqueue({ kind: 'reaction', ticketId: b.ticketId, payload: { messageId: theirs, emoji: '😈' } });
    h.outbox.enqueue({ kind: 'ticketStatus', ticketId: b.ticketId + 100_000, payload: { status: 'closed' } });
    h.outbox.enqueue({ kind: 'ticketStatus', ticketId: b.ticketId, payload: { status: 'closed' } });

    // Items of one ticket wait behind its conflict; the unknown ticket is refused on its own.
    expect(await h.outbox.replay()).toMatchObject({ done: 0, conflicts: 2, queued: 2 });
    expect(h.outbox.list().map((i) => [i.state, i.lastError?.code, i.lastError?.status])).toEqual([
      ['conflict', 'ERR_NO_TICKET_FOUND', 404],
      ['queued', undefined, undefined],
      ['conflict', 'ERR_NO_TICKET_FOUND', 404],
      ['queued', undefined, undefined],
    ]);
    h.outbox.discard(h.outbox.list()[0].clientId);
    expect(await h.outbox.replay()).toMatchObject({ conflicts: 1 });
    expect(h.outbox.list()[0]).toMatchObject({
      kind: 'reaction',
      state: 'conflict',
      lastError: { code: 'ERR_NOT_FOUND', status: 404 },
    });
    h.outbox.discard(h.outbox.list()[0].clientId);
    expect(await h.outbox.replay()).toMatchObject({ conflicts: 1, queued: 0 });

    expect((await messagesOf(b.ticketId)).map((m) => m.body)).toEqual(['deles']);
    const [row] = await server.deps.dataSource.query(`SELECT reactions FROM messages WHERE id = $1`, [theirs]);
    expect(row.reactions ?? []).toEqual([]);
    const [ticket] = await server.deps.dataSource.query(`SELECT status FROM tickets WHERE id = $1`, [b.ticketId]);
    expect(ticket.status).toBe('open');
  });

  it("a token of another tenant never replays this account's queue", async () => {
    const a = await createMessagingTenant(server, graph);
    const b = await createMessagingTenant(server, graph);
    const h = harness(a.users.user, { token: () => b.users.user.token });
    h.outbox.enqueue({ kind: 'message', ticketId: b.ticketId, payload: { body: 'errado' } });
    const report = await h.outbox.replay();
    expect(report).toMatchObject({ stopped: 'unauthenticated', queued: 1 });
    expect(h.net.calls).toEqual([]);
    expect(h.outbox.list()[0].lastError?.code).toBe('ERR_OUTBOX_NO_SESSION');
    expect(await messagesOf(b.ticketId)).toEqual([]);
  });

  it('an expired or invalid token is refreshed once and the request retried', async () => {
    const t = await createMessagingTenant(server, graph);
    const h = harness(t.users.user, { token: () => 'not-a-token' });
    const clientId = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'depois do refresh' } });
    expect(await h.outbox.replay()).toMatchObject({ done: 1 });
    expect(h.refreshes).toBe(1);
    expect(h.net.calls).toEqual([`POST /messages/${t.ticketId}`, `POST /messages/${t.ticketId}`]);
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([clientId]);
  });

  it('a 5xx or 429 keeps the item queued with a backoff; its ticket waits, other tickets go on', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await secondTicket(t);
    const h = harness(t.users.user);
    const first = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'primeira' } });
    const second = h.outbox.enqueue({ kind: 'message', ticketId: t.ticketId, payload: { body: 'segunda' } });
    const elsewhere = h.outbox.enqueue({ kind: 'message', ticketId: other, payload: { body: 'independente' } });
    const failing = () => new Response(JSON.stringify({ error: 'ERR_INTERNAL', message: 'proxy' }), { status: 502 });
    h.net.faults.push({ match: on('POST', `/messages/${t.ticketId}`), action: failing });

    const report = await h.outbox.replay();
    expect(report).toMatchObject({ done: 1, queued: 2, stopped: null });
    const waiting = h.outbox.list().find((i) => i.clientId === first)!;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 'ERR_INTERNAL', status: 502 } });
    expect(waiting.nextAttemptAt).toBeGreaterThan(h.clock.now);
    expect(report.retryAt).toBe(waiting.nextAttemptAt);
    expect((await messagesOf(other)).map((m) => m.clientId)).toEqual([elsewhere]);
    expect(await messagesOf(t.ticketId)).toEqual([]);

    // Not before its time: nothing is sent for that ticket.
    expect(await h.outbox.replay()).toMatchObject({ done: 0, queued: 2 });
    h.clock.now = waiting.nextAttemptAt;
    h.net.faults.push({
      match: on('POST', `/messages/${t.ticketId}`),
      action: () =>
        new Response(JSON.stringify({ error: 'ERR_TOO_MANY_REQUESTS', message: 'calma' }), {
          status: 429,
          headers: { 'retry-after': '60' },
        }),
    });
    expect(await h.outbox.replay()).toMatchObject({ stopped: 'rateLimited', queued: 2 });
    expect(h.outbox.list().find((i) => i.clientId === first)!.nextAttemptAt).toBeGreaterThanOrEqual(h.clock.now + 60_000);

    h.clock.now += 5 * 60_000;
    expect(await h.outbox.replay()).toMatchObject({ done: 2, queued: 0 });
    expect((await messagesOf(t.ticketId)).map((m) => m.clientId)).toEqual([first, second]);
  });
});
