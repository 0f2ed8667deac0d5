import { describe, expect, it } from 'vitest';
import { validateSignup, type SignupInput } from './signup';

const valid: SignupInput = {
  name: 'Maria Souza',
  taxId: '529.982.247-25',
  email: 'maria@example.com',
  phone: '(11) 98765-4321',
  password: 'segura#2024',
  planId: 1,
};

describe('validateSignup', () => {
  it('accepts a complete, valid form (CPF or CNPJ with punctuation)', () => {
    expect(validateSignup(valid).ok).toBe(true);
    expect(validateSignup({ ...valid, taxId: '11.222.333/0001-81' }).ok).toBe(true);
  });
  it('lists every empty field', () => {
    const result = validateSignup({ ...valid, name: '  ', planId: null });
    expect(result.ok).toBe(false);
    expect(result.missing).toEqual(['name', 'planId']);
  });
  it('flags each invalid field', () => {
    const result = validateSignup({ ...valid, taxId: '529.982.247-24', email: 'maria@', phone: '1234', password: 'abc' });
    expect(result.errors).toEqual({
      taxId: 'invalidTaxId',
      email: 'invalidEmail',
      phone: 'invalidPhone',
      password: 'weakPassword',
    });
  });
});
