import type { SafeStorageLike } from './secure-token.store';

/**
 * Reversible stand-in for Electron's safeStorage (the OS keychain) in tests under plain Node:
 * XOR with a key behind a version prefix, so a file written through it is never the plain text
 * and a changed key (keychain replaced) fails to decrypt as the real one does.
 */
export class FakeSafeStorage implements SafeStorageLike {
  available = true;
  backend = 'gnome_libsecret';
  key = 0x5a;
  isEncryptionAvailable() {
    return this.available;
  }
  encryptString(plainText: string) {
    return Buffer.from([...Buffer.from(`v1:${plainText}`, 'utf8')].map((byte) => byte ^ this.key));
  }
  decryptString(encrypted: Buffer) {
    const text = Buffer.from([...encrypted].map((byte) => byte ^ this.key)).toString('utf8');
    if (!text.startsWith('v1:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return text.slice(3);
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
}
