import { describe, expect, it } from 'vitest';
import { pageCount, passwordChecklist, validateUser, type UserDraft } from './user-form.logic';

const draft = (change: Partial<UserDraft>): UserDraft => ({
  name: 'Maria Souza',
  email: 'maria@empresa.com.br',
  password: 'Senha-forte1',
  profile: 'user',
  ...change,
});

describe('validateUser', () => {
  it('accepts a complete new user', () => {
    expect(validateUser(draft({}), 'create')).toEqual({});
  });

  it('needs a name, a valid e-mail and a password when creating', () => {
    expect(validateUser(draft({ name: ' ', email: '', password: '' }), 'create')).toEqual({
      name: 'required',
      email: 'required',
      password: 'required',
    });
    expect(validateUser(draft({ email: 'maria@' }), 'create')).toEqual({ email: 'invalidEmail' });
    expect(validateUser(draft({ name: 'x'.repeat(121) }), 'create')).toEqual({ name: 'tooLong' });
  });

  it('applies the password policy (7+ characters, letters, numbers, a special one)', () => {
    expect(validateUser(draft({ password: 'abc12!' }), 'create')).toEqual({ password: 'weakPassword' });
    expect(validateUser(draft({ password: 'abcdefg1' }), 'create')).toEqual({ password: 'weakPassword' });
    expect(validateUser(draft({ password: 'abcdef!1' }), 'create')).toEqual({});
  });

  it('keeps the password when editing with the field empty', () => {
    expect(validateUser(draft({ password: '' }), 'edit')).toEqual({});
    expect(validateUser(draft({ password: 'curta' }), 'edit')).toEqual({ password: 'weakPassword' });
  });

  it('offers only the tenant profiles, but keeps an existing superadmin as is', () => {
    expect(validateUser(draft({ profile: 'superadmin' }), 'create')).toEqual({ profile: 'invalidProfile' });
    expect(validateUser(draft({ profile: 'superadmin' }), 'edit')).toEqual({});
    expect(validateUser(draft({ profile: 'owner' }), 'edit')).toEqual({ profile: 'invalidProfile' });
  });
});

describe('passwordChecklist', () => {
  it('ticks the rules the password meets', () => {
    expect(passwordChecklist('abc1')).toEqual([
      { rule: 'tooShort', met: false },
      { rule: 'missingLetter', met: true },
      { rule: 'missingNumber', met: true },
      { rule: 'missingSpecial', met: false },
    ]);
    expect(passwordChecklist('abcdef!1').every((item) => item.met)).toBe(true);
  });
});

describe('pageCount', () => {
  it('is at least one page', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
