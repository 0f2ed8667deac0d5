import { describe, expect, it } from 'vitest';
import { isStrongPassword, passwordPolicyFailures } from './password-policy';

describe('password policy', () => {
  it('accepts 7+ characters with a letter, a number and a special character', () => {
    expect(isStrongPassword('abc123!')).toBe(true);
    expect(isStrongPassword('Senha_forte9')).toBe(true);
    expect(isStrongPassword('ção@2024')).toBe(true);
  });
  it('names every missing part', () => {
    expect(passwordPolicyFailures('ab1!')).toEqual(['tooShort']);
    expect(passwordPolicyFailures('1234567!')).toEqual(['missingLetter']);
    expect(passwordPolicyFailures('abcdefg!')).toEqual(['missingNumber']);
    expect(passwordPolicyFailures('abc1234')).toEqual(['missingSpecial']);
    expect(passwordPolicyFailures('abc 123')).toEqual(['missingSpecial']);
    expect(passwordPolicyFailures(`a1!${'x'.repeat(70)}`)).toEqual(['tooLong']);
    expect(passwordPolicyFailures('')).toEqual(['tooShort', 'missingLetter', 'missingNumber', 'missingSpecial']);
  });
});
