import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { normalizeTaxId } from '@shared/validation/cpf-cnpj';

/**
 * How stored contact values read on screen. The server keeps numbers as digits with the
 * country code (5511987654321) and CPF/CNPJ as digits; people read them punctuated.
 */

/**
 * A stored number for reading: Brazilian numbers as "+55 (11) 98765-4321", others in their
 * international format ("+44 7911 123456"). Anything unparseable (a legacy row, a group id) is
 * shown as stored.
 */
export function formatContactNumber(stored: string | null | undefined): string {
  if (!stored) return '';
  const digits = stored.replace(/\D/g, '');
  const parsed = digits ? parsePhoneNumberFromString(`+${digits}`) : undefined;
  if (!parsed?.isValid()) return stored;
  if (parsed.countryCallingCode === '55') return `+55 ${parsed.formatNational()}`;
  return parsed.formatInternational();
}

/**
 * The stored number as the edit form shows it: always with its "+" and country code, so saving
 * the form unchanged reads it back as the same number (a bare 34912345678 would otherwise be
 * read as a Brazilian number of area code 34).
 */
export function contactNumberToInput(stored: string | null | undefined): string {
  if (!stored) return '';
  const formatted = formatContactNumber(stored);
  return formatted.startsWith('+') ? formatted : stored;
}

/** CPF as 000.000.000-00 and CNPJ as 00.000.000/0000-00; other lengths as typed. */
export function formatTaxId(value: string | null | undefined): string {
  if (!value) return '';
  const digits = normalizeTaxId(value);
  if (digits?.length === 11) return digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  if (digits?.length === 14) return digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  return value;
}

/** Up to two initials for the avatar when the contact has no picture. */
export function contactInitials(name: string): string {
  const all = name.trim().split(/\s+/);
  // Words with letters first ("Lote 00003" is "L", not "L0"); digits only when nothing else.
  const lettered = all.filter((word) => /\p{L}/u.test(word));
  const words = lettered.length > 0 ? lettered : all.filter((word) => /\p{N}/u.test(word));
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]][0] ?? '') : '';
  return (first + last).toUpperCase();
}
