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
import {
  and,
  durationColumns,
  inPeriod,
  messageCountsSql,
  PERIOD_END,
  PERIOD_START,
  scopeSql,
  StatementParams,
  type StatisticsPeriod,
} from './statistics.query';

/** Messages to and from customers, counted per day in ticket_metric_daily. */
const MESSAGE_KINDS = ['messageIn', 'reply', 'autoMessage'] as const;

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

  /**
   * One statistics statement. Planned without JIT (compiling its expressions costs more than a
   * dashboard query runs), with room to sort a year of facts in memory, and in one process (a
   * dashboard does not take the other cores of a busy server).
   */
  private query<T>(sql: string, params: StatementParams): Promise<T[]> {
    return this.deps.dataSource.transaction(async (tx) => {
      await tx.query(`SET LOCAL jit = off; SET LOCAL work_mem = '32MB'; SET LOCAL max_parallel_workers_per_gather = 0`);
      return (await tx.query(sql, params.values)) as T[];
    });
  }

  /** Tickets created in the period (`t`), in the caller's queues. */
  private createdWhere(period: StatisticsPeriod, params: StatementParams): string {
    return and(`t."tenantId" = $1`, inPeriod(`t."createdAt"`), scopeSql('t', period.scope, params));
  }

  /** Facts of one kind in the period and the caller's scope (`e`). */
  private factsWhere(kind: string, period: StatisticsPeriod, params: StatementParams): string {
    return and(`e."tenantId" = $1`, `e.kind = '${kind}'`, inPeriod('e.at'), scopeSql('e', period.scope, params));
  }

  /** GET /statistics-tickets-times: counters and times of the period, as an array of one row. */
  async ticketsTimes(auth: AuthContext, query: PeriodQuery): Promise<TicketsTimesRow[]> {
    const period = await this.period(auth, query);
    const params = new StatementParams(period);
    const ratingBuckets = [0, 1, 2, 3, 4, 5]
      .map((r) => `(count(*) FILTER (WHERE e.value = ${r}))::int AS "rating${r}"`)
      .join(', ');
    const [row] = await this.query<TicketsTimesSqlRow>(
      `SELECT o.*, c.*, n.*, w.*, f.*, r.*, g.*, m.*
         FROM (SELECT count(*)::int AS opened, (count(*) FILTER (WHERE t."isActiveDemand"))::int AS "activeDemand"
                 FROM tickets t WHERE ${this.createdWhere(period, params)}) o
        CROSS JOIN (SELECT count(*)::int AS "newContacts" FROM contacts c WHERE c."tenantId" = $1 AND ${inPeriod(`c."createdAt"`)}) c
        CROSS JOIN (SELECT (count(*) FILTER (WHERE t.status = 'open'))::int AS open,
                           (count(*) FILTER (WHERE t.status = 'pending'))::int AS pending
                      FROM tickets t
                     WHERE ${and(`t."tenantId" = $1`, `t.status IN ('open', 'pending')`, scopeSql('t', period.scope, params))}) n
        CROSS JOIN (SELECT ${durationColumns('started', 'waiting')} FROM ticket_metric_events e WHERE ${this.factsWhere('started', period, params)}) w
        CROSS JOIN (SELECT ${durationColumns('firstReply', 'firstResponse')} FROM ticket_metric_events e WHERE ${this.factsWhere('firstReply', period, params)}) f
        CROSS JOIN (SELECT count(*)::int AS resolved, ${durationColumns('resolved', 'resolution')}
                      FROM ticket_metric_events e WHERE ${this.factsWhere('resolved', period, params)}) r
        CROSS JOIN (SELECT count(*)::int AS "ratingCount", round(avg(e.value), 2)::float8 AS "ratingAverage", ${ratingBuckets}
                      FROM ticket_metric_events e WHERE ${this.factsWhere('rating', period, params)}) g
        CROSS JOIN (SELECT COALESCE(sum(x.n) FILTER (WHERE x.kind = 'messageIn'), 0)::int AS "messagesIn",
                           COALESCE(sum(x.n) FILTER (WHERE x.kind <> 'messageIn'), 0)::int AS "messagesOut"
                      FROM (${messageCountsSql(period.scope, params, MESSAGE_KINDS, false)}) x) m`,
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
    const bucketOf = (instant: string) => `to_char(${instant}, '${hourly ? 'YYYY-MM-DD"T"HH24:00' : 'YYYY-MM-DD'}')`;
    // Tickets grouped by their local day (or hour) first, formatted once per bucket.
    const local = `date_trunc('${hourly ? 'hour' : 'day'}', t."createdAt" AT TIME ZONE $4)`;
    const buckets = hourly
      ? `SELECT DISTINCT ${bucketOf('g AT TIME ZONE $4')} AS bucket FROM generate_series(${PERIOD_START}, ${PERIOD_END} - interval '1 hour', interval '1 hour') g`
      : `SELECT to_char(g, 'YYYY-MM-DD') AS bucket FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') g`;
    const rows = await this.query<{ bucket: string; qtd: number }>(
      `WITH b AS (${buckets}),
            c AS (SELECT ${bucketOf('l.local')} AS bucket, l.qtd FROM (
                    SELECT ${local} AS local, count(*)::int AS qtd FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1
                  ) l)
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
         SELECT (t."createdAt" AT TIME ZONE $4)::date AS day, t."whatsappId" AS id, count(*)::int AS qtd
           FROM tickets t WHERE ${this.createdWhere(period, params)} GROUP BY 1, 2
       )
       SELECT to_char(c.day, 'YYYY-MM-DD') AS bucket, c.id, ch.name, c.qtd FROM c LEFT JOIN channels ch ON ch.id = c.id AND ch."tenantId" = $1
        ORDER BY c.day, ch.name NULLS LAST, c.id`,
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
    const [row] = await this.query<CountMessagesAnswer>(
      `SELECT COALESCE(sum(x.n) FILTER (WHERE x.kind = 'messageIn'), 0)::int AS "messagesIn",
              COALESCE(sum(x.n) FILTER (WHERE x.kind <> 'messageIn'), 0)::int AS "messagesOut"
         FROM (${messageCountsSql(period.scope, params, MESSAGE_KINDS, false)}) x`,
      params,
    );
    return row;
  }

  /**
   * Per agent, for the period: tickets assigned to them (opened for them, taken, transferred or
   * reopened to them, or resolved by them while unassigned), resolved, replies sent, first
   * response and resolution times (median, p90, mean) and the ratings they received. One row per
   * agent with any of these facts, most tickets first; `usersIds` narrows to some agents. Each
   * kind is its own index range, grouped by agent.
   */
  async perUsers(auth: AuthContext, filters: PerUserFilters, paging?: Paging): Promise<PerUserPage> {
    const period = await this.period(auth, filters);
    const params = new StatementParams(period);
    const users = filters.usersIds?.length ? `"userId" = ANY(${params.bind(filters.usersIds)}::int[])` : null;
    const byAgent = (kind: string, columns: string) =>
      `SELECT e."userId", ${columns} FROM ticket_metric_events e
        WHERE ${and(this.factsWhere(kind, period, params), `e."userId" IS NOT NULL`, users && `e.${users}`)}
        GROUP BY e."userId"`;
    const page = paging ? `LIMIT ${params.bind(paging.pageSize)} OFFSET ${params.bind((paging.pageNumber - 1) * paging.pageSize)}` : '';
    const rows = await this.query<PerUserSqlRow>(
      `WITH a AS (${byAgent('assigned', 'count(*)::int AS handled')}),
            r AS (${byAgent('resolved', `count(*)::int AS resolved, ${durationColumns('resolved', 'resolution')}`)}),
            f AS (${byAgent('firstReply', durationColumns('firstReply', 'firstResponse'))}),
            g AS (${byAgent('rating', `count(*)::int AS "ratingCount", round(avg(e.value), 2)::float8 AS "ratingAverage"`)}),
            s AS (SELECT "userId", n AS sent FROM (${messageCountsSql(period.scope, params, ['reply'], true)}) x
                   WHERE ${and(`"userId" IS NOT NULL`, users)}),
            agents AS (SELECT "userId" FROM a UNION SELECT "userId" FROM r UNION SELECT "userId" FROM f
                       UNION SELECT "userId" FROM g UNION SELECT "userId" FROM s),
            j AS (
              SELECT agents."userId", COALESCE(a.handled, 0) AS handled, COALESCE(r.resolved, 0) AS resolved, COALESCE(s.sent, 0) AS sent,
                     f."firstResponseMedian", f."firstResponseP90", f."firstResponseAverage", COALESCE(f."firstResponseSamples", 0) AS "firstResponseSamples",
                     r."resolutionMedian", r."resolutionP90", r."resolutionAverage", COALESCE(r."resolutionSamples", 0) AS "resolutionSamples",
                     COALESCE(g."ratingCount", 0) AS "ratingCount", g."ratingAverage"
                FROM agents
                LEFT JOIN a ON a."userId" = agents."userId"
                LEFT JOIN r ON r."userId" = agents."userId"
                LEFT JOIN f ON f."userId" = agents."userId"
                LEFT JOIN g ON g."userId" = agents."userId"
                LEFT JOIN s ON s."userId" = agents."userId"
            )
       SELECT j.*, u.name, u.email, count(*) OVER ()::int AS total
         FROM j LEFT JOIN users u ON u.id = j."userId" AND u."tenantId" = $1
        ORDER BY j.handled DESC, j.sent DESC, u.name NULLS LAST, j."userId"
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
