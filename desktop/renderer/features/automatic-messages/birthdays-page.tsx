import { Button, Card, H5, HTMLSelect, NonIdealState } from '@blueprintjs/core';
import { UPCOMING_BIRTHDAYS_PAGE_SIZE_DEFAULT } from '@shared/schemas/birthdays';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListUpcomingBirthdaysQuery, useSendTodaysBirthdaysMutation } from '../../api/birthdays.api';
import { describeError } from '../../api/error-mapper';
import { showToast } from '../../app/feedback/toaster';
import { DataTable, type DataColumn } from '../../app/table/data-table';
import { ChannelFormsList } from './channel-list';
import { BirthdayChannelForm } from './channel-message-forms';
import '../../app/crud/crud.css';
import './automatic-messages.css';
import { PageHeader } from '../../app/layout/page-header';

const WINDOWS = [7, 15, 30, 60, 90, 366] as const;
const PAGE_SIZES = [10, UPCOMING_BIRTHDAYS_PAGE_SIZE_DEFAULT, 50, 100] as const;

/**
 * /aniversarios (spec sections 1, 3 and 9): each channel's birthday message and the whole hour
 * it goes out (in the tenant's time zone; once per contact per year), and the contacts whose
 * birthday comes next, with the channel that will greet them.
 */
export function BirthdaysPage() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState<number>(UPCOMING_BIRTHDAYS_PAGE_SIZE_DEFAULT);
  const upcoming = useListUpcomingBirthdaysQuery({ days, pageNumber, pageSize }, { refetchOnMountOrArgChange: true });
  const [sendToday, sending] = useSendTodaysBirthdaysMutation();

  const columns = useMemo<DataColumn[]>(
    () => [
      { key: 'name', label: t('automaticMessages.columns.name'), kind: 'text' },
      { key: 'number', label: t('automaticMessages.columns.number'), kind: 'text' },
      { key: 'birthday', label: t('automaticMessages.columns.birthday'), kind: 'date' },
      { key: 'nextBirthday', label: t('automaticMessages.columns.nextBirthday'), kind: 'date' },
      { key: 'when', label: t('automaticMessages.columns.when'), kind: 'text' },
      { key: 'turning', label: t('automaticMessages.columns.turning'), kind: 'number' },
      { key: 'channel', label: t('automaticMessages.columns.channel'), kind: 'text' },
      { key: 'status', label: t('automaticMessages.columns.status'), kind: 'text' },
    ],
    [t],
  );
  const rows = useMemo(
    () =>
      (upcoming.data?.contacts ?? []).map((contact) => ({
        ...contact,
        when:
          contact.daysUntil === 0 ? t('automaticMessages.today') : t('automaticMessages.inDays', { count: contact.daysUntil }),
        channel:
          contact.channelName === null
            ? t('automaticMessages.noBirthdayChannel')
            : contact.birthdayHour === null
              ? contact.channelName
              : `${contact.channelName} · ${String(contact.birthdayHour).padStart(2, '0')}:00`,
        status: contact.greeted ? t('automaticMessages.greeted') : t('automaticMessages.notGreeted'),
      })),
    [upcoming.data, t],
  );

  const sendNow = async () => {
    const result = await sendToday();
    if ('data' in result && result.data) {
      showToast(t('automaticMessages.sentToday', { ...result.data }), 'success');
    }
  };

  return (
    <div className="page crud-page" data-testid="page-aniversarios">
      <PageHeader title={t('routes.aniversarios')} description={t('automaticMessages.birthdaysDescription')} />

      <section className="auto-message-section">
        <ChannelFormsList testId="birthday-channels" render={(channel) => <BirthdayChannelForm channel={channel} />} />
      </section>

      <Card className="auto-message-section" data-testid="upcoming-birthdays">
        <H5>{t('automaticMessages.upcomingTitle')}</H5>
        <div className="auto-message-toolbar">
          <label>
            {t('automaticMessages.window')}{' '}
            <HTMLSelect
              value={String(days)}
              onChange={(event) => {
                setDays(Number(event.currentTarget.value));
                setPageNumber(1);
              }}
              data-testid="upcoming-days"
            >
              {WINDOWS.map((window) => (
                <option key={window} value={window}>
                  {t('automaticMessages.nextDays', { count: window })}
                </option>
              ))}
            </HTMLSelect>
          </label>
          {upcoming.data ? (
            <span className="app-form-muted" data-testid="upcoming-today">
              {t('automaticMessages.todayIs', {
                day: upcoming.data.today.split('-').reverse().join('/'),
                zone: upcoming.data.timeZone,
              })}
            </span>
          ) : null}
          <Button
            icon="send-message"
            text={t('automaticMessages.sendToday')}
            loading={sending.isLoading}
            onClick={() => void sendNow()}
            data-testid="send-today"
          />
        </div>
        {upcoming.isError && !upcoming.data ? (
          <NonIdealState
            icon="warning-sign"
            title={t('crud.loadFailed')}
            description={describeError(upcoming.error, t)}
            action={<Button icon="refresh" text={t('common.retry')} onClick={() => void upcoming.refetch()} />}
          />
        ) : (
          <DataTable
            columns={columns}
            rows={rows}
            count={upcoming.data?.count ?? 0}
            pageNumber={pageNumber}
            pageSize={pageSize}
            hasMore={upcoming.data?.hasMore ?? false}
            loading={upcoming.isLoading}
            fetching={upcoming.isFetching}
            onPageChange={setPageNumber}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPageNumber(1);
            }}
            pageSizeOptions={PAGE_SIZES}
            empty={{ icon: 'calendar', title: t('automaticMessages.noUpcoming') }}
            testId="upcoming-table"
          />
        )}
      </Card>
    </div>
  );
}
