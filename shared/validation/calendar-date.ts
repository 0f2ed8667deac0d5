/**
 * Calendar dates typed by people (birthdays). The spec writes them dd/MM/yyyy in one place and
 * MM/DD/YYYY in another (section 5, "both readings stand"), so the caller says which order a
 * slashed date is in; the ISO form yyyy-MM-dd is unambiguous and always accepted. The answer is
 * the ISO date or null for anything that is not a real day (31/02, 2-digit years, text).
 */
export const DAY_MONTH_ORDERS = ['dd/MM/yyyy', 'MM/dd/yyyy'] as const;
export type DayMonthOrder = (typeof DAY_MONTH_ORDERS)[number];

const MIN_YEAR = 1900;
const MAX_YEAR = 2100;

export function parseCalendarDate(value: string, order: DayMonthOrder = 'dd/MM/yyyy'): string | null {
  const text = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const slashed = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (!slashed) return null;
  const [first, second, year] = [Number(slashed[1]), Number(slashed[2]), Number(slashed[3])];
  return order === 'dd/MM/yyyy' ? isoDate(year, second, first) : isoDate(year, first, second);
}

/** A Date read from a spreadsheet cell: spreadsheets store calendar days at UTC midnight. */
export function calendarDateOfUtc(date: Date): string | null {
  if (Number.isNaN(date.getTime())) return null;
  return isoDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** ISO yyyy-MM-dd to the dd/MM/yyyy the interface shows (spec section 5). */
export function formatCalendarDate(iso: string | null | undefined): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

function isoDate(year: number, month: number, day: number): string | null {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
