import { openCacheDatabase, type CacheAccount, type CacheDatabase, type OpenCacheOptions } from '../cache/cache-database';
import { createCacheStore, type CacheStore } from '../cache/cache-store';

/**
 * The account's cache as the sync engine uses it: the store, and a way to start over. A reload
 * ("full resync") cannot be expressed as row writes (whatever the server no longer shows must
 * go too), and the cache API has no "delete everything": the files are wiped and reopened,
 * which also drops whatever an older app version left in them. Readers (IPC) must ask `store()`
 * each time rather than keep the object: it changes after a reset.
 */
export interface SyncCache {
  readonly account: CacheAccount;
  store(): CacheStore;
  /** Deletes the account's cache files and opens an empty cache; returns its store. */
  reset(): CacheStore;
}

export interface OwnedSyncCache extends SyncCache {
  /** The open database (e.g. to close it on quit). */
  database(): CacheDatabase;
  close(): void;
}

/** Opens the account's cache (openCacheDatabase's rules and errors) for the sync engine. */
export function openSyncCache(options: OpenCacheOptions): OwnedSyncCache {
  let database = openCacheDatabase(options);
  let store = createCacheStore(database);
  return {
    account: { ...options.account },
    store: () => store,
    reset() {
      database.wipe();
      database = openCacheDatabase(options);
      store = createCacheStore(database);
      return store;
    },
    database: () => database,
    close: () => database.close(),
  };
}
