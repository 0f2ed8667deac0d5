import { Button, Card, H5, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { RATING_MAX, RATING_MIN } from '@shared/limits';
import { RATINGS_PAGE_SIZE_DEFAULT, RatingFiltersSchema, type RatingFilters } from '@shared/schemas/ratings';
import { format, startOfMonth } from 'date-fns';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import { useListQueuesQuery } from '../../api/queues.api';
import { useGetRatingSettingsQuery, useListRatingsQuery } from '../../api/ratings.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { DateField, FormErrorSummary, MultiSelectField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { DataTable, type DataColumn } from '../../app/table/data-table';
import { EChart } from '../dashboard/charts/echart';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { distributionBarsOption } from './rating-chart-options';
import '../../app/crud/crud.css';
import '../reports/reports.css';
import './ratings.css';
import { PageHeader } from '../../app/layout/page-header';

interface RatingFormValues {
  startDate: string;
  endDate: string;
  queuesIds: number[];
  usersIds: number[];
  ratings: number[];
  [key: string]: unknown;
}

const PAGE_SIZES = [10, RATINGS_PAGE_SIZE_DEFAULT, 50, 100] as const;
const FILTER_FIELDS = ['startDate', 'endDate', 'queuesIds', 'usersIds', 'ratings'] as const;
const SCORES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

const defaults = (today = new Date()): RatingFormValues => ({
  startDate: format(startOfMonth(today), 'dd/MM/yyyy'),
  endDate: format(today, 'dd/MM/yyyy'),
  queuesIds: [],
  usersIds: [],
  ratings: [],
});

const average = (value: number | null, language: string) =>
  value === null ? '—' : value.toLocaleString(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * /avaliacoes/listar: the ratings customers gave in a period (dd/MM/yyyy, the tenant's days),
 * filtered by queue, agent and score; the count, the average, the distribution by the tenant's
 * labels (spec section 9) as a chart, the averages by agent and by queue, and the ratings page
 * by page. Every figure comes from the server (SQL over every matching rating).
 */
export function RatingsListPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const form = useZodForm<RatingFormValues, RatingFilters>(RatingFiltersSchema, defaults());
  const [applied, setApplied] = useState<RatingFilters | null>(() => {
    const parsed = RatingFiltersSchema.safeParse(defaults());
    return parsed.success ? parsed.data : null;
  });
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState<number>(RATINGS_PAGE_SIZE_DEFAULT);
  const list = useListRatingsQuery(applied ? { filters: applied, pageNumber, pageSize } : skipToken, {
    refetchOnMountOrArgChange: true,
  });
  const settings = useGetRatingSettingsQuery();
  const queues = useListQueuesQuery();
  const users = useListAllTenantUsersQuery();

  const { error } = list;
  const { setError } = form;
  useEffect(() => {
    if (error && (error as { status?: number }).status === 400) showServerFailure(setError, error, t, FILTER_FIELDS);
  }, [error, setError, t]);

  const submit = form.handleSubmit((filters) => {
    setApplied(filters);
    setPageNumber(1);
  });

  const labels = settings.data?.labels;
  const scoreLabel = (score: number) => labels?.[score] ?? t(`consolePanel.rating.labels.${score}`);
  const summary = list.data?.summary;
  const chartOption = useMemo(() => {
    const dark = document.body.classList.contains('bp6-dark');
    return distributionBarsOption(
      summary?.distribution ?? [],
      dark ? { text: '#d3d8de', axisLine: 'rgba(255, 255, 255, 0.25)' } : { text: '#404854', axisLine: 'rgba(17, 20, 24, 0.2)' },
      t('ratings.chartSeries'),
    );
  }, [summary, t]);

  const columns = useMemo<DataColumn[]>(
    () => [
      { key: 'ratedAt', label: t('ratings.columns.ratedAt'), kind: 'datetime' },
      { key: 'contactName', label: t('ratings.columns.contact'), kind: 'text' },
      { key: 'protocol', label: t('ratings.columns.protocol'), kind: 'text' },
      { key: 'userName', label: t('ratings.columns.user'), kind: 'text' },
      { key: 'queueName', label: t('ratings.columns.queue'), kind: 'text' },
      { key: 'score', label: t('ratings.columns.rating'), kind: 'text' },
      { key: 'attempts', label: t('ratings.columns.attempts'), kind: 'number' },
    ],
    [t],
  );
  const rows = useMemo(
    () => (list.data?.ratings ?? []).map((row) => ({ ...row, score: `${row.rating} · ${row.label}` })),
    [list.data],
  );

  return (
    <div className="page crud-page report-page" data-testid="page-avaliacoes-listar">
      <PageHeader title={t('routes.avaliacoes/listar')} description={t('ratings.listDescription')} />

      <Card className="report-filters" compact>
        <form
          noValidate
          data-testid="ratings-filters"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="report-filter-grid">
            <DateField
              control={form.control}
              name="startDate"
              label={t('reports.fields.startDate')}
              required
              testId="ratings-startDate"
            />
            <DateField
              control={form.control}
              name="endDate"
              label={t('reports.fields.endDate')}
              required
              testId="ratings-endDate"
            />
            <MultiSelectField
              control={form.control}
              name="queuesIds"
              label={t('reports.fields.queuesIds')}
              placeholder={t('ratings.all')}
              emptyText={t('ratings.noOptions')}
              loading={queues.isLoading}
              options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))}
              testId="ratings-queuesIds"
            />
            <MultiSelectField
              control={form.control}
              name="usersIds"
              label={t('reports.fields.usersIds')}
              placeholder={t('ratings.all')}
              emptyText={t('ratings.noOptions')}
              loading={users.isLoading}
              options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name, hint: u.email }))}
              testId="ratings-usersIds"
            />
            <MultiSelectField
              control={form.control}
              name="ratings"
              label={t('ratings.scores')}
              placeholder={t('ratings.all')}
              emptyText={t('ratings.noOptions')}
              options={SCORES.map((score) => ({ value: score, label: `${score} · ${scoreLabel(score)}` }))}
              testId="ratings-ratings"
            />
          </div>
          <FormErrorSummary control={form.control} testId="ratings-summary-error" />
          <Button
            type="submit"
            intent="primary"
            icon="filter"
            text={t('ratings.apply')}
            loading={list.isFetching}
            data-testid="ratings-apply"
          />
        </form>
      </Card>

      {list.isError && !list.data ? (
        <NonIdealState
          icon="warning-sign"
          title={t('crud.loadFailed')}
          description={describeError(list.error, t)}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void list.refetch()} />}
        />
      ) : (
        <>
          <div className="ratings-overview">
            <Card compact className="ratings-figure" data-testid="ratings-count">
              <span className="ratings-figure-label">{t('ratings.count')}</span>
              <strong>{(summary?.count ?? 0).toLocaleString(i18n.language)}</strong>
            </Card>
            <Card compact className="ratings-figure" data-testid="ratings-average">
              <span className="ratings-figure-label">{t('ratings.average')}</span>
              <strong>{average(summary?.average ?? null, i18n.language)}</strong>
              {summary?.average != null ? (
                <span className="ratings-figure-hint">{scoreLabel(Math.round(summary.average))}</span>
              ) : null}
            </Card>
            <Card compact className="ratings-chart" data-testid="ratings-distribution">
              <H5>{t('ratings.distribution')}</H5>
              <div className="ratings-chart-box">
                <EChart option={chartOption} label={t('ratings.distribution')} name="ratings-distribution" />
              </div>
              <ul className="ratings-distribution-list">
                {(summary?.distribution ?? []).map((d) => (
                  <li key={d.rating} data-testid={`ratings-distribution-${d.rating}`}>
                    {d.rating} · {d.label}: <strong>{d.count}</strong>
                  </li>
                ))}
              </ul>
            </Card>
          </div>

          <div className="ratings-breakdowns">
            <Breakdown
              title={t('ratings.byUser')}
              testId="ratings-by-user"
              rows={(summary?.byUser ?? []).map((u) => ({
                key: String(u.userId),
                name: u.name,
                count: u.count,
                average: u.average,
              }))}
            />
            <Breakdown
              title={t('ratings.byQueue')}
              testId="ratings-by-queue"
              rows={(summary?.byQueue ?? []).map((q) => ({
                key: String(q.queueId),
                name: q.name,
                count: q.count,
                average: q.average,
              }))}
            />
          </div>

          <DataTable
            columns={columns}
            rows={rows}
            count={list.data?.count ?? 0}
            pageNumber={pageNumber}
            pageSize={pageSize}
            hasMore={list.data?.hasMore ?? false}
            loading={list.isLoading}
            fetching={list.isFetching}
            onPageChange={setPageNumber}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPageNumber(1);
            }}
            pageSizeOptions={PAGE_SIZES}
            empty={{ icon: 'star-empty', title: t('ratings.empty') }}
            timeZone={timeZone}
            testId="ratings-table"
          />
        </>
      )}
    </div>
  );
}

function Breakdown({
  title,
  rows,
  testId,
}: {
  title: string;
  rows: { key: string; name: string; count: number; average: number | null }[];
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Card compact data-testid={testId}>
      <H5>{title}</H5>
      {rows.length === 0 ? (
        <p className="app-form-muted">{t('ratings.empty')}</p>
      ) : (
        <HTMLTable compact className="crud-table">
          <thead>
            <tr>
              <th>{t('ratings.columns.name')}</th>
              <th>{t('ratings.count')}</th>
              <th>{t('ratings.average')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td>{row.name}</td>
                <td>{row.count.toLocaleString(i18n.language)}</td>
                <td>{average(row.average, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
