import type { BrandingImageType } from '@shared/schemas/white-label';

/**
 * The image type of an upload, from its first bytes (never the declared type or the file name,
 * which the sender chooses: an .exe renamed .png is still an .exe). Null: not an accepted image.
 * SVG is never accepted (it is text that can carry script).
 */
export function detectBrandingImageType(bytes: Uint8Array): BrandingImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 4 && starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 12 && starts(0x52, 0x49, 0x46, 0x46) && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  // ICO: reserved 0, type 1, and at least one image in the directory.
  if (bytes.length >= 22 && starts(0x00, 0x00, 0x01, 0x00) && (bytes[4] | (bytes[5] << 8)) > 0) return 'image/x-icon';
  return null;
}

const ascii = (bytes: Uint8Array, from: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(from, from + length));
