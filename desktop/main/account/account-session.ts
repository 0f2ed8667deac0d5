import { rm } from 'node:fs/promises';
import { cacheFilePath, openOrRecreateCacheDatabase, wipeCacheFiles, type CacheAccount, type CacheDatabase } from '../cache/cache-database';
import { createCacheStore, type CacheStore } from '../cache/cache-store';
import { readFileIfPresent, writePrivateFile } from '../security/private-file';

/**
 * Whose local cache is open. The main process decides it, not the renderer: the account is the
 * one the server confirms for the access token (GET /users/{sub} answered with that id and
 * tenant), so a renderer compromised by a malicious message cannot open another account's cache
 * by naming it. Offline (or with an expired token, which the server cannot confirm) only the
 * account the server confirmed last may open, and only for a token that names it.
 *
 * One cache database per server, tenant and user; a different account beginning wipes the
 * previous one (tenant switch, another user on this profile); logout and the server's purge wipe
 * it too (issue #15).
 */

export type AccountSessionErrorCode =
  | 'ERR_DESKTOP_INVALID_TOKEN'
  | 'ERR_DESKTOP_ACCOUNT_UNVERIFIED'
  | 'ERR_DESKTOP_ACCOUNT_MISMATCH'
  | 'ERR_DESKTOP_NO_ACCOUNT';

export class AccountSessionError extends Error {
  override name = 'AccountSessionError';
  constructor(
    readonly code: AccountSessionErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** What the caller may hold on to while the account is open. */
export interface OpenAccount {
  readonly account: CacheAccount;
  readonly store: CacheStore;
  /** For the main-process services (the outbox's table); never handed to the renderer. */
  readonly database: CacheDatabase;
  /** True when the server confirmed this token; false when opened offline from the last confirmed account. */
  readonly verified: boolean;
  /** The latest access token the renderer handed over (sync and outbox send it). */
  accessToken(): string;
}

export interface AccountSessionOptions {
  /** The server this console talks to (its origin is all that counts). */
  serverOrigin: string;
  /** Folder of the cache files and of the last-account file. */
  cacheDirectory: string;
  /** loadOrCreateCacheKey bound to safeStorage; its errors (no secure storage) reach the caller. */
  loadKey(): Promise<{ key: Buffer; created: boolean }>;
  fetch?: typeof fetch;
  /**
   * Called once per opened account (sync, outbox attach here); the function it returns runs when
   * the account closes, before a wipe.
   */
  onOpen?(open: OpenAccount): (() => void | Promise<void>) | void;
  /** Bounds the confirmation call: a server that hangs counts as offline. */
  verifyTimeoutMs?: number;
}

export interface AccountSession {
  /**
   * The renderer signed in, or started with a stored session: opens that account's cache (wiping
   * another account's first). Resolves the open account; rejects with AccountSessionError.
   */
  begin(accessToken: string): Promise<OpenAccount>;
  /** A refreshed access token of the open account (refused for another account's token). */
  setAccessToken(accessToken: string): void;
  /** Logout (`wipe: true`: the cache and the last-account record go) or app quit (kept). */
  end(options: { wipe: boolean }): Promise<void>;
  /**
   * The server purged this account's data: the cache is emptied and opened again, empty.
   * `expected`: only while that is the open account (ERR_DESKTOP_NO_ACCOUNT otherwise), so a
   * purge asked for by an account that closed meanwhile never empties the next one.
   */
  purge(expected?: OpenAccount): Promise<OpenAccount>;
  current(): OpenAccount | null;
}

const LAST_ACCOUNT_FILE = 'last-account.json';
const VERIFY_TIMEOUT_MS = 8_000;

interface TokenClaims {
  userId: number;
  tenantId: number;
}

/** The account an access token names (not verified: the server's answer verifies it). */
export function accountClaimsOf(token: unknown): TokenClaims {
  if (typeof token !== 'string' || token.length > 8192 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) {
    throw new AccountSessionError('ERR_DESKTOP_INVALID_TOKEN', 'the access token is not a JWT');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  } catch {
    throw new AccountSessionError('ERR_DESKTOP_INVALID_TOKEN', 'the access token payload is not JSON');
  }
  const { sub, tid } = (payload ?? {}) as { sub?: unknown; tid?: unknown };
  const userId = typeof sub === 'string' && /^[1-9]\d{0,15}$/.test(sub) ? Number(sub) : Number.NaN;
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(tid) || (tid as number) <= 0) {
    throw new AccountSessionError('ERR_DESKTOP_INVALID_TOKEN', 'the access token names no user and tenant');
  }
  return { userId, tenantId: tid as number };
}

type Confirmation = { kind: 'confirmed' } | { kind: 'unreachable' } | { kind: 'refused'; status: number };

export function createAccountSession(options: AccountSessionOptions): AccountSession {
  const origin = new URL(options.serverOrigin).origin;
  const doFetch = options.fetch ?? fetch;
  const lastAccountPath = `${options.cacheDirectory}/${LAST_ACCOUNT_FILE}`;
  let open: { database: CacheDatabase; value: OpenAccount; token: string; verified: boolean; detach?: () => void | Promise<void> } | null = null;
  // begin/end/purge run one at a time: a logout racing a sign-in must not leave a file behind.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const sameAccount = (a: CacheAccount, b: CacheAccount) =>
    new URL(a.serverOrigin).origin === new URL(b.serverOrigin).origin && a.tenantId === b.tenantId && a.userId === b.userId;

  /** Asks the server whose token this is: its own profile, with the claimed id and tenant. */
  async function confirm(token: string, claims: TokenClaims): Promise<Confirmation> {
    let res: Response;
    try {
      res = await doFetch(`${origin}/users/${claims.userId}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(options.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS),
      });
    } catch {
      return { kind: 'unreachable' };
    }
    // Expired (403 ERR_SESSION_EXPIRED) and server trouble prove nothing either way.
    if (res.status >= 500) return { kind: 'unreachable' };
    const body = (await res.json().catch(() => null)) as { id?: unknown; tenantId?: unknown; error?: unknown } | null;
    if (res.status === 403 && body?.error === 'ERR_SESSION_EXPIRED') return { kind: 'unreachable' };
    if (res.status === 200 && body?.id === claims.userId && body?.tenantId === claims.tenantId) return { kind: 'confirmed' };
    return { kind: 'refused', status: res.status };
  }

  async function readLastAccount(): Promise<CacheAccount | null> {
    const bytes = await readFileIfPresent(lastAccountPath);
    if (!bytes) return null;
    try {
      const value = JSON.parse(bytes.toString('utf8')) as CacheAccount;
      if (typeof value.serverOrigin !== 'string' || !Number.isSafeInteger(value.tenantId) || !Number.isSafeInteger(value.userId)) return null;
      return value;
    } catch {
      return null;
    }
  }

  async function close(wipe: boolean): Promise<void> {
    const current = open;
    open = null;
    if (!current) return;
    try {
      await current.detach?.();
    } finally {
      if (wipe) current.database.wipe();
      else current.database.close();
    }
  }

  async function openAccount(account: CacheAccount, token: string, verified: boolean): Promise<OpenAccount> {
    const { key, created } = await options.loadKey();
    const database = openOrRecreateCacheDatabase({ directory: options.cacheDirectory, account, key, fresh: created });
    const entry: NonNullable<typeof open> = {
      database,
      token,
      verified,
      value: {
        account: database.account,
        store: createCacheStore(database),
        database,
        get verified() {
          return entry.verified;
        },
        accessToken: () => entry.token,
      },
    };
    open = entry;
    try {
      entry.detach = options.onOpen?.(entry.value) ?? undefined;
    } catch (error) {
      await close(false);
      throw error;
    }
    return entry.value;
  }

  return {
    begin: (accessToken) =>
      serial(async () => {
        const claims = accountClaimsOf(accessToken);
        const account: CacheAccount = { serverOrigin: origin, ...claims };
        const confirmation = await confirm(accessToken, claims);
        if (confirmation.kind === 'refused') {
          throw new AccountSessionError('ERR_DESKTOP_ACCOUNT_UNVERIFIED', `the server did not confirm the token (HTTP ${confirmation.status})`);
        }
        const last = await readLastAccount();
        if (confirmation.kind === 'unreachable' && !(last && sameAccount(last, account))) {
          throw new AccountSessionError('ERR_DESKTOP_ACCOUNT_UNVERIFIED', 'the server cannot confirm this account now, and it is not the last one confirmed here');
        }
        const verified = confirmation.kind === 'confirmed';
        if (verified) await writePrivateFile(lastAccountPath, Buffer.from(JSON.stringify(account)), 0o700);
        if (open && sameAccount(open.value.account, account)) {
          open.token = accessToken;
          open.verified ||= verified;
          return open.value;
        }
        // Another account: the one open (or left by a session that never logged out) goes.
        await close(true);
        if (last && !sameAccount(last, account)) wipeCacheFiles(cacheFilePath(options.cacheDirectory, last));
        return openAccount(account, accessToken, verified);
      }),

    setAccessToken(accessToken) {
      if (!open) throw new AccountSessionError('ERR_DESKTOP_NO_ACCOUNT', 'no account is open');
      const claims = accountClaimsOf(accessToken);
      const { account } = open.value;
      if (claims.userId !== account.userId || claims.tenantId !== account.tenantId) {
        throw new AccountSessionError('ERR_DESKTOP_ACCOUNT_MISMATCH', 'the token belongs to another account: sign in again');
      }
      open.token = accessToken;
    },

    end: ({ wipe }) =>
      serial(async () => {
        await close(wipe);
        if (wipe) await rm(lastAccountPath, { force: true });
      }),

    purge: (expected) =>
      serial(async () => {
        if (!open) throw new AccountSessionError('ERR_DESKTOP_NO_ACCOUNT', 'no account is open');
        if (expected && open.value !== expected)
          throw new AccountSessionError('ERR_DESKTOP_NO_ACCOUNT', 'the account to purge is no longer open');
        const { account, verified } = open.value;
        const token = open.token;
        await close(true);
        return openAccount(account, token, verified);
      }),

    current: () => open?.value ?? null,
  };
}
