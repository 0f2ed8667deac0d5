/**
 * The web app's start-up script: a few kilobytes that run before the main script has arrived
 * (index.html loads it first). An administrator or supervisor opening on the dashboard with a
 * stored session gets the dashboard's calls sent from here, while the main script (800 KB)
 * downloads and compiles; the app takes the answers over (app/early/early-requests.ts). Issue
 * #13, start-up: the first chart under 1 s.
 *
 * Only light modules here (no React, no zod, no RTK): whatever this imports is fetched before
 * anything runs.
 */
import { STATISTICS_PATHS } from '@shared/schemas/statistics';
import { periodParams, queueParam } from './api/statistics-params';
import { currentApiBaseUrl } from './app/config/app-config';
import { startEarlyGet } from './app/early/early-requests';
import { openingRouteId } from './app/routing/opening-route';
import { appStorage } from './app/session/app-storage';
import { openingPeriod } from './features/dashboard/dashboard-opening';

/** The dashboard's chunks (named by the build in index.html): fetched and compiled, not run. */
function preloadHomeChunks(): void {
  const files = document.querySelector<HTMLMetaElement>('meta[name="home-chunks"]')?.content.split(' ').filter(Boolean) ?? [];
  for (const href of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

function boot(): void {
  const token = appStorage.readToken();
  if (!token || openingRouteId() !== 'home') return;
  preloadHomeChunks();
  const base = currentApiBaseUrl();
  // The URLs exactly as the API layer builds them (fetchBaseQuery: path, '?', the parameters).
  const get = (path: string, params: Record<string, string>) => startEarlyGet(`${base}${path}?${new URLSearchParams(params)}`, token);
  const { startDate, endDate, queuesIds } = openingPeriod(new Date(), null);
  const period = periodParams({ startDate, endDate, queuesIds });
  get(STATISTICS_PATHS.ticketsTimes, period);
  get(STATISTICS_PATHS.ticketsQueue, period);
  get(STATISTICS_PATHS.ticketsChannels, period);
  get(STATISTICS_PATHS.ticketsEvolutionByPeriod, period);
  get(STATISTICS_PATHS.ticketsHours, period);
  get(STATISTICS_PATHS.perUsersDetail, queueParam([]));
}

try {
  boot();
} catch (error) {
  // The app makes the same calls itself: a failure here only loses the head start.
  console.error(error);
}
