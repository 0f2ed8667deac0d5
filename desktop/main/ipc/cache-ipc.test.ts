import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DESKTOP_INVOKE_CHANNELS } from '@shared/desktop-api';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { createDesktopApi } from '../../preload/desktop-api.preload';
import { startAccountServices, type AccountServices } from '../account/account-services';
import { createAccountSession, type AccountSession } from '../account/account-session';
import { syncWorld, ticketOf } from '../sync/sync.test-support';
import { waitFor } from '../../../server/src/realtime/realtime.test-support';
import { multipart } from '../../../server/src/modules/messages/messages.test-support';
import { isoAt, messageFixture, ticketFixture } from '../cache/cache-fixtures.test-support';
import { loadOrCreateCacheKey } from '../cache/cache-key';
import { FakeSafeStorage } from '../tokens/safe-storage.test-support';
import { registerDesktopIpcHandlers } from './desktop-ipc.handlers';
import { FakeIpcMain } from './fake-ipc-main.test-support';

/**
 * The cache's reads as the renderer makes them: window.desktop.cache (the real preload bridge) ->
 * IPC -> the main process's handlers -> the account session's encrypted cache, with the account
 * confirmed by the real server.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const directories: string[] = [];
const sessions: AccountSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.end({ wipe: false });
  for (const d of directories.splice(0)) rmSync(d, { recursive: true, force: true });
});

const appEvent = { senderFrame: { url: 'app://desktop/index.html#/atendimento', parent: null } };

function setup(options: { safeStorageAvailable?: boolean; services?: boolean } = {}) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'atende-cache-ipc-'));
  directories.push(directory);
  const safeStorage = new FakeSafeStorage();
  safeStorage.available = options.safeStorageAvailable ?? true;
  let services: AccountServices | null = null;
  const account = createAccountSession({
    serverOrigin: server.url,
    cacheDirectory: directory,
    loadKey: () => loadOrCreateCacheKey({ safeStorage, filePath: path.join(directory, 'cache-key.bin'), platform: 'linux' }),
    onOpen: options.services
      ? (open) => {
          const started = startAccountServices(open, { serverOrigin: server.url });
          services = started;
          return () => {
            services = null;
            return started.stop();
          };
        }
      : undefined,
  });
  sessions.push(account);
  const ipcMain = new FakeIpcMain();
  const logger = { warn: vi.fn() };
  const budgetsKept: number[] = [];
  registerDesktopIpcHandlers({
    ipcMain,
    appOrigins: () => ['app://desktop'],
    showNotification: () => undefined,
    setBadgeCount: () => undefined,
    tokenStore: { save: async () => true, load: async () => null, clear: async () => undefined, isAvailable: () => true },
    markRendererListening: () => undefined,
    account,
    services: () => services,
    logger,
    onMediaBudgetChanged: (bytes) => budgetsKept.push(bytes),
  });
  // The renderer's side: the preload's bridge over an ipcRenderer that reaches these handlers.
  const desktop = createDesktopApi({
    ipcRenderer: {
      invoke: (channel, ...args) => ipcMain.invoke(channel, appEvent, ...args),
      send: () => undefined,
      on: () => undefined,
      removeListener: () => undefined,
    },
    appVersion: '1.0.0',
    platform: 'linux',
    apiBaseUrl: server.url,
  });
  return { desktop, account, ipcMain, logger, budgetsKept };
}

describe('the local cache over the preload bridge', () => {
  it('begins the account the token names, then answers pages, threads and searches from the cache', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const { desktop, account } = setup();
    expect(await desktop.cache.begin(users.user.token)).toEqual({ tenantId: tenant.id, userId: users.user.id, verified: true });

    // What a sync writes (the sync engine's part); read back through the bridge.
    const store = account.current()!.store;
    store.upsertTickets([ticketFixture(1, { lastMessageAt: isoAt(10) }), ticketFixture(2, { lastMessageAt: isoAt(20) })]);
    store.upsertMessages([
      messageFixture(11, 1, { body: 'Pedido de orçamento', createdAt: isoAt(5) }),
      messageFixture(12, 1, { body: 'segue o orcamento', createdAt: isoAt(6) }),
    ]);

    const first = await desktop.cache.tickets({ limit: 1 });
    expect(first.tickets.map((t) => t.id)).toEqual([2]);
    const second = await desktop.cache.tickets({ limit: 1, before: first.nextBefore });
    expect(second.tickets.map((t) => t.id)).toEqual([1]);
    expect((await desktop.cache.thread(1, { limit: 1 })).messages.map((m) => m.id)).toEqual([12]);
    expect((await desktop.cache.search('ORÇAMENTO')).messages.map((m) => m.id).sort()).toEqual([11, 12]);
  });

  it('refuses malformed input with the field named, reading nothing', async () => {
    const { users } = await server.createTenantWithUsers();
    const { desktop, ipcMain } = setup();
    await desktop.cache.begin(users.user.token);
    const bad: [string, unknown[], RegExp][] = [
      [DESKTOP_INVOKE_CHANNELS.cacheTickets, [{ status: 'archived' }], /ERR_DESKTOP_INVALID_INPUT: status/],
      [DESKTOP_INVOKE_CHANNELS.cacheTickets, [{ limit: 0 }], /ERR_DESKTOP_INVALID_INPUT: limit/],
      [DESKTOP_INVOKE_CHANNELS.cacheTickets, [{ sql: 'DROP TABLE tickets' }], /ERR_DESKTOP_INVALID_INPUT/],
      [DESKTOP_INVOKE_CHANNELS.cacheThread, ['1', {}], /ERR_DESKTOP_INVALID_INPUT: ticketId/],
      [DESKTOP_INVOKE_CHANNELS.cacheThread, [1, { beforeId: -1 }], /ERR_DESKTOP_INVALID_INPUT: beforeId/],
      [DESKTOP_INVOKE_CHANNELS.cacheSearch, [{ text: 'x' }], /ERR_DESKTOP_INVALID_INPUT: text/],
      [DESKTOP_INVOKE_CHANNELS.cacheSearch, ['x'.repeat(201)], /ERR_DESKTOP_INVALID_INPUT: text/],
      [DESKTOP_INVOKE_CHANNELS.accountBegin, ['not a token'], /ERR_DESKTOP_INVALID_INPUT: token/],
      [DESKTOP_INVOKE_CHANNELS.accountEnd, [{}], /ERR_DESKTOP_INVALID_INPUT: wipe/],
    ];
    for (const [channel, args, error] of bad) await expect(ipcMain.invoke(channel, appEvent, ...args)).rejects.toThrow(error);
  });

  it("another account's token: refused, and the open account stays", async () => {
    const a = await server.createTenantWithUsers();
    const { desktop } = setup();
    await desktop.cache.begin(a.users.user.token);
    await expect(desktop.cache.setAccessToken(a.users.admin.token)).rejects.toThrow(/ERR_DESKTOP_ACCOUNT_MISMATCH/);
    const forged = a.users.user.token.replace(/\.[^.]+$/, '.AAAA');
    await expect(desktop.cache.begin(forged)).rejects.toThrow(/ERR_DESKTOP_ACCOUNT_UNVERIFIED/);
    expect((await desktop.cache.tickets()).tickets).toEqual([]);
  });

  it('before any account and after logout the reads answer ERR_DESKTOP_NO_ACCOUNT', async () => {
    const a = await server.createTenantWithUsers();
    const { desktop } = setup();
    await expect(desktop.cache.tickets()).rejects.toThrow(/ERR_DESKTOP_NO_ACCOUNT/);
    await desktop.cache.begin(a.users.user.token);
    await desktop.cache.end({ wipe: true });
    await expect(desktop.cache.search('x')).rejects.toThrow(/ERR_DESKTOP_NO_ACCOUNT/);
  });

  it('without secure storage for the key, begin answers null: the console runs online only', async () => {
    const a = await server.createTenantWithUsers();
    const { desktop, logger } = setup({ safeStorageAvailable: false });
    expect(await desktop.cache.begin(a.users.user.token)).toBeNull();
    await expect(desktop.cache.tickets()).rejects.toThrow(/ERR_DESKTOP_NO_ACCOUNT/);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});

describe('sync and outbox over the preload bridge', () => {
  it('syncs on begin, answers the status, queues a note and lists it delivered; bad entries refused', async () => {
    const w = await syncWorld(server);
    const ticket = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const { desktop, ipcMain } = setup({ services: true });
    expect(await desktop.sync.status()).toBeNull();
    await desktop.cache.begin(w.agent.token);
    await waitFor(async () => (await desktop.sync.status())?.state === 'idle', 'the first sync');
    expect((await desktop.cache.tickets()).tickets.map((t) => t.id)).toEqual([ticket.id]);

    const clientId = await desktop.outbox.enqueue({ kind: 'message', ticketId: ticket.id, payload: { body: 'nota pela ponte', isPrivate: true } });
    await waitFor(async () => (await desktop.outbox.list({ states: ['done'] })).length === 1, 'the delivery');
    expect((await desktop.outbox.list()).map((i) => i.clientId)).toEqual([clientId]);
    await desktop.sync.online();
    await waitFor(async () => (await desktop.cache.thread(ticket.id)).messages.some((m) => m.body === 'nota pela ponte'), 'the note synced');

    await expect(
      desktop.outbox.enqueue({ kind: 'message', ticketId: ticket.id, payload: { body: '   ' } } as never),
    ).rejects.toThrow(/ERR_DESKTOP_INVALID_INPUT/);
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.outboxList, appEvent, { states: ['lost'] })).rejects.toThrow(/ERR_DESKTOP_INVALID_INPUT: states/);
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.outboxDiscard, appEvent, 'has space')).rejects.toThrow(/ERR_DESKTOP_INVALID_INPUT: clientId/);
    await expect(ipcMain.invoke(DESKTOP_INVOKE_CHANNELS.syncOlder, appEvent, 0)).rejects.toThrow(/ERR_DESKTOP_INVALID_INPUT: ticketId/);
  });
});

describe('the media cache over the preload bridge', () => {
  it("answers a synced message's file, its usage and a new budget; another tenant's id is the server's 404; malformed input refused", async () => {
    const w = await syncWorld(server);
    const ticket = await ticketOf(server, w, { status: 'open', userId: w.agent.id });
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from('imagem pela ponte')]);
    const upload = await multipart(server, 'POST', `/messages/${ticket.id}`, w.agent.token, { isPrivate: 'true' }, [
      { name: 'foto.png', type: 'image/png', bytes },
    ]);
    expect(upload.status).toBe(201);
    const messageId: number = upload.body.messages[0].id;
    const { desktop, ipcMain, budgetsKept } = setup({ services: true });
    await expect(desktop.media.get(messageId)).rejects.toThrow(/ERR_DESKTOP_NO_ACCOUNT/);
    await desktop.cache.begin(w.agent.token);
    await waitFor(async () => (await desktop.cache.thread(ticket.id)).messages.some((m) => m.id === messageId), 'the message synced');

    const file = await desktop.media.get(messageId);
    expect(file.mimeType).toBe('image/png');
    expect(file.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(file.bytes).equals(bytes)).toBe(true);
    expect(await desktop.media.usage()).toEqual({ bytes: bytes.length, items: 1, budgetBytes: 200 * 1024 * 1024 });
    expect(await desktop.media.setBudget(10 * 1024 * 1024)).toEqual({ bytes: bytes.length, items: 1, budgetBytes: 10 * 1024 * 1024 });
    // Kept for the next start (main writes it to preferences.json).
    expect(budgetsKept).toEqual([10 * 1024 * 1024]);

    // Another tenant's message: the server's 404, as a code and a sentence.
    const other = await syncWorld(server);
    const theirTicket = await ticketOf(server, other, { status: 'open', userId: other.agent.id });
    const theirs = await multipart(server, 'POST', `/messages/${theirTicket.id}`, other.agent.token, { isPrivate: 'true' }, [
      { name: 'alheio.png', type: 'image/png', bytes },
    ]);
    await expect(desktop.media.get(theirs.body.messages[0].id)).rejects.toThrow(/ERR_DESKTOP_MEDIA_NOT_FOUND: .*404/);
    expect((await desktop.media.usage()).items).toBe(1);

    const bad: [string, unknown[], RegExp][] = [
      [DESKTOP_INVOKE_CHANNELS.mediaGet, ['1'], /ERR_DESKTOP_INVALID_INPUT: messageId/],
      [DESKTOP_INVOKE_CHANNELS.mediaGet, [0], /ERR_DESKTOP_INVALID_INPUT: messageId/],
      [DESKTOP_INVOKE_CHANNELS.mediaGet, [1.5], /ERR_DESKTOP_INVALID_INPUT: messageId/],
      [DESKTOP_INVOKE_CHANNELS.mediaGet, [{ id: 1 }], /ERR_DESKTOP_INVALID_INPUT: messageId/],
      [DESKTOP_INVOKE_CHANNELS.mediaSetBudget, [1024], /ERR_DESKTOP_INVALID_INPUT: budget/],
      [DESKTOP_INVOKE_CHANNELS.mediaSetBudget, [11 * 1024 ** 3], /ERR_DESKTOP_INVALID_INPUT: budget/],
      [DESKTOP_INVOKE_CHANNELS.mediaSetBudget, ['100MB'], /ERR_DESKTOP_INVALID_INPUT: budget/],
      [DESKTOP_INVOKE_CHANNELS.mediaSetBudget, [10 * 1024 * 1024 + 0.5], /ERR_DESKTOP_INVALID_INPUT: budget/],
    ];
    for (const [channel, args, error] of bad) await expect(ipcMain.invoke(channel, appEvent, ...args)).rejects.toThrow(error);
    expect((await desktop.media.usage()).budgetBytes).toBe(10 * 1024 * 1024);
    expect(budgetsKept).toEqual([10 * 1024 * 1024]);
  });
});
