import { describe, expect, it } from 'vitest';
import { isValidEmail, isValidMobilePhone, phoneDigits } from './contact-fields';

describe('isValidEmail', () => {
  it('accepts trimmed addresses', () => {
    expect(isValidEmail('  agent@demo.example.com ')).toBe(true);
  });
  it('rejects incomplete addresses', () => {
    for (const bad of ['', 'agent', 'agent@', '@demo.com', 'agent@demo', 'a b@demo.com', 'agent@demo.c']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
});

describe('isValidMobilePhone', () => {
  it('accepts Brazilian mobiles in the usual spellings', () => {
    expect(isValidMobilePhone('(11) 98765-4321')).toBe(true);
    expect(isValidMobilePhone('+55 11 98765-4321')).toBe(true);
    expect(isValidMobilePhone('5511987654321')).toBe(true);
  });
  it('rejects Brazilian landlines and short numbers', () => {
    expect(isValidMobilePhone('(11) 3456-7890')).toBe(false);
    expect(isValidMobilePhone('551134567890')).toBe(false);
    expect(isValidMobilePhone('98765-4321')).toBe(false);
  });
  it('accepts other international numbers up to 15 digits', () => {
    expect(isValidMobilePhone('+44 7911 123456')).toBe(true);
    expect(isValidMobilePhone('+1234567890123456')).toBe(false);
  });
  it('rejects letters', () => {
    expect(phoneDigits('11 9abc')).toBeNull();
    expect(isValidMobilePhone('11 98765-43ab')).toBe(false);
  });
});
