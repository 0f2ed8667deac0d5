import type { AppDispatch } from '../../app/store';
import { queuesApi } from '../../api/queues.api';
import { settingsApi } from '../../api/settings.api';
import { statisticsApi, type PeriodArgs } from '../../api/statistics.api';
import { dashboardCharts } from './dashboard-charts-loader';
import { isoDay, presetPeriod, usableTimeZone, type PeriodPreset } from './dashboard-period';

/** The period the dashboard opens with. */
export const INITIAL_PRESET: PeriodPreset = 'today';

/**
 * The queries' arguments of the dashboard as it first renders: today (in the tenant's zone once
 * the settings are known, the default zone before), every queue. The page and the start-up
 * prefetch both use this, so the prefetched answers are the ones the page asks for.
 */
export function openingPeriod(now: Date, timeZoneSetting: string | null | undefined): PeriodArgs & { typedStart: string; typedEnd: string } {
  const typed = presetPeriod(INITIAL_PRESET, now, usableTimeZone(timeZoneSetting))!;
  return { startDate: isoDay(typed.startDate)!, endDate: isoDay(typed.endDate)!, queuesIds: [], typedStart: typed.startDate, typedEnd: typed.endDate };
}

/**
 * Issue #13, start-up: when the app opens on /home, the dashboard's calls leave with the app's
 * own start (beside the page's chunk and the translations) instead of after the page's first
 * render, so the first chart waits for one round trip less.
 */
export function prefetchDashboard(dispatch: AppDispatch, now = new Date()): void {
  void dashboardCharts.preload().catch(() => undefined);
  const { startDate, endDate, queuesIds } = openingPeriod(now, null);
  const period: PeriodArgs = { startDate, endDate, queuesIds };
  dispatch(statisticsApi.util.prefetch('ticketsTimes', period, {}));
  dispatch(statisticsApi.util.prefetch('ticketsByQueue', period, {}));
  dispatch(statisticsApi.util.prefetch('ticketsByChannel', period, {}));
  dispatch(statisticsApi.util.prefetch('ticketsEvolution', period, {}));
  dispatch(statisticsApi.util.prefetch('ticketsByHour', period, {}));
  dispatch(statisticsApi.util.prefetch('agentsNow', { queuesIds: [] }, {}));
  dispatch(settingsApi.util.prefetch('listSettings', undefined, {}));
  dispatch(queuesApi.util.prefetch('listQueues', undefined, {}));
}
