import {
  BUSINESS_HOURS_MESSAGE_MAX,
  DEFAULT_BUSINESS_HOURS,
  TIME_OF_DAY_PATTERN,
  type BusinessHoursDay,
} from '@shared/schemas/tenant-settings';

/**
 * The business-hours form's rules, per field, so each wrong hour is marked where it is: the same
 * rules as BusinessHoursDaySchema (shared/schemas/tenant-settings.ts), which the server applies.
 * Type O (open all day) and C (closed) ignore the hours; H opens hr1-hr2 and hr3-hr4.
 */
export const HOUR_FIELDS = ['hr1', 'hr2', 'hr3', 'hr4'] as const;
export type HourField = (typeof HOUR_FIELDS)[number];

export type HourFailure = 'invalidTime' | 'endBeforeStart' | 'secondBeforeFirst';

export type WeekFailures = Record<number, Partial<Record<HourField, HourFailure>>>;

export function validateDay(day: BusinessHoursDay): Partial<Record<HourField, HourFailure>> {
  if (day.type !== 'H') return {};
  const failures: Partial<Record<HourField, HourFailure>> = {};
  for (const field of HOUR_FIELDS) if (!TIME_OF_DAY_PATTERN.test(day[field])) failures[field] = 'invalidTime';
  // "HH:mm" compares in time order as text.
  if (!failures.hr1 && !failures.hr2 && day.hr1 >= day.hr2) failures.hr2 = 'endBeforeStart';
  if (!failures.hr2 && !failures.hr3 && day.hr2 > day.hr3) failures.hr3 = 'secondBeforeFirst';
  if (!failures.hr3 && !failures.hr4 && day.hr3 >= day.hr4) failures.hr4 = 'endBeforeStart';
  return failures;
}

/** Failures by weekday; an empty object when the week can be saved. */
export function validateWeek(days: readonly BusinessHoursDay[]): WeekFailures {
  const failures: WeekFailures = {};
  for (const day of days) {
    const dayFailures = validateDay(day);
    if (Object.keys(dayFailures).length > 0) failures[day.day] = dayFailures;
  }
  return failures;
}

/**
 * The PUT body: every day once, sorted. The server checks the hours of every day, so a day that
 * is open or closed all day but had its (hidden) hours cleared gets the default hours back.
 */
export function toRequestDays(days: readonly BusinessHoursDay[]): BusinessHoursDay[] {
  return [...days]
    .sort((a, b) => a.day - b.day)
    .map((day) => {
      if (day.type === 'H') return { ...day };
      const fallback = DEFAULT_BUSINESS_HOURS[day.day];
      const hours = Object.fromEntries(
        HOUR_FIELDS.map((field) => [field, TIME_OF_DAY_PATTERN.test(day[field]) ? day[field] : fallback[field]]),
      ) as Pick<BusinessHoursDay, HourField>;
      return { ...day, ...hours };
    });
}

export function validateAbsenceMessage(message: string): 'tooLong' | null {
  return message.trim().length > BUSINESS_HOURS_MESSAGE_MAX ? 'tooLong' : null;
}
