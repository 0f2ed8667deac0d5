import type { Readable } from 'node:stream';
import type { ReportExportFormat, ReportId, ReportPage } from '@shared/schemas/reports';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { SettingsService } from '../settings/settings.service';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import { WallClock } from './report-cells';
import type { ReportContext, ReportDefinition, ReportTotals } from './report-definition';
import { describeFilters } from './report-filters.presenter';
import { REPORTS } from './report-registry';
import { SqlParams, batchStatement, countStatement, keysOf, pageStatement, reportTimeZone } from './report-sql';
import { REPORT_WRITERS } from './report-writers';
import { authorizeReports } from './reports.policy';
import { presentReportPage, reportFileName } from './reports.presenter';

/** Rows read per statement while a file is written. */
export const EXPORT_BATCH_SIZE = 1000;
/** Exports one user may have running at once in this process (a third waits for 429's Retry-After). */
export const EXPORTS_PER_USER = 2;

export interface ReportFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

type ReportDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger'>;
type AnyFilters = Record<string, unknown> & { startDate: string; endDate: string };

/**
 * Reports (issue #13): a page of any report (one statement for the rows, one for the count and
 * totals) and its export, streamed. Rows come from the report registry's SQL; the service adds
 * the caller's tenant, time zone and ticket visibility, and never holds more than one batch.
 */
export class ReportsService {
  private readonly viewers: TicketViewerLoader;
  private readonly settings: SettingsService;
  private readonly running = new Map<number, number>();

  constructor(private readonly deps: ReportDeps) {
    this.viewers = new TicketViewerLoader(deps);
    this.settings = new SettingsService(deps);
  }

  /** GET /reports/{id}: page `pageNumber` of `pageSize` rows, the count and the totals. */
  async page(auth: AuthContext, id: ReportId, input: AnyFilters & { pageNumber: number; pageSize: number }): Promise<ReportPage> {
    authorizeReports(auth);
    const { pageNumber, pageSize, ...filters } = input;
    const def = REPORTS[id] as ReportDefinition<ReportId>;
    const ctx = await this.context(auth);
    const p = new SqlParams();
    if (def.page) {
      const page = def.page(ctx, filters as never, p, pageNumber, pageSize);
      const { rows, ...summary } = page.read(await this.query(page.sql, p.values));
      return presentReportPage(def, rows, summary, pageNumber, pageSize);
    }
    // Two statements, side by side on a PostgreSQL server (one after the other on the embedded one).
    const [rows, summary] = await Promise.all([
      this.query(pageStatement(def.rows(ctx, filters as never, p), p, pageNumber, pageSize), p.values),
      this.summary(def, ctx, filters),
    ]);
    return presentReportPage(def, rows, summary, pageNumber, pageSize);
  }

  /**
   * GET /reports/{id}/export: every row matching the filters as CSV, XLSX or PDF. The count,
   * the totals and the filters' names are read first (so a refusal is still a JSON answer); the
   * rows are then read by keyset in batches of EXPORT_BATCH_SIZE while the file is written.
   */
  async export(auth: AuthContext, id: ReportId, input: AnyFilters & { format: ReportExportFormat }): Promise<ReportFile> {
    authorizeReports(auth);
    const { format, ...filters } = input;
    const def = REPORTS[id] as ReportDefinition<ReportId>;
    const release = this.claimExport(auth.userId);
    try {
      const ctx = await this.context(auth);
      const summary = await this.summary(def, ctx, filters);
      const lines = await describeFilters(this.deps.dataSource, auth.tenantId, ctx.timeZone, filters);
      const writer = REPORT_WRITERS[format];
      const body = writer.write(
        {
          title: def.title,
          columns: def.columns,
          filters: lines,
          count: summary.count,
          totals: summary.totals,
          generatedAt: this.deps.clock.now(),
          clock: new WallClock(ctx.timeZone),
          batches: this.batches(def, ctx, filters),
        },
        (err) => this.deps.logger.error({ err, reportId: id, format }, 'report export failed'),
      );
      body.once('close', release);
      return { fileName: reportFileName(def.title, filters, format), contentType: writer.contentType, body };
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * GET /contacts-report (the anchor's path): a page of lista-contatos, answered under the
   * anchor's `contacts` key; `states` is the anchor's `ddds` filter.
   */
  async contactsReport(
    auth: AuthContext,
    input: AnyFilters & { pageNumber: number; pageSize: number },
  ): Promise<{ contacts: Record<string, unknown>[]; count: number; hasMore: boolean; pageNumber: number; pageSize: number }> {
    const page = await this.page(auth, 'lista-contatos', input);
    return { contacts: page.rows, count: page.count, hasMore: page.hasMore, pageNumber: page.pageNumber, pageSize: page.pageSize };
  }

  /** The rows of a report in its order, EXPORT_BATCH_SIZE at a time, by keyset (no OFFSET). */
  private async *batches(def: ReportDefinition<ReportId>, ctx: ReportContext, filters: AnyFilters): AsyncGenerator<Record<string, unknown>[]> {
    let after: string[] | null = null;
    for (;;) {
      const p = new SqlParams();
      const rowsSql = def.rows(ctx, filters as never, p);
      const rows: Record<string, unknown>[] = await this.query(batchStatement(rowsSql, p, after, EXPORT_BATCH_SIZE), p.values);
      if (rows.length > 0) yield rows.map((r) => def.present(r));
      if (rows.length < EXPORT_BATCH_SIZE) return;
      after = keysOf(rowsSql, rows[rows.length - 1]);
    }
  }

  private async summary(def: ReportDefinition<ReportId>, ctx: ReportContext, filters: AnyFilters): Promise<{ count: number; totals?: ReportTotals }> {
    const p = new SqlParams();
    if (def.summary) {
      const summary = def.summary(ctx, filters as never, p);
      return summary.read(await this.query(summary.sql, p.values));
    }
    const [row] = await this.query(countStatement(def.rows(ctx, filters as never, p)), p.values);
    return { count: Number(row?.count ?? 0) };
  }

  /**
   * One report statement, without parallel workers: a report reads at most a tenant's year, which
   * one backend scans in tens of milliseconds, while gathering workers cost several times that
   * on a busy server (measured by tests/bench/reports.ts) and multiply the CPU that concurrent
   * report users take. As the statistics: no JIT compilation (it costs more than it saves on
   * these statements) and room for the medians' sorts in memory. SET LOCAL needs the statement's
   * own transaction.
   */
  private query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.deps.dataSource.transaction(async (tx) => {
      await tx.query(`SET LOCAL jit = off; SET LOCAL work_mem = '32MB'; SET LOCAL max_parallel_workers_per_gather = 0`);
      return tx.query(sql, params) as Promise<Record<string, unknown>[]>;
    });
  }

  private async context(auth: AuthContext): Promise<ReportContext> {
    const [settings, viewer] = await Promise.all([this.settings.values(auth), this.viewers.load(auth)]);
    return { tenantId: auth.tenantId, timeZone: reportTimeZone(settings), viewer };
  }

  /** Counts a running export of the user; answers the function that ends it (once). */
  private claimExport(userId: number): () => void {
    const now = this.running.get(userId) ?? 0;
    if (now >= EXPORTS_PER_USER) {
      throw new AppError('ERR_TOO_MANY_REQUESTS', {
        message: 'Aguarde o término das exportações em andamento.',
        headers: { 'Retry-After': '5' },
      });
    }
    this.running.set(userId, now + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.running.get(userId) ?? 1) - 1;
      if (left > 0) this.running.set(userId, left);
      else this.running.delete(userId);
    };
  }
}
