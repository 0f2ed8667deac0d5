import { openCacheDatabase, type CacheAccount, type CacheDatabase, type OpenCacheOptions } from '../cache/cache-database';
import { createCacheStore, type CacheStore } from '../cache/cache-store';

/**
 * The account's cache as the sync engine uses it. A reload ("full resync") replaces the whole
 * server copy in one transaction (CacheStore.replaceServerCopy) instead of deleting the files:
 * the same database holds the outbox, the agent's own work not yet delivered, which a reload
 * must never lose.
 */
export interface SyncCache {
  readonly account: CacheAccount;
  store(): CacheStore;
}

export interface OwnedSyncCache extends SyncCache {
  /** The open database (e.g. to close it on quit). */
  database(): CacheDatabase;
  close(): void;
}

/** The sync's view of an account session's open cache. */
export function syncCacheOf(account: CacheAccount, store: CacheStore): SyncCache {
  return { account: { ...account }, store: () => store };
}

/** Opens the account's cache (openCacheDatabase's rules and errors) for the sync engine alone. */
export function openSyncCache(options: OpenCacheOptions): OwnedSyncCache {
  const database = openCacheDatabase(options);
  const store = createCacheStore(database);
  return {
    account: { ...options.account },
    store: () => store,
    database: () => database,
    close: () => database.close(),
  };
}
