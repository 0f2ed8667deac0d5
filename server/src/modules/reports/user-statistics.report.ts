import type { ReportFilters } from '@shared/schemas/reports';
import { toInt, toRounded, type ReportContext, type ReportDefinition } from './report-definition';
import type { SqlParams } from './report-sql';
import { statisticsScope } from '../statistics/statistics.policy';

type Filters = ReportFilters<'estatisticas-atendimentos-usuarios'>;

/**
 * estatisticas-atendimentos-usuarios: one row per user of the tenant (the chosen ones, or all but
 * the platform super administrator), from the facts recorded in the period (migration
 * 1763780000000-ticket-metrics) in the chosen queues, the same figures as
 * GET /statistics-per-users:
 * - ticketsHandled: tickets assigned to the user in the period (opened for them, taken,
 *   transferred or reopened to them, or resolved by them while unassigned);
 * - ticketsResolved: tickets they resolved in the period; resolution: its time since the ticket's
 *   creation, median (percentile_cont) over those;
 * - messagesSent: their replies in the period (private notes and automated messages excluded);
 * - firstResponse: the first agent reply of a ticket, when it was theirs and in the period
 *   (tickets the company started have none: nothing to respond to), median;
 * - ratings: count and average of the ratings their tickets received in the period.
 * A supervisor counts only the chosen queues they may see (statisticsScope, as the dashboard).
 * Every figure is one index range of one kind of fact; the messages are never read. The totals
 * row is computed over the same facts (its medians are the medians of all of them, not a median
 * of medians).
 */
function statisticsCtes(ctx: ReportContext, f: Filters, p: SqlParams): string {
  const tenant = p.bind(ctx.tenantId, 'int');
  const chosen = f.usersIds?.length ? `AND u.id = ANY(${p.bind(f.usersIds, 'int[]')})` : '';
  const scope = statisticsScope(ctx.viewer, f.queuesIds);
  const zone = p.bind(ctx.timeZone, 'text');
  const from = `(${p.bind(f.startDate, 'date')}::timestamp AT TIME ZONE ${zone})`;
  const to = `((${p.bind(f.endDate, 'date')} + 1)::timestamp AT TIME ZONE ${zone})`;
  const queues = p.bind(scope.queueIds ?? [], 'int[]');
  const facts = (kind: string) =>
    `SELECT e."userId", e.value FROM ticket_metric_events e
      WHERE e."tenantId" = ${tenant} AND e.kind = '${kind}' AND e.at >= ${from} AND e.at < ${to}
        AND e."queueId" = ANY(${queues}) AND e."userId" IN (SELECT id FROM people)`;
  // Counted facts: grouped as they are read (an index-only range), never kept as rows.
  const countByUser = (kind: string, alias: string) =>
    `SELECT e."userId", count(*) AS ${alias} FROM ticket_metric_events e
      WHERE e."tenantId" = ${tenant} AND e.kind = '${kind}' AND e.at >= ${from} AND e.at < ${to}
        AND e."queueId" = ANY(${queues}) AND e."userId" IS NOT NULL
      GROUP BY e."userId"`;
  // Replies by agent: the whole UTC days of the period from their day counts (ticket_metric_daily),
  // the raw facts of the partial days at both ends (as the dashboard counts messages).
  const fullFrom = `(date_trunc('day', (${from} AT TIME ZONE 'UTC') - interval '1 microsecond') + interval '1 day')`;
  const fullTo = `date_trunc('day', ${to} AT TIME ZONE 'UTC')`;
  const rawReplies = (start: string, end: string) =>
    `SELECT e."userId", count(*) AS n FROM ticket_metric_events e
      WHERE e."tenantId" = ${tenant} AND e.kind = 'reply' AND e.at >= ${start} AND e.at < ${end}
        AND e."queueId" = ANY(${queues}) AND e."userId" IS NOT NULL
      GROUP BY e."userId"`;
  const replyCounts = () => `
      SELECT d."userId", sum(d.n) AS n FROM ticket_metric_daily d
       WHERE d."tenantId" = ${tenant} AND d.kind = 'reply' AND d.day >= ${fullFrom}::date AND d.day < ${fullTo}::date
         AND d."queueId" = ANY(${queues}) AND d."userId" IS NOT NULL
       GROUP BY d."userId"
      UNION ALL ${rawReplies(from, `LEAST(${fullFrom} AT TIME ZONE 'UTC', ${to})`)}
      UNION ALL ${rawReplies(`GREATEST(${fullTo} AT TIME ZONE 'UTC', ${fullFrom} AT TIME ZONE 'UTC', ${from})`, to)}`;
  return `WITH people AS (
       SELECT u.id, u.name, u.email FROM users u
        WHERE u."tenantId" = ${tenant} AND u.profile <> 'superadmin' ${chosen}
     ), resolved AS (${facts('resolved')}
     ), first_reply AS (${facts('firstReply')}
     ), rating AS (${facts('rating')}
     ), by_user AS (
       SELECT people.id AS "userId", a.handled, r.resolved, r."resolutionMedian", fr."firstResponseMedian", g.ratings, g."ratingAverage"
         FROM people
         LEFT JOIN (${countByUser('assigned', 'handled')}) a ON a."userId" = people.id
         LEFT JOIN (SELECT "userId", count(*) AS resolved,
                           percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS "resolutionMedian"
                      FROM resolved GROUP BY "userId") r ON r."userId" = people.id
         LEFT JOIN (SELECT "userId", percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS "firstResponseMedian"
                      FROM first_reply WHERE value IS NOT NULL GROUP BY "userId") fr ON fr."userId" = people.id
         LEFT JOIN (SELECT "userId", count(*) AS ratings, avg(value)::float8 AS "ratingAverage"
                      FROM rating GROUP BY "userId") g ON g."userId" = people.id
     ), sent_by_user AS (
       SELECT "userId", sum(n) AS messages FROM (${replyCounts()}) x GROUP BY "userId"
     )`;
}

const ROW_SELECT = `u.id AS "userId", u.name AS "userName", u.email,
  COALESCE(b.handled, 0)::int AS "ticketsHandled", COALESCE(b.resolved, 0)::int AS "ticketsResolved",
  COALESCE(s.messages, 0)::int AS "messagesSent",
  b."firstResponseMedian", b."resolutionMedian",
  COALESCE(b.ratings, 0)::int AS "ratingsCount", b."ratingAverage"`;
const ROW_FROM = `FROM people u LEFT JOIN by_user b ON b."userId" = u.id LEFT JOIN sent_by_user s ON s."userId" = u.id`;
const TOTALS_SELECT = `SELECT (SELECT count(*) FROM people)::int AS count,
  (SELECT COALESCE(sum(handled), 0) FROM by_user)::int AS handled,
  (SELECT count(*) FROM resolved)::int AS resolved,
  (SELECT COALESCE(sum(messages), 0) FROM sent_by_user WHERE "userId" IN (SELECT id FROM people))::int AS messages,
  (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FROM first_reply WHERE value IS NOT NULL) AS "firstResponseMedian",
  (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FROM resolved) AS "resolutionMedian",
  (SELECT count(*) FROM rating)::int AS ratings,
  (SELECT avg(value)::float8 FROM rating) AS "ratingAverage"`;

function readTotals(row: Record<string, unknown> | undefined) {
  return {
    count: toInt(row?.count),
    totals: {
      userName: 'Total',
      email: null,
      ticketsHandled: toInt(row?.handled),
      ticketsResolved: toInt(row?.resolved),
      messagesSent: toInt(row?.messages),
      firstResponseMedian: toRounded(row?.firstResponseMedian, 0),
      resolutionMedian: toRounded(row?.resolutionMedian, 0),
      ratingsCount: toInt(row?.ratings),
      ratingsAverage: toRounded(row?.ratingAverage),
    },
  };
}

export const userStatisticsReport: ReportDefinition<'estatisticas-atendimentos-usuarios'> = {
  id: 'estatisticas-atendimentos-usuarios',
  title: 'Estatísticas de atendimentos por usuário',
  columns: [
    { key: 'userName', label: 'Usuário', kind: 'text' },
    { key: 'email', label: 'E-mail', kind: 'text' },
    { key: 'ticketsHandled', label: 'Atendimentos', kind: 'number' },
    { key: 'ticketsResolved', label: 'Resolvidos', kind: 'number' },
    { key: 'messagesSent', label: 'Mensagens enviadas', kind: 'number' },
    { key: 'firstResponseMedian', label: 'Primeira resposta (mediana)', kind: 'duration' },
    { key: 'resolutionMedian', label: 'Resolução (mediana)', kind: 'duration' },
    { key: 'ratingsCount', label: 'Avaliações', kind: 'number' },
    { key: 'ratingsAverage', label: 'Média das avaliações', kind: 'number' },
  ],

  rows(ctx, f, p) {
    return {
      with: statisticsCtes(ctx, f, p),
      select: ROW_SELECT,
      from: ROW_FROM,
      where: [],
      keys: [
        { expr: 'lower(u.name)', type: 'text' },
        { expr: 'u.id', type: 'int' },
      ],
      direction: 'ASC',
    };
  },

  summary(ctx, f, p) {
    return {
      sql: `${statisticsCtes(ctx, f, p)} ${TOTALS_SELECT}`,
      read: ([row]) => readTotals(row),
    };
  },

  /** The page and the totals out of one run of the aggregates (they are the expensive part). */
  page(ctx, f, p, pageNumber, pageSize) {
    const ctes = statisticsCtes(ctx, f, p);
    const limit = p.bind(pageSize, 'int');
    const offset = p.bind((pageNumber - 1) * pageSize, 'int');
    return {
      sql: `${ctes}, totals AS (${TOTALS_SELECT}),
            page AS (SELECT ${ROW_SELECT}, lower(u.name) AS "sortName" ${ROW_FROM} ORDER BY lower(u.name), u.id LIMIT ${limit} OFFSET ${offset})
            SELECT page.*, to_jsonb(totals) AS "summary" FROM totals LEFT JOIN page ON true ORDER BY page."sortName", page."userId"`,
      read(rows) {
        const summary = readTotals(rows[0]?.summary as Record<string, unknown> | undefined);
        return { rows: rows.filter((r) => r.userId !== null && r.userId !== undefined), ...summary };
      },
    };
  },

  present(row) {
    return {
      userId: row.userId,
      userName: row.userName,
      email: row.email ?? null,
      ticketsHandled: toInt(row.ticketsHandled),
      ticketsResolved: toInt(row.ticketsResolved),
      messagesSent: toInt(row.messagesSent),
      firstResponseMedian: toRounded(row.firstResponseMedian, 0),
      resolutionMedian: toRounded(row.resolutionMedian, 0),
      ratingsCount: toInt(row.ratingsCount),
      ratingsAverage: toRounded(row.ratingAverage),
    };
  },
};
