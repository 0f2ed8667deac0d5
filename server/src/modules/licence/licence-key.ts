import { createHash, randomBytes } from 'node:crypto';

/**
 * Licence keys: five groups of five base32 characters (XXXXX-XXXXX-XXXXX-XXXXX-XXXXX). The last
 * group is a checksum of the e-mail and the first four groups, so a key typed with a mistake,
 * or meant for another e-mail, is refused locally; nothing is sent anywhere to check it.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer, length: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= length) break;
  }
  return out;
}

function checksum(email: string, body: string): string {
  return base32(createHash('sha256').update(`${email.trim().toLowerCase()}|${body}`).digest(), 5);
}

/** Whether `key` (already in the XXXXX-... format, upper case) is a key for `email`. */
export function isLicenceKeyFor(email: string, key: string): boolean {
  const groups = key.split('-');
  if (groups.length !== 5) return false;
  return checksum(email, groups.slice(0, 4).join('-')) === groups[4];
}

/** Issues a key for `email` (the vendor's side; used by tests and support tooling). */
export function issueLicenceKey(email: string, seed: Buffer = randomBytes(16)): string {
  const body = base32(seed, 20).match(/.{5}/g)!.join('-');
  return `${body}-${checksum(email, body)}`;
}
