import { formatCalendarDate, parseCalendarDate } from '@shared/validation/calendar-date';

/**
 * Birthday entry in the Portuguese order dd/mm/aaaa (spec section 5). People type the digits
 * and the slashes appear by themselves, or type their own separators (1/2/1990, 01.02.1990);
 * the field keeps what they typed readable and the form sends the ISO date.
 */

const SEPARATOR = /[/.\-\s]+/;
/** Digits each part holds: day, month, year. */
const PART_SIZES = [2, 2, 4] as const;

/**
 * What the field shows after a keystroke. Only digits and separators are kept. Without typed
 * separators a slash goes in after the day and after the month; a typed separator closes the
 * part even when it is short (1/2/1990), and digits beyond a part's size move on to the next
 * part. A separator just typed stays, so "25/" waits for the month.
 */
export function maskBirthdayInput(raw: string): string {
  const text = raw.replace(/[^\d/.\-\s]/g, '');
  const pieces = text.split(SEPARATOR);
  const parts = ['', '', ''];
  let index = 0;
  pieces.forEach((piece, pieceIndex) => {
    if (pieceIndex > 0 && parts[index] !== '' && index < 2) index += 1;
    for (const digit of piece.replace(/\D/g, '')) {
      if (parts[index].length === PART_SIZES[index]) {
        if (index === 2) return;
        index += 1;
      }
      parts[index] += digit;
    }
  });
  const masked = parts.filter((part) => part !== '').join('/');
  const separatorJustTyped = SEPARATOR.test(text.slice(-1)) && index > 0 && parts[index] === '';
  return separatorJustTyped ? `${masked}/` : masked;
}

export type BirthdayReading = { kind: 'empty' } | { kind: 'date'; iso: string } | { kind: 'invalid' };

/** The typed text as a date: empty, a real day (ISO), or invalid (31/02, two-digit years, text). */
export function readBirthday(text: string): BirthdayReading {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const iso = parseCalendarDate(trimmed, 'dd/MM/yyyy');
  return iso ? { kind: 'date', iso } : { kind: 'invalid' };
}

/** The stored ISO date as the field shows it (dd/mm/aaaa); '' for none. */
export const birthdayToInput = (iso: string | null | undefined): string => formatCalendarDate(iso);
