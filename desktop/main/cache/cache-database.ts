import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { CACHE_KEY_BYTES } from './cache-key';
import { CACHE_MIGRATIONS, CacheSchemaTooNewError, migrateCache, type CacheMigration } from './cache-migrations';

/** Whose data a cache file holds: one file per server, tenant and user. */
export interface CacheAccount {
  /** The server's URL; only its origin counts (https://app.example.com). */
  serverOrigin: string;
  tenantId: number;
  userId: number;
}

export interface OpenCacheOptions {
  /** Folder of the cache files, e.g. path.join(app.getPath('userData'), 'cache'). */
  directory: string;
  account: CacheAccount;
  /** The 32-byte key from loadOrCreateCacheKey. */
  key: Buffer;
  /** Tests open databases at earlier schema versions; the app uses every migration. */
  migrations?: readonly CacheMigration[];
}

export interface CacheDatabase {
  readonly account: CacheAccount;
  readonly filePath: string;
  /** For the cache modules (store, migrations) and the outbox's own table (desktop/main/outbox) only. */
  readonly connection: Database.Database;
  close(): void;
  /** Closes and deletes the files (logout, tenant switch, server-side purge). */
  wipe(): void;
}

/** The file exists but this key does not open it (key lost or replaced, or not a cache file). */
export class CacheUnreadableError extends Error {
  readonly code = 'ERR_CACHE_UNREADABLE';
  constructor(filePath: string, options?: { cause?: unknown }) {
    super(`The local cache file ${path.basename(filePath)} cannot be opened with this key.`, options);
    this.name = 'CacheUnreadableError';
  }
}

/** The companions SQLite keeps beside a WAL database (and a rollback journal, if one is left). */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

/**
 * The file name hashes the account: the folder listing tells nobody which server, tenant or user
 * (let alone e-mail) a cache belongs to, and the same account always finds its file again.
 */
export function cacheFileName(account: CacheAccount): string {
  const origin = new URL(account.serverOrigin).origin.toLowerCase();
  if (!Number.isSafeInteger(account.tenantId) || account.tenantId <= 0) throw new Error('tenantId must be a positive integer');
  if (!Number.isSafeInteger(account.userId) || account.userId <= 0) throw new Error('userId must be a positive integer');
  const digest = createHash('sha256')
    .update(JSON.stringify([origin, account.tenantId, account.userId]))
    .digest('hex');
  return `cache-${digest.slice(0, 32)}.sqlite`;
}

export function cacheFilePath(directory: string, account: CacheAccount): string {
  return path.join(directory, cacheFileName(account));
}

/** Deletes a cache database and its WAL/SHM files; nothing to do when they do not exist. */
export function wipeCacheFiles(filePath: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${filePath}${suffix}`, { force: true });
}

const CACHE_FILE = /^cache-[0-9a-f]{32}\.sqlite(-wal|-shm|-journal)?$/;

/**
 * Deletes every account's cache in the folder: after a new key was made (the old files are
 * unreadable) or when the user resets the app. Other files in the folder (the key) stay.
 */
export function wipeAllCacheFiles(directory: string): void {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) if (CACHE_FILE.test(name)) rmSync(path.join(directory, name), { force: true });
}

/**
 * Opens (creating if needed) the account's encrypted cache and migrates it to the latest schema.
 * Throws CacheUnreadableError when the key does not fit and CacheSchemaTooNewError after a
 * downgrade; openOrRecreateCacheDatabase handles both by starting over.
 */
export function openCacheDatabase(options: OpenCacheOptions): CacheDatabase {
  const { directory, account, key } = options;
  if (key.length !== CACHE_KEY_BYTES) throw new Error(`cache key must be ${CACHE_KEY_BYTES} bytes`);
  const filePath = cacheFilePath(directory, account);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // Created owner-only before SQLite sees it (SQLite gives its WAL and SHM the same mode): the
  // content is encrypted anyway, this keeps even its size and timestamps from other users.
  closeSync(openSync(filePath, 'a', 0o600));

  const connection = new Database(filePath);
  try {
    // SQLCipher 4 format (readable by the sqlcipher tools when support needs to look inside).
    // The key is given raw (x'..'): 32 random bytes need no PBKDF2 stretching, which would add
    // ~120 ms to every start for nothing.
    connection.pragma(`cipher = 'sqlcipher'`);
    connection.pragma('legacy = 4');
    connection.pragma(`key = "x'${key.toString('hex')}'"`);
    try {
      // The key is only checked when the first page is read.
      connection.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new CacheUnreadableError(filePath, { cause: error });
      throw error;
    }
    connection.pragma('journal_mode = WAL');
    // WAL + NORMAL: a power cut can lose the last commits, never corrupt the file; what was lost
    // comes back with the next sync (the saved seq is in the same commits).
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    migrateCache(connection, options.migrations ?? CACHE_MIGRATIONS);
  } catch (error) {
    connection.close();
    throw error;
  }

  return {
    account: { ...account },
    filePath,
    connection,
    close() {
      if (connection.open) connection.close();
    },
    wipe() {
      if (connection.open) connection.close();
      wipeCacheFiles(filePath);
    },
  };
}

/**
 * openCacheDatabase, but a cache that cannot be used (key lost, written by a newer app) is
 * deleted and created again: it is a copy of the server's data, and the next sync refills it.
 * Pass `fresh: true` when loadOrCreateCacheKey just made a new key: every cache file in the
 * folder was encrypted with the lost one.
 */
export function openOrRecreateCacheDatabase(options: OpenCacheOptions & { fresh?: boolean }): CacheDatabase {
  const filePath = cacheFilePath(options.directory, options.account);
  if (options.fresh) wipeAllCacheFiles(options.directory);
  try {
    return openCacheDatabase(options);
  } catch (error) {
    if (!(error instanceof CacheUnreadableError || error instanceof CacheSchemaTooNewError)) throw error;
    wipeCacheFiles(filePath);
    return openCacheDatabase(options);
  }
}
