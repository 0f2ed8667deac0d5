import { rm } from 'node:fs/promises';
import { readFileIfPresent, writePrivateFile } from '../security/private-file';

/** The parts of Electron's safeStorage used here (injected, so tests run under plain Node). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store backs the encryption key. */
  getSelectedStorageBackend?(): string;
}

export interface SecureTokenStore {
  /** Encrypts and writes the token; false (and nothing written) when no secure store exists. */
  save(token: string): Promise<boolean>;
  /** The stored token, or null when none is stored or it can no longer be decrypted. */
  load(): Promise<string | null>;
  clear(): Promise<void>;
  isAvailable(): boolean;
}

export interface SecureTokenStoreOptions {
  safeStorage: SafeStorageLike;
  /** e.g. path.join(app.getPath('userData'), 'refresh-token.bin') */
  filePath: string;
  platform: NodeJS.Platform;
}

/**
 * On Linux without a keyring Electron falls back to the "basic_text" backend, whose key is a
 * constant compiled into Chromium: the file would be obfuscated, not protected. We treat that as
 * "no secure store" and keep the token in memory only (the agent signs in again next start).
 */
const INSECURE_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

/** True when safeStorage really protects what it encrypts (shared with the local cache's key). */
export function isSecureStorageAvailable(safeStorage: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend) {
    return !INSECURE_LINUX_BACKENDS.has(safeStorage.getSelectedStorageBackend());
  }
  return true;
}

export function createSecureTokenStore(options: SecureTokenStoreOptions): SecureTokenStore {
  const { safeStorage, filePath, platform } = options;

  const isAvailable = () => isSecureStorageAvailable(safeStorage, platform);

  const clear = async () => {
    await rm(filePath, { force: true });
  };

  return {
    isAvailable,
    async save(token) {
      if (!isAvailable()) {
        // A token that cannot be protected must not survive on disk from an earlier run either.
        await clear();
        return false;
      }
      await writePrivateFile(filePath, safeStorage.encryptString(token));
      return true;
    },
    async load() {
      if (!isAvailable()) return null;
      const encrypted = await readFileIfPresent(filePath);
      if (encrypted === null) return null;
      try {
        return safeStorage.decryptString(encrypted);
      } catch {
        // The OS key changed (new keychain, profile restored on another machine): the token is
        // unrecoverable, so drop it and let the agent sign in again.
        await clear();
        return null;
      }
    },
    clear,
  };
}
