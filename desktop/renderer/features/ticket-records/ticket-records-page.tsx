import { Button, Card, NonIdealState } from '@blueprintjs/core';
import {
  TICKET_RECORDS_PAGE_SIZE_DEFAULT,
  TICKET_RECORDS_PAGE_SIZE_MAX,
  TICKET_RECORDS_SEARCH_MAX,
  TicketRecordFiltersSchema,
  type TicketRecordFilters,
} from '@shared/schemas/ticket-records';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SOCKET_EVENTS } from '@shared/events';
import { describeError } from '../../api/error-mapper';
import { useListNotesQuery, useListProtocolsQuery, type TicketRecordsArgs } from '../../api/ticket-records.api';
import { DateField, FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { EMPTY_CELL } from '../../app/table/cell-format';
import { DataTable, type DataColumn, type DataRow } from '../../app/table/data-table';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { recordsFormDefaults, recordsFormToFilters, type RecordsFormValues } from './ticket-records-filters';
import '../../app/crud/crud.css';
import '../reports/reports.css';
import './ticket-records.css';
import { PageHeader } from '../../app/layout/page-header';

export type TicketRecordsKind = 'protocols' | 'notes';

const PAGE_SIZES = [TICKET_RECORDS_PAGE_SIZE_DEFAULT, 50, 100, TICKET_RECORDS_PAGE_SIZE_MAX] as const;
const FILTER_FIELDS = ['search', 'startDate', 'endDate'] as const;
const ROUTE_OF: Record<TicketRecordsKind, string> = { protocols: 'protocolos', notes: 'notas' };

/**
 * What moves each list while it is open: a ticket created or changed (its protocol), a note
 * added or removed on a ticket. The list asks again, throttled.
 */
const LIVE_EVENTS: Record<TicketRecordsKind, readonly string[]> = {
  protocols: [SOCKET_EVENTS.ticketCreate, SOCKET_EVENTS.ticketUpdate, SOCKET_EVENTS.ticketDelete],
  notes: [SOCKET_EVENTS.ticketNote],
};

const statusOf = (error: unknown): number | string | undefined => (error as { status?: number | string } | undefined)?.status;

/** The page of one list: the protocols' or the notes' query, with the same arguments. */
function useRecordsPage(kind: TicketRecordsKind, args: TicketRecordsArgs) {
  // Opening the screen again asks for fresh rows (notes are added from the chat meanwhile).
  const protocols = useListProtocolsQuery(args, { skip: kind !== 'protocols', refetchOnMountOrArgChange: true });
  const notes = useListNotesQuery(args, { skip: kind !== 'notes', refetchOnMountOrArgChange: true });
  const query = kind === 'protocols' ? protocols : notes;
  useLiveRefresh(LIVE_EVENTS[kind], useSettledRefetch(query));
  const rows: DataRow[] | undefined =
    kind === 'protocols' ? (protocols.data?.protocols as DataRow[] | undefined) : (notes.data?.notes as DataRow[] | undefined);
  return { query, rows, page: query.data };
}

/**
 * `/protocolos` and `/notas` (issue #14 item 9; spec sections 2 and 3): the protocols of the
 * tenant's tickets, or the notes written on them, newest first, with a search, a period typed as
 * dd/MM/yyyy (the shared schema's rules and messages), the server's pages, and in every row a
 * link to the ticket's chat (`/atendimento/{ticketId}`). The list opens on this month; the filters
 * apply on "Pesquisar".
 */
export function TicketRecordsPage({ kind }: { kind: TicketRecordsKind }) {
  const { t, i18n } = useTranslation();
  const defaults = useMemo(() => recordsFormDefaults(), []);
  const form = useZodForm<RecordsFormValues, TicketRecordFilters>(TicketRecordFiltersSchema, defaults);
  const [applied, setApplied] = useState<TicketRecordFilters>(() => recordsFormToFilters(defaults));
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState<number>(TICKET_RECORDS_PAGE_SIZE_DEFAULT);
  const { query, rows, page } = useRecordsPage(kind, { filters: applied, pageNumber, pageSize });
  const timeZone = useTenantTimeZone();
  const testId = `page-${ROUTE_OF[kind]}`;

  const search = form.handleSubmit((filters) => {
    const again = JSON.stringify(applied) === JSON.stringify(filters) && pageNumber === 1;
    setApplied(filters);
    setPageNumber(1);
    // The same filters once more: the user wants fresh rows, not the cached page.
    if (again) void query.refetch();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search();
  };

  // A refusal that names fields (400) reads on the form like the schema's own messages.
  const { error } = query;
  const { setError } = form;
  useEffect(() => {
    if (error && statusOf(error) === 400) showServerFailure(setError, error, t, FILTER_FIELDS);
  }, [error, setError, t]);

  const columns: DataColumn[] = useMemo(() => {
    const ticketLink = (row: DataRow, text: string) => (
      <Link to={`/atendimento/${String(row.ticketId)}`} data-testid="record-ticket-link" title={t('ticketRecords.openTicket')}>
        {text}
      </Link>
    );
    // A ticket without a protocol (written before protocols were given) still has its '#id' link.
    const protocolLink = (row: DataRow) => (row.protocol ? ticketLink(row, String(row.protocol)) : EMPTY_CELL);
    const contact: DataColumn = { key: 'contactName', label: t('ticketRecords.columns.contact'), kind: 'text' };
    const user: DataColumn = { key: 'userName', label: t('ticketRecords.columns.user'), kind: 'text' };
    const date: DataColumn = { key: 'createdAt', label: t('ticketRecords.columns.date'), kind: 'datetime' };
    const ticket: DataColumn = {
      key: 'ticketId',
      label: t('ticketRecords.columns.ticket'),
      kind: 'text',
      render: (row) => ticketLink(row, `#${String(row.ticketId)}`),
    };
    if (kind === 'protocols') {
      return [
        { key: 'protocol', label: t('ticketRecords.columns.protocol'), kind: 'text', render: protocolLink },
        ticket,
        contact,
        user,
        {
          key: 'status',
          label: t('ticketRecords.columns.status'),
          kind: 'text',
          render: (row) => t(`attendance.status.${String(row.status)}`, { defaultValue: String(row.status) }),
        },
        date,
      ];
    }
    return [
      {
        key: 'note',
        label: t('ticketRecords.columns.note'),
        kind: 'text',
        render: (row) => <span className="ticket-records-note">{String(row.note)}</span>,
      },
      { key: 'protocol', label: t('ticketRecords.columns.protocol'), kind: 'text', render: protocolLink },
      ticket,
      contact,
      { ...user, label: t('ticketRecords.columns.author') },
      date,
    ];
  }, [kind, t]);

  let results;
  if (query.isError && !page) {
    results = (
      <div data-testid="records-failed">
        <NonIdealState
          icon="warning-sign"
          title={t(`ticketRecords.${kind}.loadFailed`)}
          description={describeError(query.error, t)}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void query.refetch()} />}
        />
      </div>
    );
  } else {
    results = (
      <DataTable
        columns={columns}
        rows={rows ?? []}
        count={page?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={pageSize}
        hasMore={page?.hasMore ?? false}
        loading={query.isLoading}
        fetching={query.isFetching}
        onPageChange={setPageNumber}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPageNumber(1);
        }}
        pageSizeOptions={PAGE_SIZES}
        empty={{ icon: 'search', title: t(`ticketRecords.${kind}.emptyTitle`), description: t('ticketRecords.emptyHelp') }}
        timeZone={timeZone}
        testId="records-table"
      />
    );
  }

  return (
    <div className="page crud-page report-page" data-testid={testId}>
      <PageHeader title={t(`routes.${ROUTE_OF[kind]}`)} description={t(`ticketRecords.${kind}.description`)} />

      <Card className="report-filters" compact>
        <form onSubmit={submit} noValidate data-testid="records-filters">
          <div className="report-filter-grid">
            <TextField
              control={form.control}
              name="search"
              label={t('ticketRecords.fields.search')}
              placeholder={t(`ticketRecords.${kind}.searchPlaceholder`)}
              maxLength={TICKET_RECORDS_SEARCH_MAX}
              testId="records-search"
            />
            <DateField
              control={form.control}
              name="startDate"
              label={t('ticketRecords.fields.startDate')}
              testId="records-startDate"
            />
            <DateField control={form.control} name="endDate" label={t('ticketRecords.fields.endDate')} testId="records-endDate" />
          </div>
          <div className="report-filter-actions">
            <FormErrorSummary control={form.control} testId="records-form-summary" />
            <Button
              type="submit"
              intent="primary"
              icon="search"
              text={t('ticketRecords.search')}
              loading={query.isFetching}
              data-testid="records-submit"
            />
          </div>
        </form>
      </Card>

      <section aria-label={t(`routes.${ROUTE_OF[kind]}`)}>
        <div className="report-results-bar">
          <span className="crud-muted" data-testid="records-count">
            {page ? t('ticketRecords.count', { count: page.count, amount: page.count.toLocaleString(i18n.language) }) : null}
          </span>
        </div>
        {results}
      </section>
    </div>
  );
}
