import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheFileName,
  cacheFilePath,
  CacheUnreadableError,
  openCacheDatabase,
  openOrRecreateCacheDatabase,
  wipeAllCacheFiles,
  type CacheAccount,
  type CacheDatabase,
} from './cache-database';
import { messageFixture, ticketFixture } from './cache-fixtures.test-support';
import { CacheSchemaTooNewError, latestCacheVersion } from './cache-migrations';
import { createCacheStore } from './cache-store';

const account: CacheAccount = { serverOrigin: 'https://app.example.com', tenantId: 12, userId: 34 };
const SECRET_BODY = 'senha do cofre 7731 ação-confidencial';

let directory: string;
let key: Buffer;
const opened: CacheDatabase[] = [];

function open(options: Partial<Parameters<typeof openCacheDatabase>[0]> = {}) {
  const cache = openCacheDatabase({ directory, account, key, ...options });
  opened.push(cache);
  return cache;
}

/** Every byte SQLite keeps for the account: the database and its WAL/SHM companions. */
function filesOnDisk(cache: CacheDatabase): Buffer[] {
  return ['', '-wal', '-shm'].filter((s) => existsSync(cache.filePath + s)).map((s) => readFileSync(cache.filePath + s));
}

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'cache-db-'));
  key = randomBytes(32);
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('cacheFileName', () => {
  it('is one stable file per server origin, tenant and user, named by a hash', () => {
    const name = cacheFileName(account);
    expect(name).toMatch(/^cache-[0-9a-f]{32}\.sqlite$/);
    expect(cacheFileName({ ...account, serverOrigin: 'https://APP.example.com/some/path?x=1' })).toBe(name);
    expect(cacheFileName({ ...account, tenantId: 13 })).not.toBe(name);
    expect(cacheFileName({ ...account, userId: 35 })).not.toBe(name);
    expect(cacheFileName({ ...account, serverOrigin: 'https://other.example.com' })).not.toBe(name);
    expect(cacheFileName({ ...account, serverOrigin: 'http://app.example.com' })).not.toBe(name);
    expect(name).not.toContain('example');
  });

  it('refuses identities that are not ids or an origin', () => {
    expect(() => cacheFileName({ ...account, serverOrigin: 'agent@example.com' })).toThrow();
    expect(() => cacheFileName({ ...account, tenantId: 0 })).toThrow(/tenantId/);
    expect(() => cacheFileName({ ...account, userId: 1.5 })).toThrow(/userId/);
  });
});

describe('openCacheDatabase', () => {
  it('creates an encrypted SQLCipher-format file with WAL and foreign keys on, at the latest schema', () => {
    const cache = open();
    expect(cache.filePath).toBe(cacheFilePath(directory, account));
    const db = cache.connection;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('cipher', { simple: true })).toBe('sqlcipher');
    expect(db.pragma('user_version', { simple: true })).toBe(latestCacheVersion());
    // A plain SQLite file starts with this header; an encrypted one starts with its random salt.
    expect(readFileSync(cache.filePath).subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    if (process.platform !== 'win32') {
      createCacheStore(cache).upsertTickets([ticketFixture(1)]);
      for (const suffix of ['', '-wal', '-shm']) expect(statSync(cache.filePath + suffix).mode & 0o777).toBe(0o600);
    }
  });

  it('keeps no plaintext on disk: no message body, no contact name, no key, in the database or its WAL', () => {
    const cache = open();
    const store = createCacheStore(cache);
    store.upsertTickets([ticketFixture(1, { name: 'Fulana Secreta da Silva', lastMessage: SECRET_BODY })]);
    store.upsertMessages([messageFixture(10, 1, { body: SECRET_BODY })]);
    // Before a checkpoint the rows live in the WAL; after it, in the main file: check both.
    const needles: Buffer[] = [SECRET_BODY, 'Fulana Secreta', 'senha do cofre', key.toString('hex')].map((s) => Buffer.from(s));
    needles.push(key, Buffer.from(SECRET_BODY, 'utf16le'));
    const check = () => {
      const files = filesOnDisk(cache);
      expect(files.length).toBeGreaterThan(0);
      for (const bytes of files) for (const needle of needles) expect(bytes.includes(needle)).toBe(false);
    };
    expect(store.search('cofre').messages).toHaveLength(1);
    check();
    cache.connection.pragma('wal_checkpoint(TRUNCATE)');
    check();
    cache.close();
    check();

    // The check itself finds plaintext when there is some: the same row in an unencrypted file.
    const plainPath = path.join(directory, 'plain.sqlite');
    const plain = new Database(plainPath);
    plain.exec('CREATE TABLE t (body TEXT)');
    plain.prepare('INSERT INTO t VALUES (?)').run(SECRET_BODY);
    plain.close();
    expect(readFileSync(plainPath).includes(Buffer.from(SECRET_BODY))).toBe(true);
  });

  it('reopens with the same key and reads the data back', () => {
    const first = open();
    createCacheStore(first).upsertTickets([ticketFixture(1)]);
    first.close();
    const again = open();
    expect(
      createCacheStore(again)
        .listTickets()
        .tickets.map((t) => t.id),
    ).toEqual([1]);
  });

  it('cannot be opened with another key, nor without one, nor by plain SQLite tools', () => {
    const cache = open();
    createCacheStore(cache).upsertTickets([ticketFixture(1, { lastMessage: SECRET_BODY })]);
    cache.close();

    expect(() => openCacheDatabase({ directory, account, key: randomBytes(32) })).toThrow(CacheUnreadableError);
    const plain = new Database(cache.filePath);
    try {
      expect(() => plain.prepare('SELECT * FROM tickets').all()).toThrow(/not a database/);
    } finally {
      plain.close();
    }
    // The failed attempts changed nothing: the right key still opens it.
    expect(createCacheStore(open()).listTickets().tickets).toHaveLength(1);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => openCacheDatabase({ directory, account, key: randomBytes(16) })).toThrow(/32 bytes/);
  });

  it('wipe() closes the database and deletes the file, its WAL and its SHM', () => {
    const cache = open();
    createCacheStore(cache).upsertTickets([ticketFixture(1)]);
    expect(existsSync(`${cache.filePath}-wal`)).toBe(true);
    cache.wipe();
    expect(cache.connection.open).toBe(false);
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(cache.filePath + suffix)).toBe(false);
    expect(readdirSync(directory)).toEqual([]);
    // The account starts over with an empty cache.
    expect(createCacheStore(open()).listTickets().tickets).toEqual([]);
  });

  it("wipe() of one account leaves the other accounts' caches", () => {
    const mine = open();
    const other = open({ account: { ...account, tenantId: 99 } });
    createCacheStore(other).upsertTickets([ticketFixture(5)]);
    mine.wipe();
    expect(existsSync(other.filePath)).toBe(true);
    expect(createCacheStore(other).listTickets().tickets).toHaveLength(1);
  });
});

describe('openOrRecreateCacheDatabase', () => {
  it('starts over when the key no longer fits (key lost), instead of locking the agent out', () => {
    const cache = open();
    createCacheStore(cache).upsertTickets([ticketFixture(1)]);
    cache.close();
    const newKey = randomBytes(32);
    const recreated = openOrRecreateCacheDatabase({ directory, account, key: newKey });
    opened.push(recreated);
    expect(createCacheStore(recreated).listTickets().tickets).toEqual([]);
  });

  it('starts over after a downgrade (a schema newer than this app knows)', () => {
    const cache = open();
    cache.connection.pragma(`user_version = ${latestCacheVersion() + 1}`);
    cache.close();
    expect(() => openCacheDatabase({ directory, account, key })).toThrow(CacheSchemaTooNewError);
    const recreated = openOrRecreateCacheDatabase({ directory, account, key });
    opened.push(recreated);
    expect(recreated.connection.pragma('user_version', { simple: true })).toBe(latestCacheVersion());
  });

  it('fresh: a new key wipes every account cache of the folder, and only cache files', () => {
    open({ account: { ...account, tenantId: 1 } }).close();
    open({ account: { ...account, tenantId: 2 } }).close();
    writeFileSync(path.join(directory, 'cache-key.bin'), 'x');
    const recreated = openOrRecreateCacheDatabase({ directory, account, key: randomBytes(32), fresh: true });
    opened.push(recreated);
    const names = readdirSync(directory).filter((n) => !n.endsWith('-wal') && !n.endsWith('-shm'));
    expect(names.sort()).toEqual([cacheFileName(account), 'cache-key.bin'].sort());
  });

  it('wipeAllCacheFiles does nothing when the folder does not exist', () => {
    expect(() => wipeAllCacheFiles(path.join(directory, 'missing'))).not.toThrow();
  });

  it('does not hide other errors', () => {
    writeFileSync(path.join(directory, 'not-a-dir'), '');
    expect(() => openOrRecreateCacheDatabase({ directory: path.join(directory, 'not-a-dir'), account, key })).toThrow(
      /ENOTDIR|EEXIST/,
    );
  });
});
