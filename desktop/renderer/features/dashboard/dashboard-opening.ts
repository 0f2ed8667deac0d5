import type { PeriodArgs } from '../../api/statistics-params';
import { isoDay, presetPeriod, usableTimeZone, type PeriodPreset } from './dashboard-period';

/** The period the dashboard opens with. */
export const INITIAL_PRESET: PeriodPreset = 'today';

/**
 * The queries' arguments of the dashboard as it first renders: today (in the tenant's zone once
 * the settings are known, the default zone before), every queue. The page, the app's start-up
 * prefetch and the start-up script (boot.ts) all use this, so the early answers are the ones the
 * page asks for.
 */
export function openingPeriod(now: Date, timeZoneSetting: string | null | undefined): PeriodArgs & { typedStart: string; typedEnd: string } {
  const typed = presetPeriod(INITIAL_PRESET, now, usableTimeZone(timeZoneSetting))!;
  return { startDate: isoDay(typed.startDate)!, endDate: isoDay(typed.endDate)!, queuesIds: [], typedStart: typed.startDate, typedEnd: typed.endDate };
}
