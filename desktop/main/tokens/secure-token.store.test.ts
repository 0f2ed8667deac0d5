import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSafeStorage } from './safe-storage.test-support';
import { createSecureTokenStore } from './secure-token.store';

let dir: string;
let filePath: string;
let safeStorage: FakeSafeStorage;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'token-store-'));
  filePath = path.join(dir, 'userData', 'refresh-token.bin');
  safeStorage = new FakeSafeStorage();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createSecureTokenStore', () => {
  it('round-trips the token through an encrypted file', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'darwin' });
    await expect(store.load()).resolves.toBeNull();
    await expect(store.save('refresh.jwt.token')).resolves.toBe(true);
    const onDisk = await readFile(filePath);
    expect(onDisk.toString('utf8')).not.toContain('refresh.jwt.token');
    await expect(store.load()).resolves.toBe('refresh.jwt.token');
  });

  it('writes the file readable by the user only', async () => {
    if (process.platform === 'win32') return;
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'linux' });
    await store.save('t');
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('replaces the previous token and leaves no temporary file', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'win32' });
    await store.save('first');
    await store.save('second');
    await expect(store.load()).resolves.toBe('second');
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(path.dirname(filePath))).toEqual(['refresh-token.bin']);
  });

  it('clears the token, also when none exists', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'darwin' });
    await store.clear();
    await store.save('t');
    await store.clear();
    await expect(store.load()).resolves.toBeNull();
  });

  it('never writes in clear when encryption is unavailable, and removes an old file', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'win32' });
    await store.save('old');
    safeStorage.available = false;
    await expect(store.save('new')).resolves.toBe(false);
    await expect(readFile(filePath)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.load()).resolves.toBeNull();
    expect(store.isAvailable()).toBe(false);
  });

  it('treats Linux basic_text (constant key) as no secure store', async () => {
    safeStorage.backend = 'basic_text';
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'linux' });
    expect(store.isAvailable()).toBe(false);
    await expect(store.save('t')).resolves.toBe(false);
    safeStorage.backend = 'kwallet5';
    expect(store.isAvailable()).toBe(true);
  });

  it('drops a token that can no longer be decrypted (keychain changed)', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'darwin' });
    await store.save('t');
    safeStorage.key = 0x11;
    await expect(store.load()).resolves.toBeNull();
    await expect(readFile(filePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('does not treat a plain-text file planted in userData as a token', async () => {
    const store = createSecureTokenStore({ safeStorage, filePath, platform: 'darwin' });
    await store.save('x');
    await writeFile(filePath, 'planted-token');
    await expect(store.load()).resolves.toBeNull();
  });
});
