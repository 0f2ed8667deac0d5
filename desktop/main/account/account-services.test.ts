import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../server/src/realtime/realtime.test-support';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { loadOrCreateCacheKey } from '../cache/cache-key';
import type { OutboxChange } from '../outbox/outbox';
import type { SyncStatus } from '../sync/sync-engine';
import { serverThread, syncWorld, ticketOf } from '../sync/sync.test-support';
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
