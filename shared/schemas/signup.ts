import { isValidCpfOrCnpj } from '../validation/cpf-cnpj';
import { isValidEmail, isValidMobilePhone } from '../validation/contact-fields';
import { isStrongPassword } from '../validation/password-policy';

/** Self sign-up form (spec section 3 "Sign-up" and section 5), checked the same way on both sides. */
export interface SignupInput {
  name: string;
  taxId: string;
  email: string;
  phone: string;
  password: string;
  planId: number | null;
}

export type SignupField = keyof SignupInput;
export type SignupFailure = 'required' | 'invalidTaxId' | 'invalidEmail' | 'invalidPhone' | 'weakPassword';

export interface SignupValidation {
  ok: boolean;
  /** 'required' when any field is empty: the form then shows one message for all of them. */
  missing: SignupField[];
  errors: Partial<Record<SignupField, SignupFailure>>;
}

const FIELDS: SignupField[] = ['name', 'taxId', 'email', 'phone', 'password', 'planId'];

export function validateSignup(input: SignupInput): SignupValidation {
  const missing = FIELDS.filter((field) => {
    const value = input[field];
    return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  });
  const errors: SignupValidation['errors'] = {};
  for (const field of missing) errors[field] = 'required';
  if (!missing.includes('taxId') && !isValidCpfOrCnpj(input.taxId)) errors.taxId = 'invalidTaxId';
  if (!missing.includes('email') && !isValidEmail(input.email)) errors.email = 'invalidEmail';
  if (!missing.includes('phone') && !isValidMobilePhone(input.phone)) errors.phone = 'invalidPhone';
  if (!missing.includes('password') && !isStrongPassword(input.password)) errors.password = 'weakPassword';
  return { ok: Object.keys(errors).length === 0, missing, errors };
}
