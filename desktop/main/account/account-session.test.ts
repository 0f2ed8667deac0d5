import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { cacheFilePath } from '../cache/cache-database';
import { ticketFixture } from '../cache/cache-fixtures.test-support';
import { loadOrCreateCacheKey } from '../cache/cache-key';
import { FakeSafeStorage } from '../tokens/safe-storage.test-support';
import { AccountSessionError, accountClaimsOf, createAccountSession, type AccountSession, type AccountSessionOptions } from './account-session';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

let directory: string;
const sessions: AccountSession[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'atende-account-'));
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.end({ wipe: false });
  rmSync(directory, { recursive: true, force: true });
});

const safeStorage = new FakeSafeStorage();
function sessionOf(overrides: Partial<AccountSessionOptions> = {}): AccountSession {
  const session = createAccountSession({
    serverOrigin: server.url,
    cacheDirectory: directory,
    loadKey: () => loadOrCreateCacheKey({ safeStorage, filePath: path.join(directory, 'cache-key.bin'), platform: 'linux' }),
    ...overrides,
  });
  sessions.push(session);
  return session;
}
/** The network is down: every request fails as fetch fails without a route to the server. */
const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    if (error instanceof AccountSessionError) return error.code;
    throw error;
  }
  return 'resolved';
}

/** The same token with its payload rewritten: the signature no longer matches. */
function forged(token: string, claims: Record<string, unknown>): string {
  const [head, payload, signature] = token.split('.');
  const body = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...claims };
  return [head, Buffer.from(JSON.stringify(body)).toString('base64url'), signature].join('.');
}

describe('account session: which cache the main process opens', () => {
  it("opens the cache of the account the server confirms for the token, and keeps it across a restart", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const first = sessionOf();
    const opened = await first.begin(users.user.token);
    expect(opened.account).toEqual({ serverOrigin: new URL(server.url).origin, tenantId: tenant.id, userId: users.user.id });
    expect(opened.verified).toBe(true);
    expect(opened.store.upsertTickets([ticketFixture(7)])).toBe(1);
    await first.end({ wipe: false });

    // The app starts again with the stored session: the same file, with what it held.
    const again = await sessionOf().begin(users.user.token);
    expect(again.store.listTickets().tickets.map((t) => t.id)).toEqual([7]);
    expect(again.accessToken()).toBe(users.user.token);
  });

  it('refuses a token whose claims were rewritten to name another user (the server answers 401): nothing opens', async () => {
    const { users } = await server.createTenantWithUsers();
    const session = sessionOf();
    const token = forged(users.user.token, { sub: String(users.admin.id) });
    expect(await codeOf(session.begin(token))).toBe('ERR_DESKTOP_ACCOUNT_UNVERIFIED');
    expect(session.current()).toBeNull();
    expect(existsSync(cacheFilePath(directory, { serverOrigin: server.url, tenantId: users.admin.tenantId, userId: users.admin.id }))).toBe(false);
  });

  it('refuses what is not an access token, before any request', async () => {
    let requests = 0;
    const session = sessionOf({ fetch: (...args) => (requests++, fetch(...args)) });
    for (const bad of ['', 'abc', 'a.b', `x.${Buffer.from('{"sub":"1"}').toString('base64url')}.y`, 42 as unknown as string]) {
      expect(await codeOf(session.begin(bad))).toBe('ERR_DESKTOP_INVALID_TOKEN');
    }
    expect(requests).toBe(0);
    expect(() => accountClaimsOf(`x.${Buffer.from('{"sub":"0","tid":1}').toString('base64url')}.y`)).toThrow(AccountSessionError);
  });

  it("wipes the previous account's cache when another account begins (tenant switch)", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const session = sessionOf();
    const first = await session.begin(a.users.user.token);
    first.store.upsertTickets([ticketFixture(1)]);
    const fileA = cacheFilePath(directory, first.account);
    expect(existsSync(fileA)).toBe(true);

    const second = await session.begin(b.users.admin.token);
    expect(second.account.tenantId).toBe(b.tenant.id);
    expect(existsSync(fileA)).toBe(false);
    expect(second.store.listTickets().tickets).toEqual([]);
  });

  it('also wipes the cache a session left without logging out when someone else signs in', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const first = sessionOf();
    const fileA = cacheFilePath(directory, (await first.begin(a.users.admin.token)).account);
    await first.end({ wipe: false });
    expect(existsSync(fileA)).toBe(true);

    await sessionOf().begin(b.users.user.token);
    expect(existsSync(fileA)).toBe(false);
  });

  it('offline: opens only the account the server confirmed last, unverified, and confirms it once back', async () => {
    const a = await server.createTenantWithUsers();
    const online = sessionOf();
    (await online.begin(a.users.user.token)).store.upsertTickets([ticketFixture(3)]);
    await online.end({ wipe: false });

    let network: typeof fetch = offline;
    const session = sessionOf({ fetch: (...args) => network(...args) });
    const opened = await session.begin(a.users.user.token);
    expect(opened.verified).toBe(false);
    expect(opened.store.listTickets().tickets.map((t) => t.id)).toEqual([3]);

    // Another account cannot be opened while the server cannot confirm it.
    expect(await codeOf(session.begin(a.users.admin.token))).toBe('ERR_DESKTOP_ACCOUNT_UNVERIFIED');
    expect(session.current()?.account.userId).toBe(a.users.user.id);

    network = fetch;
    const confirmed = await session.begin(a.users.user.token);
    expect(confirmed.verified).toBe(true);
    expect(confirmed.store.listTickets().tickets.map((t) => t.id)).toEqual([3]);
  });

  it('offline with no account confirmed before: nothing opens', async () => {
    const a = await server.createTenantWithUsers();
    expect(await codeOf(sessionOf({ fetch: offline }).begin(a.users.user.token))).toBe('ERR_DESKTOP_ACCOUNT_UNVERIFIED');
  });

  it("takes a refreshed token of the same account, and refuses another account's", async () => {
    const a = await server.createTenantWithUsers();
    const session = sessionOf();
    expect(await codeOf(() => session.setAccessToken(a.users.user.token))).toBe('ERR_DESKTOP_NO_ACCOUNT');
    const opened = await session.begin(a.users.user.token);
    const refreshed = (await server.login(a.users.user)).token as string;
    session.setAccessToken(refreshed);
    expect(opened.accessToken()).toBe(refreshed);
    expect(await codeOf(() => session.setAccessToken(a.users.admin.token))).toBe('ERR_DESKTOP_ACCOUNT_MISMATCH');
    expect(opened.accessToken()).toBe(refreshed);
  });

  it('logout wipes the cache and forgets the account: offline, it no longer opens', async () => {
    const a = await server.createTenantWithUsers();
    const session = sessionOf();
    const file = cacheFilePath(directory, (await session.begin(a.users.user.token)).account);
    await session.end({ wipe: true });
    expect(existsSync(file)).toBe(false);
    expect(session.current()).toBeNull();
    expect(await codeOf(sessionOf({ fetch: offline }).begin(a.users.user.token))).toBe('ERR_DESKTOP_ACCOUNT_UNVERIFIED');
  });

  it("a server-side purge empties the account's cache and leaves it open", async () => {
    const a = await server.createTenantWithUsers();
    const session = sessionOf();
    const opened = await session.begin(a.users.user.token);
    opened.store.upsertTickets([ticketFixture(5)]);
    opened.store.setLastSeq(40);
    const purged = await session.purge();
    expect(purged.account).toEqual(opened.account);
    expect(purged.store.listTickets().tickets).toEqual([]);
    expect(purged.store.lastSeq()).toBeNull();
  });

  it('a purge asked for by an account that closed since does not empty the one open now', async () => {
    const a = await server.createTenantWithUsers();
    const session = sessionOf();
    const first = await session.begin(a.users.user.token);
    await session.end({ wipe: false });
    const second = await session.begin(a.users.user.token);
    second.store.upsertTickets([ticketFixture(5)]);
    expect(await codeOf(session.purge(first))).toBe('ERR_DESKTOP_NO_ACCOUNT');
    expect(second.store.listTickets().tickets.map((t) => t.id)).toEqual([5]);
    expect((await session.purge(second)).store.listTickets().tickets).toEqual([]);
  });

  it('runs the onOpen hook per opened account and its cleanup before the wipe', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const seen: string[] = [];
    const session = sessionOf({
      onOpen: (open) => {
        seen.push(`open ${open.account.userId}`);
        return () => {
          // Still readable here: the cleanup (a sync stopping) runs before the file goes.
          open.store.lastSeq();
          seen.push(`close ${open.account.userId}`);
        };
      },
    });
    await session.begin(a.users.user.token);
    await session.begin(a.users.user.token);
    await session.begin(b.users.user.token);
    await session.end({ wipe: true });
    expect(seen).toEqual([`open ${a.users.user.id}`, `close ${a.users.user.id}`, `open ${b.users.user.id}`, `close ${b.users.user.id}`]);
  });
});
