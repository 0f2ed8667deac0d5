import { Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SOCKET_EVENTS } from '@shared/events';
import { useListQueuesQuery } from '../../api/queues.api';
import { useListSettingsQuery } from '../../api/settings.api';
import {
  useAgentsNowQuery,
  useTicketsByChannelQuery,
  useTicketsByHourQuery,
  useTicketsByQueueQuery,
  useTicketsEvolutionQuery,
  useTicketsTimesQuery,
  type PeriodArgs,
} from '../../api/statistics.api';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { AgentsNow } from './agents-now';
import { dashboardCharts } from './dashboard-charts-loader';
import { DashboardCards } from './dashboard-cards';
import { DashboardFilters, type DashboardFilterValues } from './dashboard-filters';
import { usableTimeZone } from './dashboard-period';
import { INITIAL_PRESET, openingPeriod } from './dashboard-prefetch';
import './dashboard.css';

/** The charts and their library: a chunk of their own (dashboard-charts-loader.ts). */
const DashboardCharts = dashboardCharts.Component;

/** Events after which the figures may have moved: tickets, messages (in and out), agents' presence. */
const LIVE_EVENTS = [
  SOCKET_EVENTS.ticketCreate,
  SOCKET_EVENTS.ticketUpdate,
  SOCKET_EVENTS.ticketDelete,
  SOCKET_EVENTS.messageCreate,
  SOCKET_EVENTS.userStatus,
];

/**
 * /home: what a supervisor opens every morning (issue #13). The period's figures and charts for
 * the chosen queues, and the agents online now; live from the socket without reloading.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const settings = useListSettingsQuery();
  const zoneSetting = settings.data?.find((entry) => entry.key === 'timeZone')?.value;
  const timeZone = usableTimeZone(zoneSetting);
  const queues = useListQueuesQuery();
  // The same period as the start-up prefetch (dashboard-prefetch.ts) when the page opens the app.
  const [opening] = useState(() => openingPeriod(new Date(), zoneSetting));
  const [initial] = useState<DashboardFilterValues>(() => ({
    preset: INITIAL_PRESET,
    startDate: opening.typedStart,
    endDate: opening.typedEnd,
    queuesIds: [],
  }));
  const [period, setPeriod] = useState<PeriodArgs>(() => ({ startDate: opening.startDate, endDate: opening.endDate, queuesIds: [] }));

  const times = useTicketsTimesQuery(period);
  const byQueue = useTicketsByQueueQuery(period);
  const byChannel = useTicketsByChannelQuery(period);
  const evolution = useTicketsEvolutionQuery(period);
  const byHour = useTicketsByHourQuery(period);
  const agents = useAgentsNowQuery({ queuesIds: period.queuesIds });

  // The queries of the period on screen (the latest ones: useSettledRefetch reads them at each call).
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(times, byQueue, byChannel, evolution, byHour, agents));

  const queueColors = useMemo(() => new Map((queues.data ?? []).map((queue) => [queue.id, queue.color])), [queues.data]);
  const failed = times.isError && !times.data;

  return (
    <div className="page dashboard-page" data-testid="dashboard-page">
      <header className="dashboard-header">
        <h2 className="dashboard-title">{t('routes.home')}</h2>
        <DashboardFilters initial={initial} queues={queues.data ?? []} timeZone={timeZone} onApply={(next) => setPeriod(next)} />
      </header>
      {failed ? (
        <Callout intent="warning" icon="error" className="dashboard-callout" data-testid="dashboard-error">
          {t('dashboard.loadFailed')}
        </Callout>
      ) : null}
      <div className="dashboard-live" data-testid="dashboard-live" data-fetching={times.isFetching ? 'true' : 'false'}>
        <DashboardCards row={times.data} />
      </div>
      <Suspense
        fallback={
          <div className="dashboard-charts-loading">
            <NonIdealState icon={<Spinner size={30} />} />
          </div>
        }
      >
        <DashboardCharts
          startDate={period.startDate}
          endDate={period.endDate}
          byQueue={byQueue}
          byChannel={byChannel}
          evolution={evolution}
          byHour={byHour}
          queueColors={queueColors}
        />
      </Suspense>
      <AgentsNow rows={agents.data} isLoading={agents.isLoading} isError={agents.isError} />
    </div>
  );
}
