import {
  STATISTICS_PATHS,
  type AgentNowRow,
  type CountBucket,
  type DashTicketsQueuesAnswer,
  type EvolutionBucket,
  type HourBucket,
  type TicketsTimesRow,
} from '@shared/schemas/statistics';
import { baseApi } from './base.api';
import { periodParams, queueParam, type PeriodArgs } from './statistics-params';

export type { PeriodArgs };

/**
 * Dashboard and ticket panel calls (shared/schemas/statistics.ts, docs/api.md). The screens keep
 * them live by asking again on socket events (app/realtime/live-refresh.ts), so every call is a
 * background one: no loading overlay, no toast; the screens show their own state and errors.
 */
export type { AgentNowRow, CountBucket, DashTicketsQueuesAnswer, EvolutionBucket, HourBucket, TicketsTimesRow };

const background = { background: true } as const;

export const statisticsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The anchor answers an array of one row. */
    ticketsTimes: build.query<TicketsTimesRow | null, PeriodArgs>({
      query: (args) => ({ url: STATISTICS_PATHS.ticketsTimes, params: periodParams(args) }),
      transformResponse: (body: TicketsTimesRow[] | TicketsTimesRow) => (Array.isArray(body) ? (body[0] ?? null) : body),
      extraOptions: background,
    }),
    ticketsByQueue: build.query<CountBucket[], PeriodArgs>({
      query: (args) => ({ url: STATISTICS_PATHS.ticketsQueue, params: periodParams(args) }),
      extraOptions: background,
    }),
    ticketsByChannel: build.query<CountBucket[], PeriodArgs>({
      query: (args) => ({ url: STATISTICS_PATHS.ticketsChannels, params: periodParams(args) }),
      extraOptions: background,
    }),
    ticketsEvolution: build.query<EvolutionBucket[], PeriodArgs>({
      query: (args) => ({ url: STATISTICS_PATHS.ticketsEvolutionByPeriod, params: periodParams(args) }),
      extraOptions: background,
    }),
    ticketsByHour: build.query<HourBucket[], PeriodArgs>({
      query: (args) => ({ url: STATISTICS_PATHS.ticketsHours, params: periodParams(args) }),
      extraOptions: background,
    }),
    /** Agents now (no period). */
    agentsNow: build.query<AgentNowRow[], { queuesIds: number[] }>({
      query: ({ queuesIds }) => ({ url: STATISTICS_PATHS.perUsersDetail, params: queueParam(queuesIds) }),
      extraOptions: background,
    }),
    /** The administrator's live ticket panel. */
    ticketPanel: build.query<DashTicketsQueuesAnswer, { queuesIds: number[] }>({
      query: ({ queuesIds }) => ({ url: STATISTICS_PATHS.dashTicketsQueues, params: queueParam(queuesIds) }),
      extraOptions: background,
    }),
  }),
});

export const {
  useTicketsTimesQuery,
  useTicketsByQueueQuery,
  useTicketsByChannelQuery,
  useTicketsEvolutionQuery,
  useTicketsByHourQuery,
  useAgentsNowQuery,
  useTicketPanelQuery,
} = statisticsApi;
