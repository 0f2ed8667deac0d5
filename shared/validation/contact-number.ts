import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';

/**
 * One canonical spelling per phone number, so the same person is one contact (the unique index
 * is on ("tenantId", number)). The canonical form is the E.164 number without the '+': country
 * code followed by the national number, digits only (5511987654321).
 *
 * Rules, in order:
 * 1. Anything but digits and the usual separators (space . - ( ) /) and one leading '+' is not a
 *    number.
 * 2. A number written with '+' or the international prefix 00 is read as international.
 * 3. Otherwise it is read as a national number of the default country (BR); if that is not a
 *    valid number, the digits are read as international with the country code included
 *    (5511987654321, 447911123456), which is how spreadsheets and WhatsApp export them.
 * 4. Brazilian mobiles always carry the 9th digit: a Brazilian number with 8 subscriber digits
 *    starting with 6-9 (mobile ranges before the 2012-2016 migration, still reported that way
 *    by WhatsApp for old accounts) gets the 9 inserted after the area code. Landlines (2-5) are
 *    left alone. So 55 11 8765-4321 and 55 11 98765-4321 are the same contact.
 * 5. The result must be a valid number for its country (full metadata), else it is rejected.
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR';

const ALLOWED = /^\+?[\d\s().\-/]+$/;

export function normalizeContactNumber(
  raw: string | number | null | undefined,
  defaultCountry: CountryCode = DEFAULT_PHONE_COUNTRY,
): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim();
  if (!text || !ALLOWED.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 17) return null;

  const international = text.startsWith('+') ? digits : digits.startsWith('00') ? digits.slice(2) : null;
  if (international !== null) return canonicalOf(parsePhoneNumberFromString(`+${international}`));
  // The international reading is tried only when the national one fails: parsing costs ~20 µs.
  return canonicalOf(parsePhoneNumberFromString(digits, defaultCountry)) ?? canonicalOf(parsePhoneNumberFromString(`+${digits}`));
}

/**
 * A number already stored (a legacy row, a channel's id): those usually carry their country
 * code, so a bare string of digits that is already a valid number in canonical form (5511987654321,
 * 34912345678) is kept as it is instead of being read as a Brazilian national number (34 is
 * also a Brazilian area code). Anything else (formatted, no country code, old 8-digit mobile)
 * is read like typed input. Canonical values are fixed points of both functions.
 */
export function normalizeStoredContactNumber(stored: string): string | null {
  const text = stored.trim();
  if (/^\d{8,17}$/.test(text) && canonicalOf(parsePhoneNumberFromString(`+${text}`)) === text) return text;
  return normalizeContactNumber(text);
}

/** True when both spellings are the same contact number. */
export const isSameContactNumber = (a: string, b: string): boolean => {
  const na = normalizeContactNumber(a);
  return na !== null && na === normalizeContactNumber(b);
};

function canonicalOf(parsed: PhoneNumber | undefined): string | null {
  if (!parsed) return null;
  if (parsed.countryCallingCode === '55') {
    const national = String(parsed.nationalNumber);
    if (national.length === 10 && /^[1-9]{2}[6-9]/.test(national)) {
      const withNine = parsePhoneNumberFromString(`+55${national.slice(0, 2)}9${national.slice(2)}`);
      if (withNine?.isValid()) return withNine.number.slice(1);
    }
  }
  return parsed.isValid() ? parsed.number.slice(1) : null;
}
