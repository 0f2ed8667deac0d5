import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopCachePurge } from '@shared/desktop-api';
import { SOCKET_EVENTS } from '@shared/events';
import type { TicketStatus } from '@shared/schemas/tickets';
import { sleep, waitFor } from '../../../server/src/realtime/realtime.test-support';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { ticketFixture } from '../cache/cache-fixtures.test-support';
import { loadOrCreateCacheKey } from '../cache/cache-key';
import type { OutboxChange } from '../outbox/outbox';
import type { SyncStatus } from '../sync/sync-engine';
import { note, serverThread, socketOf, syncWorld, ticketOf, type SyncWorld } from '../sync/sync.test-support';
import { FakeSafeStorage } from '../tokens/safe-storage.test-support';
import { startAccountServices, type AccountServices } from './account-services';
import { createAccountSession, type AccountSession } from './account-session';

/**
 * The account session with its services as the main process wires them (desktop/main/index.ts):
 * opening the account starts the sync and the outbox, closing it stops them before the wipe.
 * Real server, real encrypted cache; the network is the only thing cut (a fetch that fails).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function desktopOf() {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'atende-services-'));
  const safeStorage = new FakeSafeStorage();
  let networkUp = true;
  const network: typeof fetch = (...args) => (networkUp ? fetch(...args) : Promise.reject(new TypeError('fetch failed')));
  const statuses: SyncStatus[] = [];
  const changes: OutboxChange[] = [];
  const purges: DesktopCachePurge[] = [];
  let services: AccountServices | null = null;
  const session: AccountSession = createAccountSession({
    serverOrigin: server.url,
    cacheDirectory: directory,
    fetch: network,
    loadKey: () => loadOrCreateCacheKey({ safeStorage, filePath: path.join(directory, 'cache-key.bin'), platform: 'linux' }),
    onOpen: (open) => {
      const started = startAccountServices(open, {
        serverOrigin: server.url,
        fetch: network,
        onSyncStatus: (s) => statuses.push(s),
        onOutboxChange: (c) => changes.push(c),
        purge: () => session.purge(open),
        onPurged: (p) => purges.push(p),
      });
      services = started;
      return async () => {
        services = null;
        await started.stop();
      };
    },
  });
  cleanups.push(async () => {
    await session.end({ wipe: false });
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    session,
    statuses,
    changes,
    purges,
    services: () => services,
    setNetwork: (up: boolean) => (networkUp = up),
  };
}

describe('an open account runs its sync and outbox', () => {
  it('begin syncs the agent’s tickets into the cache; the socket coming back syncs what changed', async () => {
    const w = await syncWorld(server);
    const first = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const d = desktopOf();
    const open = await d.session.begin(w.agent.token);
    await waitFor(() => d.statuses.some((s) => s.state === 'idle' && s.lastSeq !== null), 'the first sync');
    expect(open.store.listTickets().tickets.map((t) => t.id)).toEqual([first.id]);

    const note = await server.request('POST', `/messages/${first.id}`, { token: w.admin.token, body: { body: 'nota do supervisor', isPrivate: true } });
    expect(note.status).toBe(201);
    d.services()!.online();
    await waitFor(() => open.store.threadPage(first.id).messages.some((m) => m.body === 'nota do supervisor'), 'the note');
  });

  it('a note queued offline is delivered once the connection is back, stored once on the server', async () => {
    const w = await syncWorld(server);
    const ticket = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const d = desktopOf();
    await d.session.begin(w.agent.token);
    await waitFor(() => d.statuses.some((s) => s.state === 'idle'), 'the first sync');

    d.setNetwork(false);
    const clientId = d.services()!.outbox.enqueue({ kind: 'message', ticketId: ticket.id, payload: { body: 'escrito sem rede', isPrivate: true } });
    // The enqueue tries at once; without a network the item goes back to the queue.
    await waitFor(() => d.changes.some((c) => c.type === 'updated' && c.item.state === 'queued'), 'the failed try');
    expect(d.services()!.outbox.list().map((i) => [i.clientId, i.state])).toEqual([[clientId, 'queued']]);

    d.setNetwork(true);
    d.services()!.online();
    await waitFor(() => d.services()!.outbox.list({ states: ['done'] }).length === 1, 'the delivery');
    const bodies = await serverThread(server, w.agent.token, ticket.id);
    expect(bodies.length).toBe(1);
  });

  it('logout stops the services before the cache goes: no sync runs after it', async () => {
    const w = await syncWorld(server);
    await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const d = desktopOf();
    await d.session.begin(w.agent.token);
    const sync = d.services()!.sync;
    await waitFor(() => d.statuses.some((s) => s.state === 'idle'), 'the first sync');
    await d.session.end({ wipe: true });
    expect(d.services()).toBeNull();
    const count = d.statuses.length;
    await sync.sync();
    expect(d.statuses.length).toBe(count);
  });
});

describe('a server purge (desktop:purge for this user)', () => {
  const ALL: TicketStatus[] = ['open', 'pending', 'closed'];
  /** A copy only: the server has no such ticket, so only a wipe takes it out and no snapshot brings it back. */
  const COPY_ONLY = 2_000_000_000;
  const cachedIds = (d: ReturnType<typeof desktopOf>) =>
    d.session
      .current()!
      .store.listTickets({ status: ALL })
      .tickets.map((t) => t.id);

  async function purge(w: SyncWorld, token: string): Promise<number> {
    const res = await server.request('POST', `/users/${w.agent.id}/desktop-purge`, { token, body: {} });
    expect(res.status).toBe(200);
    return res.body.seq;
  }

  /** The agent's console after its first sync, with a copy-only ticket in the cache. */
  async function syncedConsole() {
    const w = await syncWorld(server);
    const ticket = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const d = desktopOf();
    const opened = await d.session.begin(w.agent.token);
    await waitFor(() => d.statuses.some((s) => s.state === 'idle' && s.lastSeq !== null), 'the first sync');
    opened.store.upsertTickets([ticketFixture(COPY_ONLY)]);
    expect(cachedIds(d).sort()).toEqual([ticket.id, COPY_ONLY].sort());
    return { w, ticket, d, opened };
  }

  it('received live, it empties the cache and the outbox, tells the console what was lost, and a new snapshot fills it again', async () => {
    const { w, ticket, d, opened } = await syncedConsole();
    const socket = await socketOf(server, w.agent);
    cleanups.push(() => socket.close());
    socket.socket.on('event', (e: unknown) => d.services()?.sync.onEnvelope(e));

    // Offline: a note waits in the outbox; the purge can only come by the socket.
    d.setNetwork(false);
    d.services()!.outbox.enqueue({
      kind: 'message',
      ticketId: ticket.id,
      payload: { body: 'escrito sem rede', isPrivate: true },
    });
    await waitFor(() => d.changes.some((c) => c.type === 'updated' && c.item.state === 'queued'), 'the failed try');
    const seq = await purge(w, w.admin.token);

    await waitFor(() => d.purges.length === 1, 'the purge');
    expect(d.purges).toEqual([{ reason: 'admin', lostOutboxItems: 1 }]);
    const purged = d.session.current()!;
    expect(purged).not.toBe(opened);
    expect(purged.account).toEqual(opened.account);
    expect(cachedIds(d)).toEqual([]);
    expect(purged.store.lastSeq()).toBeNull();
    expect(d.services()!.outbox.list()).toEqual([]);

    d.setNetwork(true);
    d.services()!.online();
    await waitFor(() => cachedIds(d).length > 0 && purged.store.lastSeq() !== null, 'the new snapshot');
    expect(cachedIds(d)).toEqual([ticket.id]);
    expect(purged.store.lastSeq()).toBeGreaterThanOrEqual(seq);
    // The note typed offline was lost with the cache: the server never got it.
    expect(await serverThread(server, w.agent.token, ticket.id)).toEqual([]);
  });

  it('replayed by /sync after being offline, it does the same', async () => {
    const { w, ticket, d } = await syncedConsole();
    d.setNetwork(false);
    // The agent asked for it from elsewhere (the web app); an admin's note follows.
    const seq = await purge(w, w.agent.token);
    const after = await note(server, w.admin.token, ticket.id, 'depois da limpeza');
    await sleep(100);
    expect(d.purges).toEqual([]);

    d.setNetwork(true);
    d.services()!.online();
    await waitFor(() => d.purges.length === 1, 'the replayed purge');
    expect(d.purges).toEqual([{ reason: 'self', lostOutboxItems: 0 }]);
    const purged = d.session.current()!;
    await waitFor(() => purged.store.lastSeq() !== null && cachedIds(d).length > 0, 'the new snapshot');
    expect(cachedIds(d)).toEqual([ticket.id]);
    expect(purged.store.threadPage(ticket.id).messages.map((m) => m.id)).toEqual([after.id]);
    expect(purged.store.lastSeq()).toBeGreaterThanOrEqual(seq);
  });

  it('does not loop: after the purge the new sync starts past the event and never applies it again', async () => {
    const { w, d } = await syncedConsole();
    const seq = await purge(w, w.admin.token);
    d.services()!.online();
    await waitFor(() => d.purges.length === 1, 'the purge');
    const purged = d.session.current()!;
    for (let i = 0; i < 3; i++) expect((await d.services()!.sync.sync()).state).toBe('idle');
    expect(purged.store.lastSeq()).toBeGreaterThanOrEqual(seq);
    expect(d.purges).toHaveLength(1);
    expect(d.session.current()).toBe(purged);
    expect(d.statuses.at(-1)).toMatchObject({ state: 'idle', error: null });
  });

  it('ignores a purge naming another user: the cache and the outbox stay', async () => {
    const { w, d, opened } = await syncedConsole();
    // Sent to the agent by mistake, naming the admin; and the admin's own purge (which the agent does not even get).
    await server.deps.events.emit(
      w.tenantId,
      SOCKET_EVENTS.desktopPurge,
      { userId: w.admin.id, reason: 'admin' },
      { scope: 'user', userId: w.agent.id },
    );
    const res = await server.request('POST', `/users/${w.admin.id}/desktop-purge`, { token: w.admin.token, body: {} });
    expect(res.status).toBe(200);
    const status = await d.services()!.sync.sync();
    expect(status).toMatchObject({ state: 'idle', lastSeq: res.body.seq });
    expect(d.purges).toEqual([]);
    expect(d.session.current()).toBe(opened);
    expect(cachedIds(d)).toContain(COPY_ONLY);
  });
});
