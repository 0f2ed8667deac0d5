import { REPORT_IDS } from '@shared/schemas/reports';
import type { ReactElement } from 'react';
import { ReportPage } from './report-page';
import { ReportsIndexPage } from './reports-index-page';

/**
 * The screens of `/relatorios` and its seven children (route ids of the route table), for the
 * router's screen map. Each report keys its screen by id, so moving from one report to another
 * starts a fresh form.
 *
 * Not split into their own chunk here: splitting them with React.lazy moved zod into a shared
 * chunk that runs before main.tsx's `z.config({ jitless: true })`, and zod's eval probe then
 * raised a CSP violation (tests/e2e/csp.spec.ts). The route-level splitting of issue #13 has to
 * keep that configuration ahead of every zod parse.
 */
export const REPORT_SCREENS: Record<string, () => ReactElement> = {
  relatorios: () => <ReportsIndexPage />,
  ...Object.fromEntries(REPORT_IDS.map((id) => [`relatorios/${id}`, () => <ReportPage key={id} reportId={id} />])),
};
