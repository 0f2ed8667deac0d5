/**
 * E-mail and mobile-phone checks shared by the login, sign-up and contact forms. They are
 * deliberately permissive about formatting (users paste numbers with spaces, dashes and
 * parentheses) and strict about what cannot work.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The login e-mail is trimmed before it is checked and sent (spec section 5). */
export const isValidEmail = (value: string): boolean => EMAIL.test(value.trim());

/** Digits of a phone number, accepting a leading + and the usual visual separators. */
export function phoneDigits(value: string): string | null {
  const stripped = value.trim().replace(/[\s().-]/g, '');
  const match = /^\+?(\d+)$/.exec(stripped);
  return match ? match[1] : null;
}

/**
 * A mobile number: 10 to 15 digits (E.164 allows at most 15). Brazilian numbers, with or without
 * the 55 country code, are mobiles only when the subscriber part has 9 digits starting with 9.
 */
export function isValidMobilePhone(value: string): boolean {
  const digits = phoneDigits(value);
  if (!digits || digits.length < 10 || digits.length > 15) return false;
  const national = digits.length === 12 || digits.length === 13 ? (digits.startsWith('55') ? digits.slice(2) : null) : digits;
  if (national !== null && (national.length === 10 || national.length === 11)) {
    // DDD (2 digits, no leading 0) + subscriber; a 10-digit national number is a landline.
    return /^[1-9]\d9\d{8}$/.test(national);
  }
  return true;
}
