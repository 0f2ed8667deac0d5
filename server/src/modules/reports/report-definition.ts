import type { ReportColumn, ReportFilters, ReportId } from '@shared/schemas/reports';
import type { TicketViewer } from '../tickets/ticket-visibility.policy';
import type { ReportRowsSql, SqlParams } from './report-sql';

/** What every report query needs to know about the call. */
export interface ReportContext {
  tenantId: number;
  /** IANA zone the report's calendar days are lived in (tenant setting, default America/Sao_Paulo). */
  timeZone: string;
  /** The caller as the ticket visibility policy sees them (ticket reports restrict rows with it). */
  viewer: TicketViewer;
}

export type ReportTotals = Record<string, number | string | null>;

/** One statement answering the number of rows and, where the report has one, its totals row. */
export interface ReportSummarySql {
  sql: string;
  read(rows: Record<string, unknown>[]): { count: number; totals?: ReportTotals };
}

/**
 * One report: its Portuguese title and columns, and its SQL. The filters were validated by the
 * shared schema (`REPORT_FILTER_SCHEMAS[id]`) before the definition sees them. Every statement
 * starts from the caller's tenant. Aggregates (totals, medians, counts by group) are computed by
 * PostgreSQL; Node only formats the rows of one page or one export batch.
 */
export interface ReportDefinition<Id extends ReportId = ReportId> {
  id: Id;
  /** Title of the screen and the exported files, e.g. 'Atendimentos por parâmetros'. */
  title: string;
  columns: ReportColumn[];
  /** The rows matching the filters, with a unique sort order (see ReportRowsSql). */
  rows(ctx: ReportContext, filters: ReportFilters<Id>, p: SqlParams): ReportRowsSql;
  /** Count and totals in one statement; without it the service counts the rows. */
  summary?(ctx: ReportContext, filters: ReportFilters<Id>, p: SqlParams): ReportSummarySql;
  /** A database row as the values of the columns (by key); may add fields that are not columns (ids). */
  present(row: Record<string, unknown>): Record<string, unknown>;
}

/** A definition for any report id (the registry's element type). */
export type AnyReportDefinition = { [Id in ReportId]: ReportDefinition<Id> }[ReportId];

/** Reads an integer or null out of a database value (counts come back as int, sums as text). */
export const toInt = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** A number rounded to `digits` decimals, or null. */
export const toRounded = (v: unknown, digits = 2): number | null => {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) return null;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** An instant from the database as ISO 8601 text, or null. */
export const toIso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v ? new Date(String(v)).toISOString() : null);
