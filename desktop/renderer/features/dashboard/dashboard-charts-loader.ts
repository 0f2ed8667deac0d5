import { preloadable } from '../../app/lazy/preloadable';

/**
 * The dashboard's charts and their library (a chunk of their own). Start-up asks for them beside
 * the page's chunk when the app opens on /home (dashboard-prefetch.ts), so the page renders them
 * without suspending.
 */
export const dashboardCharts = preloadable(
  () => import('./charts/dashboard-charts'),
  (module) => module.DashboardCharts,
);
