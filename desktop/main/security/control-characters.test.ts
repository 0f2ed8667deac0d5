import { describe, expect, it } from 'vitest';
import { hasControlCharacters } from './control-characters';

describe('hasControlCharacters', () => {
  it('accepts ordinary text, accents and emoji', () => {
    expect(hasControlCharacters('Olá, João! 👋 Ticket #42')).toBe(false);
  });

  it('finds NUL, escape, bell and DEL', () => {
    for (const code of [0x00, 0x07, 0x1b, 0x7f]) expect(hasControlCharacters(`a${String.fromCharCode(code)}b`)).toBe(true);
  });

  it('allows tab and line breaks only when asked to', () => {
    expect(hasControlCharacters('line 1\nline 2\r\n\tend')).toBe(false);
    expect(hasControlCharacters('line 1\nline 2', false)).toBe(true);
  });
});
