import { Button, ButtonGroup, Card, NonIdealState, ProgressBar } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import {
  REPORT_EXPORT_FORMATS,
  REPORT_PAGE_SIZE_DEFAULT,
  REPORT_PAGE_SIZE_MAX,
  type ReportExportFormat,
  type ReportId,
} from '@shared/schemas/reports';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { describeError } from '../../api/error-mapper';
import { useExportReportMutation, useGetReportQuery, type ReportFilterValues } from '../../api/reports.api';
import { showToast } from '../../app/feedback/toaster';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { DataTable } from '../../app/table/data-table';
import {
  PERIOD_FIELDS,
  filterFieldsOf,
  reportFormDefaults,
  reportFormSchema,
  requiredFieldsOf,
  type ReportFormValues,
} from './report-catalog';
import { ReportFilterForm } from './report-filter-form';
import { useTenantTimeZone } from './use-tenant-time-zone';
import '../../app/crud/crud.css';
import './reports.css';
import { PageHeader } from '../../app/layout/page-header';

const PAGE_SIZES = [25, REPORT_PAGE_SIZE_DEFAULT, 100, REPORT_PAGE_SIZE_MAX] as const;
const EXPORT_ICONS = { csv: 'th', xlsx: 'th-derived', pdf: 'document' } as const;

/** Status of a failed call, when it has one. */
const statusOf = (error: unknown): number | string | undefined => (error as { status?: number | string } | undefined)?.status;

/**
 * One report of `/relatorios/*` (spec section 5): the filters of its shared schema, "Gerar", the
 * server's page in a DataTable (paging, totals) and the exports of every matching row. The
 * table and the exports use the filters of the last "Gerar", so a file always matches the table.
 */
export function ReportPage({ reportId }: { reportId: ReportId }) {
  const { t, i18n } = useTranslation();
  const fields = useMemo(() => filterFieldsOf(reportId), [reportId]);
  const required = useMemo(() => requiredFieldsOf(reportId), [reportId]);
  const schema = useMemo(() => reportFormSchema(reportId), [reportId]);
  const defaults = useMemo(() => reportFormDefaults(reportId), [reportId]);
  const form = useZodForm<ReportFormValues, Record<string, unknown>>(schema, defaults);

  const [applied, setApplied] = useState<ReportFilterValues | null>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState<number>(REPORT_PAGE_SIZE_DEFAULT);
  const report = useGetReportQuery(applied ? { reportId, filters: applied, pageNumber, pageSize } : skipToken);
  const [exportReport] = useExportReportMutation();
  const [exporting, setExporting] = useState<ReportExportFormat | null>(null);
  const timeZone = useTenantTimeZone();

  const generate = form.handleSubmit((filters) => {
    const again = applied !== null && JSON.stringify(applied) === JSON.stringify(filters) && pageNumber === 1;
    setApplied(filters);
    setPageNumber(1);
    // The same filters once more: the user wants fresh numbers, not the cached page.
    if (again) void report.refetch();
  });

  // A refusal that names fields (400) reads on the form like the schema's own messages.
  const { error } = report;
  const { setError } = form;
  useEffect(() => {
    if (error && statusOf(error) === 400) showServerFailure(setError, error, t, [...PERIOD_FIELDS, ...fields]);
  }, [error, setError, t, fields]);

  const runExport = async (format: ReportExportFormat) => {
    if (!applied || exporting) return;
    setExporting(format);
    const result = await exportReport({ reportId, filters: applied, format });
    setExporting(null);
    if ('data' in result && result.data) {
      showToast(t('reports.exported', { fileName: result.data.fileName }), 'success');
    } else if ('error' in result && statusOf(result.error) !== 401) {
      showToast(t('reports.exportFailed', { format: format.toUpperCase(), reason: describeError(result.error, t) }), 'danger');
    }
  };

  const page = report.data;
  let results;
  if (!applied) {
    results = (
      <div data-testid="report-idle">
        <NonIdealState icon="filter" title={t('reports.idleTitle')} description={t('reports.idleHelp')} />
      </div>
    );
  } else if (report.isError && !page) {
    results = (
      <div data-testid="report-failed">
        <NonIdealState
          icon="warning-sign"
          title={t('reports.loadFailed')}
          description={describeError(report.error, t)}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void report.refetch()} />}
        />
      </div>
    );
  } else {
    results = (
      <DataTable
        columns={page?.columns ?? []}
        rows={page?.rows ?? []}
        count={page?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={pageSize}
        hasMore={page?.hasMore ?? false}
        totals={page?.totals}
        loading={report.isLoading}
        fetching={report.isFetching}
        onPageChange={setPageNumber}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPageNumber(1);
        }}
        pageSizeOptions={PAGE_SIZES}
        empty={{ icon: 'search', title: t('reports.emptyTitle'), description: t('reports.emptyHelp') }}
        timeZone={timeZone}
        testId="report-table"
      />
    );
  }

  return (
    <div className="page crud-page report-page" data-testid={`page-relatorios-${reportId}`}>
      <Link to="/relatorios" className="report-back" data-testid="report-back">
        {t('reports.backToList')}
      </Link>
      <PageHeader title={t(`routes.relatorios/${reportId}`)} description={t(`reports.catalog.${reportId}.description`)} />

      <Card className="report-filters" compact>
        <ReportFilterForm
          form={form}
          fields={fields}
          required={required}
          generating={report.isFetching}
          onGenerate={() => void generate()}
        />
      </Card>

      <section className="report-results" aria-label={t('reports.results')}>
        <div className="report-results-bar">
          <span className="crud-muted" data-testid="report-count">
            {page && applied ? t('reports.count', { count: page.count, amount: page.count.toLocaleString(i18n.language) }) : null}
          </span>
          <div className="report-exports">
            <span className="crud-muted">{t('reports.exportLabel')}</span>
            <ButtonGroup>
              {REPORT_EXPORT_FORMATS.map((format) => (
                <Button
                  key={format}
                  icon={EXPORT_ICONS[format]}
                  text={format.toUpperCase()}
                  loading={exporting === format}
                  disabled={!applied || !page || exporting !== null}
                  onClick={() => void runExport(format)}
                  title={t('reports.exportAs', { format: format.toUpperCase() })}
                  data-testid={`report-export-${format}`}
                />
              ))}
            </ButtonGroup>
          </div>
        </div>
        {exporting ? (
          <div className="report-export-progress" role="status" data-testid="report-exporting">
            <ProgressBar intent="primary" />
            <span>{t('reports.exporting', { format: exporting.toUpperCase() })}</span>
          </div>
        ) : null}
        {results}
      </section>
    </div>
  );
}
