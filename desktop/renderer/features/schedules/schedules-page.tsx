import { Alert, Button, ButtonGroup, FormGroup, HTMLSelect, Popover, Tag, type Intent } from '@blueprintjs/core';
import { SCHEDULE_LIST_STATUSES, type ScheduleListStatus, type ScheduledMessageDto } from '@shared/schemas/messages';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCancelScheduleMutation, useListSchedulesQuery } from '../../api/schedules.api';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { formatCell } from '../../app/table/cell-format';
import { DataTable, type DataColumn, type DataRow } from '../../app/table/data-table';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { ContactSearch, ScheduleFormDialog } from './schedule-form-dialog';
import './schedules.css';

const PAGE_SIZE = 20;

/** The status a row shows: waiting, sent (on its way or delivered), failed or canceled. */
function rowStatus(message: ScheduledMessageDto): Exclude<ScheduleListStatus, 'all'> {
  if (message.status === 'scheduled' || message.status === 'failed' || message.status === 'canceled') return message.status;
  return 'sent';
}

const STATUS_INTENT: Record<Exclude<ScheduleListStatus, 'all'>, Intent> = {
  scheduled: 'primary',
  sent: 'success',
  failed: 'danger',
  canceled: 'none',
};

/**
 * /agendamentos (supervisor menu, issue #14): the tenant's scheduled messages with their status,
 * contact, date (the tenant's time zone), recurrence and progress, a page at a time; create, edit
 * and cancel (with confirmation) while a message waits. The job system sends them when due.
 */
export function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const [status, setStatus] = useState<ScheduleListStatus>('scheduled');
  const [pageNumber, setPageNumber] = useState(1);
  const [contact, setContact] = useState<{ id: number; name: string } | null>(null);
  const list = useListSchedulesQuery({ pageNumber, status, contactId: contact?.id });
  const [editing, setEditing] = useState<ScheduledMessageDto | 'new' | null>(null);
  const [canceling, setCanceling] = useState<ScheduledMessageDto | null>(null);
  const [cancelSchedule, cancellation] = useCancelScheduleMutation();
  const messages = useMemo(() => list.data?.messages ?? [], [list.data]);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);

  const confirmCancel = async () => {
    if (!canceling) return;
    // A refusal (already sent meanwhile) is toasted by the base query.
    const result = await cancelSchedule(canceling.id);
    setCanceling(null);
    if (!('error' in result)) showToast(t('schedules.canceled'), 'success');
  };

  const recurrenceText = (m: ScheduledMessageDto) =>
    m.schedule && m.schedule.recurrenceDays > 0
      ? t('schedules.recurrenceEvery', {
          count: m.schedule.recurrenceDays,
          occurrence: m.schedule.occurrence,
          repetitions: m.schedule.repetitions,
        })
      : t('chatTools.schedule.noRecurrence');

  const columns: DataColumn[] = [
    {
      key: 'scheduleDate',
      label: t('schedules.columns.date'),
      kind: 'datetime',
      render: (row) => (
        <span data-testid="schedule-row-date">
          {formatCell('datetime', row.scheduleDate, { language: i18n.language, timeZone })}
        </span>
      ),
    },
    {
      key: 'contact',
      label: t('schedules.columns.contact'),
      kind: 'text',
      render: (row) => <span data-testid="schedule-row-contact">{(row.contact as ScheduledMessageDto['contact'])?.name ?? ''}</span>,
    },
    {
      key: 'body',
      label: t('schedules.columns.message'),
      kind: 'text',
      render: (row) => {
        const m = byId.get(row.id as number)!;
        return (
          <span className="schedule-row-body" title={m.body} data-testid="schedule-row-body">
            {m.mediaName ? (
              <Tag minimal icon="paperclip" className="schedule-row-file">
                {m.mediaName}
              </Tag>
            ) : null}
            {m.body}
          </span>
        );
      },
    },
    {
      key: 'recurrence',
      label: t('schedules.columns.recurrence'),
      kind: 'text',
      render: (row) => recurrenceText(byId.get(row.id as number)!),
    },
    {
      key: 'status',
      label: t('schedules.columns.status'),
      kind: 'text',
      render: (row) => {
        const value = rowStatus(byId.get(row.id as number)!);
        return (
          <Tag minimal intent={STATUS_INTENT[value]} data-testid="schedule-row-status">
            {t(`schedules.status.${value}`)}
          </Tag>
        );
      },
    },
    {
      key: 'actions',
      label: '',
      kind: 'text',
      render: (row) => {
        const m = byId.get(row.id as number)!;
        if (m.status !== 'scheduled') return null;
        return (
          <ButtonGroup variant="minimal">
            <Button icon="edit" aria-label={t('crud.edit')} title={t('crud.edit')} onClick={() => setEditing(m)} data-testid="schedule-edit" />
            <Button
              icon="disable"
              intent="danger"
              aria-label={t('schedules.cancel')}
              title={t('schedules.cancel')}
              onClick={() => setCanceling(m)}
              data-testid="schedule-cancel"
            />
          </ButtonGroup>
        );
      },
    },
  ];

  const filter = (
    <div className="schedule-filters">
    <FormGroup label={t('schedules.filter')} inline className="schedule-filter">
      <HTMLSelect
        value={status}
        onChange={(event) => {
          setStatus(event.currentTarget.value as ScheduleListStatus);
          setPageNumber(1);
        }}
        data-testid="schedule-status-filter"
      >
        {SCHEDULE_LIST_STATUSES.map((value) => (
          <option key={value} value={value}>
            {t(`schedules.filterStatus.${value}`)}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
      <FormGroup label={t('schedules.contact')} inline className="schedule-filter">
        {contact ? (
          <Tag
            large
            minimal
            intent="primary"
            icon="person"
            onRemove={() => {
              setContact(null);
              setPageNumber(1);
            }}
            data-testid="schedule-contact-filter"
          >
            {contact.name}
          </Tag>
        ) : (
          <Popover
            placement="bottom-start"
            content={
              <div className="schedule-contact-filter-search">
                <ContactSearch
                  selectedId={undefined}
                  selectedName={null}
                  onSelect={(id, name) => {
                    setContact({ id, name });
                    setPageNumber(1);
                  }}
                />
              </div>
            }
          >
            <Button icon="search" text={t('schedules.anyContact')} data-testid="schedule-contact-filter-open" />
          </Popover>
        )}
      </FormGroup>
    </div>
  );

  return (
    <CrudPage
      routeId="agendamentos"
      description={t('schedules.description')}
      add={{ label: t('schedules.add'), onClick: () => setEditing('new'), testId: 'schedule-add' }}
      list={list}
      isEmpty={false}
      empty={{ icon: 'time', title: t('schedules.empty') }}
      dialogs={
        <>
          {editing ? (
            <ScheduleFormDialog schedule={editing === 'new' ? null : editing} timeZone={timeZone} onClose={() => setEditing(null)} />
          ) : null}
          <Alert
            isOpen={canceling !== null}
            intent="danger"
            icon="disable"
            confirmButtonText={t('schedules.cancel')}
            cancelButtonText={t('common.cancel')}
            loading={cancellation.isLoading}
            onConfirm={() => void confirmCancel()}
            onCancel={() => setCanceling(null)}
          >
            <p data-testid="schedule-cancel-text">
              {t('schedules.cancelConfirm', {
                contact: canceling?.contact?.name ?? '',
                date: canceling ? formatCell('datetime', canceling.scheduleDate, { language: i18n.language, timeZone }) : '',
              })}
            </p>
          </Alert>
        </>
      }
    >
      {filter}
      <DataTable
        columns={columns}
        rows={messages as unknown as DataRow[]}
        count={list.data?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={PAGE_SIZE}
        hasMore={list.data?.hasMore ?? false}
        fetching={list.isFetching}
        onPageChange={setPageNumber}
        timeZone={timeZone}
        empty={{ icon: 'time', title: t('schedules.empty'), description: t('schedules.emptyHelp') }}
        testId="schedules-table"
      />
    </CrudPage>
  );
}
