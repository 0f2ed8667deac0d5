import { TZDate } from '@date-fns/tz';
import { format, startOfMonth, subDays } from 'date-fns';
import { parseCalendarDay } from '@shared/schemas/calendar-day';

/**
 * The dashboard's period (issue #13): a preset or a custom pair of days typed dd/MM/yyyy (spec
 * section 5). "Today" is the tenant's today: days are counted in the tenant's time zone, as the
 * server buckets them, so at 23:30 in São Paulo "today" is still that day whatever the browser's
 * zone says.
 */

export const PERIOD_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** Until the tenant's setting says otherwise (the server's default too). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
export const DAY_FORMAT = 'dd/MM/yyyy';

export interface TypedPeriod {
  /** dd/MM/yyyy, as the fields show them */
  startDate: string;
  endDate: string;
}

const checkedZones = new Map<string, string>();

/**
 * A time zone the browser knows, else the default (a bad setting must not break the screen).
 * Remembered per name: building the formatter that checks it costs 20-30 ms (issue #13, start-up).
 */
export function usableTimeZone(zone: string | null | undefined): string {
  if (!zone) return DEFAULT_TIME_ZONE;
  let usable = checkedZones.get(zone);
  if (usable === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      usable = zone;
    } catch {
      usable = DEFAULT_TIME_ZONE;
    }
    checkedZones.set(zone, usable);
  }
  return usable;
}

/** The days of a preset at instant `now`, in `timeZone`; null for 'custom' (the fields decide). */
export function presetPeriod(preset: PeriodPreset, now: Date, timeZone: string): TypedPeriod | null {
  const today = new TZDate(now.getTime(), usableTimeZone(timeZone));
  const day = (date: Date) => format(date, DAY_FORMAT);
  switch (preset) {
    case 'today':
      return { startDate: day(today), endDate: day(today) };
    case '7d':
      return { startDate: day(subDays(today, 6)), endDate: day(today) };
    case '30d':
      return { startDate: day(subDays(today, 29)), endDate: day(today) };
    case 'month':
      return { startDate: day(startOfMonth(today)), endDate: day(today) };
    case 'custom':
      return null;
  }
}

/** yyyy-MM-dd -> dd/MM/yyyy (a day the server names, shown the Brazilian way). */
export function brazilianDay(isoDay: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDay);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : isoDay;
}

/** dd/MM/yyyy (or yyyy-MM-dd) -> yyyy-MM-dd, null when it is not a real day. */
export const isoDay = (typed: string): string | null => parseCalendarDay(typed);

/**
 * What a date field shows after a keystroke: digits only, with the slashes put in after the day
 * and the month (a pasted 2026-01-31 is turned around).
 */
export function maskDayInput(raw: string): string {
  const iso = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/.exec(raw);
  if (iso) return `${iso[3]}/${iso[2]}/${iso[1]}`;
  const digits = raw.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/** The preset whose days these are at `now` (a custom pair that happens to be "7 days" reads as such). */
export function presetOf(period: TypedPeriod, now: Date, timeZone: string): PeriodPreset {
  for (const preset of PERIOD_PRESETS) {
    const days = presetPeriod(preset, now, timeZone);
    if (days && days.startDate === period.startDate && days.endDate === period.endDate) return preset;
  }
  return 'custom';
}
