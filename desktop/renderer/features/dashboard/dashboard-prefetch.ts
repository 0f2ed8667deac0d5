import type { AppDispatch } from '../../app/store';
import { queuesApi } from '../../api/queues.api';
import { settingsApi } from '../../api/settings.api';
import { statisticsApi, type PeriodArgs } from '../../api/statistics.api';
import { dashboardCharts } from './dashboard-charts-loader';
import { openingPeriod } from './dashboard-opening';

export { INITIAL_PRESET, openingPeriod } from './dashboard-opening';

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
