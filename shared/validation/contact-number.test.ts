import { describe, expect, it } from 'vitest';
import { isSameContactNumber, normalizeContactNumber, normalizeStoredContactNumber } from './contact-number';

describe('normalizeContactNumber', () => {
  it('writes Brazilian numbers in every usual spelling as country code + digits', () => {
    for (const spelling of [
      '(11) 98765-4321',
      '11 98765 4321',
      '+55 11 98765-4321',
      '5511987654321',
      '011987654321',
      '0055 11 98765-4321',
      '5511 9 8765 4321',
    ]) {
      expect(normalizeContactNumber(spelling), spelling).toBe('5511987654321');
    }
  });

  it('adds the 9th digit to old 8-digit Brazilian mobiles and leaves landlines alone', () => {
    expect(normalizeContactNumber('11 8765-4321')).toBe('5511987654321');
    expect(normalizeContactNumber('551187654321')).toBe('5511987654321');
    expect(normalizeContactNumber('+55 21 7654-3210')).toBe('5521976543210');
    expect(normalizeContactNumber('(11) 3456-7890')).toBe('551134567890');
    expect(isSameContactNumber('55 11 8765-4321', '+55 (11) 98765-4321')).toBe(true);
  });

  it('reads numbers with another country code', () => {
    expect(normalizeContactNumber('+44 7911 123456')).toBe('447911123456');
    expect(normalizeContactNumber('447911123456')).toBe('447911123456');
    expect(normalizeContactNumber('+1 (202) 555-0143')).toBe('12025550143');
  });

  it('accepts numbers from spreadsheet cells', () => {
    expect(normalizeContactNumber(5511987654321)).toBe('5511987654321');
  });

  it('rejects what cannot be a number', () => {
    for (const bad of [
      '',
      '   ',
      'abc',
      '11 9876x-4321',
      '12345',
      '98765-4321',
      '+0011987654321',
      '1'.repeat(18),
      null,
      undefined,
    ]) {
      expect(normalizeContactNumber(bad as string), String(bad)).toBeNull();
    }
  });
});

describe('normalizeStoredContactNumber', () => {
  it('keeps stored numbers that already carry a valid country code', () => {
    expect(normalizeStoredContactNumber('5511987654321')).toBe('5511987654321');
    // Read as typed input this would be Uberlândia (34) 91234-5678; stored, it is a Madrid number.
    expect(normalizeContactNumber('34912345678')).toBe('5534912345678');
    expect(normalizeStoredContactNumber('34912345678')).toBe('34912345678');
  });

  it('fixes stored numbers without country code, formatted, or without the 9th digit', () => {
    expect(normalizeStoredContactNumber('11987654321')).toBe('5511987654321');
    expect(normalizeStoredContactNumber('551187654321')).toBe('5511987654321');
    expect(normalizeStoredContactNumber('(11) 8765-4321')).toBe('5511987654321');
    expect(normalizeStoredContactNumber('lid:123')).toBeNull();
  });

  it('leaves every canonical value unchanged', () => {
    for (const typed of ['(11) 98765-4321', '+44 7911 123456', '+1 202 555 0143', '(11) 3456-7890', '34912345678']) {
      const canonical = normalizeContactNumber(typed)!;
      expect(normalizeStoredContactNumber(canonical), typed).toBe(canonical);
      expect(normalizeContactNumber(`+${canonical}`), typed).toBe(canonical);
    }
  });
});
