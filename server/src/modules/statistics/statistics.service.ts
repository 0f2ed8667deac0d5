import { DEFAULT_SETTINGS } from '@shared/settings';
import type { PeriodQuery } from '@shared/schemas/period';
import { isIanaTimeZone } from '@shared/schemas/settings';
import type {
  CountBucket,
  CountMessagesAnswer,
  EvolutionBucket,
  HourBucket,
  PerUserRow,
  TicketsTimesRow,
} from '@shared/schemas/statistics';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { SettingsService } from '../settings/settings.service';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import { authorizeStatistics, statisticsScope } from './statistics.policy';
import {
  presentCountBuckets,
  presentEvolution,
  presentPerUser,
  presentTicketsTimes,
  type CountRow,
  type PerUserSqlRow,
  type TicketsTimesSqlRow,
} from './statistics.presenter';
import { and, durationColumns, inPeriod, PERIOD_END, PERIOD_START, scopeSql, StatementParams, type StatisticsPeriod } from './statistics.query';

type StatisticsDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock'>;

/** The filters of the per-user statistics (the dashboard's query, plus the report's agents). */
export interface PerUserFilters extends PeriodQuery {
  usersIds?: number[];
}

export interface Paging {
  pageNumber: number;
  pageSize: number;
}

export interface PerUserPage {
  rows: PerUserRow[];
  /** users with facts in the period, over every page */
  count: number;
}

/**
 * The dashboard's statistics (issue #13), read from the recorded facts (ticket_metric_events and
 * the tickets' creation columns) with one statement per call, aggregated by PostgreSQL:
 * percentile_cont for medians and p90, buckets by day and hour in the tenant's time zone.
 * Tickets "of the period" are the tickets created in it, counted in their current queue and
 * channel; durations, messages, resolutions and ratings are the facts that happened in it,
 * counted in the queue the ticket had then.
 */
export class StatisticsService {
  private readonly viewers: TicketViewerLoader;
  private readonly settings: SettingsService;

  constructor(private readonly deps: StatisticsDeps) {
    this.viewers = new TicketViewerLoader(deps);
    this.settings = new SettingsService(deps);
  }

  /** Authorises the caller and resolves the period: their scope and their tenant's time zone. */
  private async period(auth: AuthContext, query: PeriodQuery): Promise<StatisticsPeriod> {
    authorizeStatistics(auth);
    const [viewer, settings] = await Promise.all([this.viewers.load(auth), this.settings.valuesOfTenant(auth.tenantId)]);
    const zone = settings.timeZone;
    return {
      tenantId: auth.tenantId,
      timeZone: zone && isIanaTimeZone(zone) ? zone : DEFAULT_SETTINGS.timeZone,
      startDate: query.startDate,
      endDate: query.endDate,
      scope: statisticsScope(viewer, query.queuesIds),
    };
  }

  private query<T>(sql: string, params: StatementParams): Promise<T[]> {
    return this.deps.dataSource.query(sql, params.values) as Promise<T[]>;
  }

  /** Tickets created in the period (`t`), in the caller's queues. */
  private createdWhere(period: StatisticsPeriod, params: StatementParams): string {
    return and(`t."tenantId" = $1`, inPeriod(`t."createdAt"`), scopeSql('t', period.scope, params));
  }

  /** GET /statistics-tickets-times: counters and times of the period, as an array of one row. */
  async ticketsTimes(auth: AuthContext, query: PeriodQuery): Promise<TicketsTimesRow[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const kinds = params.bind(['started', 'firstReply', 'resolved', 'rating', 'messageIn', 'reply', 'autoMessage']);
    const ratingBuckets = [0, 1, 2, 3, 4, 5]
      .map((r) => `(count(*) FILTER (WHERE e.kind = 'rating' AND e.value = ${r}))::int AS "rating${r}"`)
      .join(',\n');
    const [row] = await this.query<TicketsTimesSqlRow>(
      `SELECT o.*, c.*, n.*, f.*
         FROM (SELECT count(*)::int AS opened, (count(*) FILTER (WHERE t."isActiveDemand"))::int AS "activeDemand"
                 FROM tickets t WHERE ${this.createdWhere(period, params)}) o
        CROSS JOIN (SELECT count(*)::int AS "newContacts" FROM contacts c WHERE c."tenantId" = $1 AND ${inPeriod(`c."createdAt"`)}) c
        CROSS JOIN (SELECT (count(*) FILTER (WHERE t.status = 'open'))::int AS open,
                           (count(*) FILTER (WHERE t.status = 'pending'))::int AS pending
                      FROM tickets t
                     WHERE ${and(`t."tenantId" = $1`, `t.status IN ('open', 'pending')`, scopeSql('t', period.scope, params))}) n
        CROSS JOIN (SELECT (count(*) FILTER (WHERE e.kind = 'resolved'))::int AS resolved,
                           ${durationColumns('started', 'waiting')},
                           ${durationColumns('firstReply', 'firstResponse')},
                           ${durationColumns('resolved', 'resolution')},
                           (count(*) FILTER (WHERE e.kind = 'rating'))::int AS "ratingCount",
                           round(avg(e.value) FILTER (WHERE e.kind = 'rating'), 2)::float8 AS "ratingAverage",
                           ${ratingBuckets},
                           (count(*) FILTER (WHERE e.kind = 'messageIn'))::int AS "messagesIn",
                           (count(*) FILTER (WHERE e.kind IN ('reply', 'autoMessage')))::int AS "messagesOut"
                      FROM ticket_metric_events e
                     WHERE ${and(`e."tenantId" = $1`, `e.kind = ANY(${kinds}::varchar[])`, inPeriod('e.at'), scopeSql('e', period.scope, params))}) f`,
      params,
    );
    return [presentTicketsTimes(row)];
  }

  /** GET /statistics-tickets-channels: tickets created in the period by channel, most first. */
  async ticketsChannels(auth: AuthContext, query: PeriodQuery): Promise<CountBucket[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const rows = await this.query<CountRow>(
      `WITH g AS (
         SELECT t."whatsappId" AS id, count(*)::int AS qtd FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1
       )
       SELECT g.id, ch.name, g.qtd FROM g LEFT JOIN channels ch ON ch.id = g.id AND ch."tenantId" = $1
        ORDER BY g.qtd DESC, ch.name NULLS LAST, g.id`,
      params,
    );
    return presentCountBuckets(rows, 'channel');
  }

  /** GET /statistics-tickets-queue: tickets created in the period by (current) queue, most first. */
  async ticketsQueue(auth: AuthContext, query: PeriodQuery): Promise<CountBucket[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const rows = await this.query<CountRow>(
      `WITH g AS (
         SELECT t."queueId" AS id, count(*)::int AS qtd FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1
       )
       SELECT g.id, q.name, g.qtd FROM g LEFT JOIN queues q ON q.id = g.id AND q."tenantId" = $1
        ORDER BY g.qtd DESC, q.name NULLS LAST, g.id`,
      params,
    );
    return presentCountBuckets(rows, 'queue');
  }

  /**
   * GET /statistics-tickets-evolution-by-period: tickets created per day of the period (every
   * day, zeros included), or per hour when the period is one day (its 23, 24 or 25 hours; the
   * repeated hour of a fall-back day is one bucket).
   */
  async evolutionByPeriod(auth: AuthContext, query: PeriodQuery): Promise<EvolutionBucket[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const hourly = period.startDate === period.endDate;
    const bucketOf = (instant: string) => `to_char(${instant} AT TIME ZONE $4, '${hourly ? 'YYYY-MM-DD"T"HH24:00' : 'YYYY-MM-DD'}')`;
    const buckets = hourly
      ? `SELECT DISTINCT ${bucketOf('g')} AS bucket FROM generate_series(${PERIOD_START}, ${PERIOD_END} - interval '1 hour', interval '1 hour') g`
      : `SELECT to_char(g, 'YYYY-MM-DD') AS bucket FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') g`;
    const rows = await this.query<{ bucket: string; qtd: number }>(
      `WITH b AS (${buckets}),
            c AS (SELECT ${bucketOf('t."createdAt"')} AS bucket, count(*)::int AS qtd FROM tickets t
                   WHERE ${this.createdWhere(period, params)} GROUP BY 1)
       SELECT b.bucket, COALESCE(c.qtd, 0)::int AS qtd FROM b LEFT JOIN c ON c.bucket = b.bucket ORDER BY b.bucket`,
      params,
    );
    return presentEvolution(rows);
  }

  /** GET /statistics-tickets-evolution-channels: tickets created per day and channel (days with tickets). */
  async evolutionChannels(auth: AuthContext, query: PeriodQuery): Promise<EvolutionBucket[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const rows = await this.query<{ bucket: string; id: number | null; name: string | null; qtd: number }>(
      `WITH c AS (
         SELECT to_char(t."createdAt" AT TIME ZONE $4, 'YYYY-MM-DD') AS bucket, t."whatsappId" AS id, count(*)::int AS qtd
           FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1, 2
       )
       SELECT c.bucket, c.id, ch.name, c.qtd FROM c LEFT JOIN channels ch ON ch.id = c.id AND ch."tenantId" = $1
        ORDER BY c.bucket, ch.name NULLS LAST, c.id`,
      params,
    );
    return presentEvolution(rows);
  }

  /** GET /statistics-tickets-hours: tickets created in the period by hour of day (0-23, every hour). */
  async ticketsHours(auth: AuthContext, query: PeriodQuery): Promise<HourBucket[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    return this.query<HourBucket>(
      `SELECT h.hour, COALESCE(c.qtd, 0)::int AS qtd
         FROM generate_series(0, 23) AS h(hour)
         LEFT JOIN (SELECT extract(hour FROM t."createdAt" AT TIME ZONE $4)::int AS hour, count(*)::int AS qtd
                      FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1) c ON c.hour = h.hour
        ORDER BY h.hour`,
      params,
    );
  }

  /** GET /count/messages: messages from customers and to customers (agents' and automated) in the period. */
  async countMessages(auth: AuthContext, query: PeriodQuery): Promise<CountMessagesAnswer> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const kinds = params.bind(['messageIn', 'reply', 'autoMessage']);
    const [row] = await this.query<CountMessagesAnswer>(
      `SELECT (count(*) FILTER (WHERE e.kind = 'messageIn'))::int AS "messagesIn",
              (count(*) FILTER (WHERE e.kind <> 'messageIn'))::int AS "messagesOut"
         FROM ticket_metric_events e
        WHERE ${and(`e."tenantId" = $1`, `e.kind = ANY(${kinds}::varchar[])`, inPeriod('e.at'), scopeSql('e', period.scope, params))}`,
      params,
    );
    return row;
  }

  /**
   * Per agent, for the period: tickets handled (opened, started, transferred or reopened to
   * them, or first answered or resolved by them), resolved, replies sent, first response and
   * resolution times (median, p90, mean) and the ratings they received. One row per agent with
   * any of these facts, most tickets first; `usersIds` narrows to some agents.
   */
  async perUsers(auth: AuthContext, filters: PerUserFilters, paging?: Paging): Promise<PerUserPage> {
    const period = await this.period(auth, filters);
    const params = new StatementParams(period);
    const kinds = params.bind(['opened', 'started', 'transfer', 'reopened', 'firstReply', 'reply', 'resolved', 'rating']);
    const users = filters.usersIds?.length ? `e."userId" = ANY(${params.bind(filters.usersIds)}::int[])` : null;
    const page = paging ? `LIMIT ${params.bind(paging.pageSize)} OFFSET ${params.bind((paging.pageNumber - 1) * paging.pageSize)}` : '';
    const rows = await this.query<PerUserSqlRow>(
      `WITH f AS (
         SELECT e."userId",
                (count(DISTINCT e."ticketId") FILTER (WHERE e.kind NOT IN ('reply', 'rating')))::int AS handled,
                (count(*) FILTER (WHERE e.kind = 'resolved'))::int AS resolved,
                (count(*) FILTER (WHERE e.kind = 'reply'))::int AS sent,
                ${durationColumns('firstReply', 'firstResponse')},
                ${durationColumns('resolved', 'resolution')},
                (count(*) FILTER (WHERE e.kind = 'rating'))::int AS "ratingCount",
                round(avg(e.value) FILTER (WHERE e.kind = 'rating'), 2)::float8 AS "ratingAverage"
           FROM ticket_metric_events e
          WHERE ${and(`e."tenantId" = $1`, `e.kind = ANY(${kinds}::varchar[])`, inPeriod('e.at'), `e."userId" IS NOT NULL`, users, scopeSql('e', period.scope, params))}
          GROUP BY e."userId"
       )
       SELECT f.*, u.name, u.email, count(*) OVER ()::int AS total
         FROM f LEFT JOIN users u ON u.id = f."userId" AND u."tenantId" = $1
        ORDER BY f.handled DESC, f.sent DESC, u.name NULLS LAST, f."userId"
        ${page}`,
      params,
    );
    if (rows.length === 0 && paging && paging.pageNumber > 1) {
      // Past the last page: the count still tells how many there are.
      const whole = await this.perUsers(auth, filters, { pageNumber: 1, pageSize: 1 });
      return { rows: [], count: whole.count };
    }
    return { rows: rows.map(presentPerUser), count: rows[0]?.total ?? 0 };
  }
}

/**
 * The per-agent statistics as a function, for the report estatisticas-atendimentos-usuarios:
 * the same rows, authorisation and scope as GET /statistics-per-users, one page at a time.
 */
export function perUserStatistics(
  deps: StatisticsDeps,
  auth: AuthContext,
  filters: PerUserFilters,
  paging: Paging,
): Promise<PerUserPage> {
  return new StatisticsService(deps).perUsers(auth, filters, paging);
}
