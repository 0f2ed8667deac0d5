import { describe, expect, it } from 'vitest';
import { recordId, parseRecordId, RECORD_ID_MAX } from '../schemas/record-id';
import { findUnsafeText, hasUnsafeText, sanitizeDeep } from './safe-text';

describe('safe text', () => {
  it('refuses NUL, C0 controls and lone surrogates; keeps tab, line breaks and surrogate pairs', () => {
    for (const bad of ['\u0000', 'a\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\ud800', 'x\udfff', '\udc00\ud800']) {
      expect(hasUnsafeText(bad), JSON.stringify(bad)).toBe(true);
    }
    for (const good of ['', 'Olá\tmundo\r\n', '😀', 'ção', '\u007f', '\u00a0']) expect(hasUnsafeText(good), JSON.stringify(good)).toBe(false);
  });

  it('names the path of the first unsafe string or key', () => {
    expect(findUnsafeText({ a: 'ok', b: [{ c: 'x' }, { c: 'y\u0000' }] })).toBe('b.1.c');
    expect(findUnsafeText({ ['k\u0000']: 1 })).toBe('k\\u0000');
    expect(findUnsafeText('\u0000')).toBe('(valor)');
    expect(findUnsafeText({ a: 1, b: null, c: ['ok'] })).toBeUndefined();
  });

  it('cleans provider text: controls dropped, lone surrogates replaced', () => {
    expect(sanitizeDeep({ ['a\u0000']: ['x\u0000y\u0007', '\ud800z', 'ok\n😀'] })).toEqual({ a: ['xy', '\uFFFDz', 'ok\n😀'] });
  });
});

describe('record ids', () => {
  it('are integers 1..2147483647, from numbers or digit strings', () => {
    expect(parseRecordId(1)).toBe(1);
    expect(parseRecordId(' 42 ')).toBe(42);
    expect(parseRecordId(RECORD_ID_MAX)).toBe(RECORD_ID_MAX);
    for (const bad of [0, -1, 1.5, RECORD_ID_MAX + 1, 1e20, NaN, '1e3', '0x10', '', 'abc', '1.0', true, null, [5], '9'.repeat(400)]) {
      expect(parseRecordId(bad), String(bad)).toBeUndefined();
      expect(recordId.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(recordId.parse('7')).toBe(7);
  });
});
