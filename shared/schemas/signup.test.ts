import { describe, expect, it } from 'vitest';
import { SIGNUP_FILL_ALL_FIELDS, signupSchema } from './signup';

const valid = {
  name: 'Maria Souza',
  taxId: '529.982.247-25',
  email: 'Maria@Example.com ',
  phone: '(11) 98765-4321',
  password: 'segura#2024',
  planId: 1,
};

const messages = (input: unknown) => {
  const result = signupSchema.safeParse(input);
  if (result.success) return {};
  // The first message of each field (a weak password can fail several rules).
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
};

describe('signupSchema (form and POST /empresa/signup)', () => {
  it('accepts a complete, valid form (CPF or CNPJ with punctuation) and keeps digits only', () => {
    expect(signupSchema.parse(valid)).toMatchObject({ taxId: '52998224725', email: 'maria@example.com', phone: '11987654321' });
    expect(signupSchema.parse({ ...valid, taxId: '11.222.333/0001-81' }).taxId).toBe('11222333000181');
  });
  it('gives one message, "Preencha todos os campos!", to every empty field', () => {
    expect(messages({ ...valid, name: '  ', taxId: '', phone: ' ', planId: null })).toEqual({
      name: SIGNUP_FILL_ALL_FIELDS,
      taxId: SIGNUP_FILL_ALL_FIELDS,
      phone: SIGNUP_FILL_ALL_FIELDS,
      planId: SIGNUP_FILL_ALL_FIELDS,
    });
  });
  it('flags each invalid field', () => {
    expect(messages({ ...valid, taxId: '529.982.247-24', email: 'maria@', phone: '1234', password: 'abc' })).toEqual({
      taxId: 'CPF/CNPJ inválido',
      email: 'E-mail inválido',
      phone: 'Celular inválido',
      password: 'A senha deve ter no mínimo 7 caracteres',
    });
  });
});
