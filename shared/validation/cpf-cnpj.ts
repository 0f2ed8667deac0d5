/**
 * Brazilian taxpayer ids (spec section 5, sign-up and contacts). Users type them with or without
 * the usual punctuation (123.456.789-09, 12.345.678/0001-95), so every check strips dots,
 * dashes, slashes and spaces first and then verifies the check digits.
 */

const SEPARATORS = /[\s./-]/g;

/** Digits only, or null when anything other than digits and the usual separators was typed. */
export function normalizeTaxId(value: string): string | null {
  const stripped = value.trim().replace(SEPARATORS, '');
  return /^\d+$/.test(stripped) ? stripped : null;
}

/** Every digit equal (000.000.000-00, 11.111.111/1111-11) passes the arithmetic but is never issued. */
const allSameDigit = (digits: string): boolean => /^(\d)\1*$/.test(digits);

function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(value: string): boolean {
  const digits = normalizeTaxId(value);
  if (!digits || digits.length !== 11 || allSameDigit(digits)) return false;
  const first = checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(digits[9]) && second === Number(digits[10]);
}

export function isValidCnpj(value: string): boolean {
  const digits = normalizeTaxId(value);
  if (!digits || digits.length !== 14 || allSameDigit(digits)) return false;
  const first = checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(digits[12]) && second === Number(digits[13]);
}

/** A CPF (11 digits) or a CNPJ (14 digits), decided by the number of digits. */
export function isValidCpfOrCnpj(value: string): boolean {
  const digits = normalizeTaxId(value);
  if (!digits) return false;
  if (digits.length === 11) return isValidCpf(digits);
  if (digits.length === 14) return isValidCnpj(digits);
  return false;
}
