import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { readFileIfPresent, writePrivateFile } from '../security/private-file';
import { isSecureStorageAvailable, type SafeStorageLike } from '../tokens/secure-token.store';

/** SQLCipher's raw key size (AES-256): used as is, so opening the cache runs no key derivation. */
export const CACHE_KEY_BYTES = 32;

const KEY_TEXT = /^[0-9a-f]{64}$/;

/**
 * The OS gives no real secret store (no keychain, or Linux's basic_text fallback whose key is a
 * constant in Chromium). A cache key kept there would be readable by anyone who copies the
 * profile, so the desktop runs without a local cache instead.
 */
export class CacheKeyUnavailableError extends Error {
  readonly code = 'ERR_CACHE_KEY_UNAVAILABLE';
  constructor() {
    super(
      'The local cache is disabled: this system offers no secure storage (safeStorage) to protect its encryption key, ' +
        'and the key is never stored in clear.',
    );
    this.name = 'CacheKeyUnavailableError';
  }
}

export interface CacheKeyOptions {
  safeStorage: SafeStorageLike;
  /** e.g. path.join(app.getPath('userData'), 'cache', 'cache-key.bin') */
  filePath: string;
  platform: NodeJS.Platform;
  /** Injected in tests; crypto.randomBytes otherwise. */
  randomBytes?: (size: number) => Buffer;
}

export interface CacheKey {
  key: Buffer;
  /**
   * True when this call made a new key: cache files written before (if any) were encrypted with
   * a key that is gone and must be wiped, not opened.
   */
  created: boolean;
}

/**
 * The cache's 32-byte key, made once per install and kept only as safeStorage ciphertext.
 * Throws CacheKeyUnavailableError when safeStorage cannot protect it.
 */
export async function loadOrCreateCacheKey(options: CacheKeyOptions): Promise<CacheKey> {
  const { safeStorage, filePath, platform } = options;
  if (!isSecureStorageAvailable(safeStorage, platform)) throw new CacheKeyUnavailableError();

  const existing = await readKey(safeStorage, filePath);
  if (existing) return { key: existing, created: false };

  // No key, or one the OS can no longer decrypt (keychain replaced, profile copied to another
  // machine): the cache it protected is unreadable anyway and the server holds the truth, so a
  // fresh key and a re-sync cost less than keeping the agent out.
  const key = (options.randomBytes ?? cryptoRandomBytes)(CACHE_KEY_BYTES);
  if (key.length !== CACHE_KEY_BYTES) throw new Error(`cache key must be ${CACHE_KEY_BYTES} bytes`);
  await writePrivateFile(filePath, safeStorage.encryptString(key.toString('hex')), 0o700);
  return { key, created: true };
}

/** Forgets the key (with the cache files, when the user resets the app). */
export async function deleteCacheKey(filePath: string): Promise<void> {
  await rm(filePath, { force: true });
}

async function readKey(safeStorage: SafeStorageLike, filePath: string): Promise<Buffer | null> {
  const encrypted = await readFileIfPresent(filePath);
  if (encrypted === null) return null;
  let text: string;
  try {
    text = safeStorage.decryptString(encrypted);
  } catch {
    return null;
  }
  return KEY_TEXT.test(text) ? Buffer.from(text, 'hex') : null;
}
