import type { ReportExportFormat, ReportId, ReportPage } from '@shared/schemas/reports';
import type { ReportDefinition, ReportTotals } from './report-definition';

/** One page of a report as the contract answers it. */
export function presentReportPage(
  def: ReportDefinition<ReportId>,
  rows: Record<string, unknown>[],
  summary: { count: number; totals?: ReportTotals },
  pageNumber: number,
  pageSize: number,
): ReportPage {
  const page: ReportPage = {
    reportId: def.id,
    columns: def.columns,
    rows: rows.map((r) => def.present(r)),
    count: summary.count,
    pageNumber,
    pageSize,
    hasMore: (pageNumber - 1) * pageSize + rows.length < summary.count,
  };
  if (summary.totals) page.totals = summary.totals;
  return page;
}

/** dd-MM-yyyy of an ISO day (a file name cannot hold '/'). */
const fileDay = (iso: string) => iso.split('-').reverse().join('-');

/** 'Atendimentos por parâmetros 01-03-2025 a 31-03-2025.xlsx': the title and the period. */
export function reportFileName(title: string, period: { startDate: string; endDate: string }, format: ReportExportFormat): string {
  return `${title} ${fileDay(period.startDate)} a ${fileDay(period.endDate)}.${format}`;
}
