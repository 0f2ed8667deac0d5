import { NonIdealState, Spinner } from '@blueprintjs/core';
import { REPORT_IDS } from '@shared/schemas/reports';
import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';

/**
 * The screens of `/relatorios` and its seven children (route ids of the route table), for the
 * router's screen map. They load on first visit, like the contacts screen (contacts-route.tsx):
 * the table and form libraries stay out of the start-up script. Each report keys its screen by
 * id, so moving from one report to another starts a fresh form.
 */
const ReportsIndexPage = lazy(() => import('./reports-index-page').then((module) => ({ default: module.ReportsIndexPage })));
const ReportPage = lazy(() => import('./report-page').then((module) => ({ default: module.ReportPage })));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<NonIdealState icon={<Spinner size={40} />} />}>{children}</Suspense>;
}

export const REPORT_SCREENS: Record<string, () => ReactElement> = {
  relatorios: () => (
    <Loading>
      <ReportsIndexPage />
    </Loading>
  ),
  ...Object.fromEntries(
    REPORT_IDS.map((id) => [
      `relatorios/${id}`,
      () => (
        <Loading key={id}>
          <ReportPage reportId={id} />
        </Loading>
      ),
    ]),
  ),
};
