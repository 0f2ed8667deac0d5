import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSafeStorage } from '../tokens/safe-storage.test-support';
import { CACHE_KEY_BYTES, CacheKeyUnavailableError, deleteCacheKey, loadOrCreateCacheKey } from './cache-key';

let dir: string;
let filePath: string;
let safeStorage: FakeSafeStorage;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cache-key-'));
  filePath = path.join(dir, 'userData', 'cache', 'cache-key.bin');
  safeStorage = new FakeSafeStorage();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadOrCreateCacheKey', () => {
  it('makes a 32-byte key once and returns the same key afterwards', async () => {
    const first = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    expect(first.created).toBe(true);
    expect(first.key).toHaveLength(CACHE_KEY_BYTES);
    const again = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    expect(again.created).toBe(false);
    expect(again.key.equals(first.key)).toBe(true);
  });

  it('keeps only ciphertext on disk: neither the raw key nor its hex appears in the file', async () => {
    const { key } = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'win32' });
    const onDisk = await readFile(filePath);
    expect(onDisk.includes(key)).toBe(false);
    expect(onDisk.includes(Buffer.from(key.toString('hex')))).toBe(false);
    expect(onDisk.includes(Buffer.from(key.toString('hex').toUpperCase()))).toBe(false);
    expect(onDisk.includes(Buffer.from(key.toString('base64')))).toBe(false);
    expect(safeStorage.decryptString(onDisk)).toBe(key.toString('hex'));
  });

  it('writes the file readable by the user only, with no temporary file left', async () => {
    await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'linux' });
    expect(await readdir(path.dirname(filePath))).toEqual(['cache-key.bin']);
    if (process.platform === 'win32') return;
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('refuses, and writes nothing, when encryption is unavailable', async () => {
    safeStorage.available = false;
    const attempt = loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    await expect(attempt).rejects.toBeInstanceOf(CacheKeyUnavailableError);
    await expect(attempt).rejects.toThrow(/no secure storage.*never stored in clear/);
    await expect(readFile(filePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses on Linux with the basic_text backend (a constant key is not protection)', async () => {
    safeStorage.backend = 'basic_text';
    await expect(loadOrCreateCacheKey({ safeStorage, filePath, platform: 'linux' })).rejects.toMatchObject({
      code: 'ERR_CACHE_KEY_UNAVAILABLE',
    });
    await expect(readFile(filePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('makes a new key when the stored one can no longer be decrypted, and says so', async () => {
    const first = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    safeStorage.key = 0x11; // the OS keychain was replaced
    const second = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    expect(second.created).toBe(true);
    expect(second.key.equals(first.key)).toBe(false);
    await expect(loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' })).resolves.toMatchObject({ created: false });
  });

  it('does not accept a planted or malformed key file', async () => {
    await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    await writeFile(filePath, 'a'.repeat(64));
    const planted = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    expect(planted.created).toBe(true);
    await writeFile(filePath, safeStorage.encryptString('not-a-key'));
    await expect(loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' })).resolves.toMatchObject({ created: true });
  });

  it('deleteCacheKey forgets the key, also when there is none', async () => {
    await deleteCacheKey(filePath);
    const first = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    await deleteCacheKey(filePath);
    const second = await loadOrCreateCacheKey({ safeStorage, filePath, platform: 'darwin' });
    expect(second.created).toBe(true);
    expect(second.key.equals(first.key)).toBe(false);
  });
});
