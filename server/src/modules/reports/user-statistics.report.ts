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
function statisticsCtes(ctx: ReportContext, f: Filters, p: SqlParams): { ctes: string; totals: string } {
  const tenant = p.bind(ctx.tenantId, 'int');
  const chosen = f.usersIds?.length ? `AND u.id = ANY(${p.bind(f.usersIds, 'int[]')})` : '';
  const scope = statisticsScope(ctx.viewer, f.queuesIds);
  const zone = p.bind(ctx.timeZone, 'text');
  const from = `(${p.bind(f.startDate, 'date')}::timestamp AT TIME ZONE ${zone})`;
  const to = `((${p.bind(f.endDate, 'date')} + 1)::timestamp AT TIME ZONE ${zone})`;
  const queues = p.bind(scope.queueIds ?? [], 'int[]');
  const range = (kind: string) =>
    `e."tenantId" = ${tenant} AND e.kind = '${kind}' AND e.at >= ${from} AND e.at < ${to} AND e."queueId" = ANY(${queues})`;
  // The totals' medians: every fact of the people listed, in one sort.
  const facts = (kind: string) =>
    `SELECT e.value FROM ticket_metric_events e WHERE ${range(kind)} AND e."userId" IN (SELECT id FROM people)`;
  // Per-user medians read the facts in (user, value) order from their own index
  // (ticket_metric_events_user_value_idx): grouped without a sort, and each user's values arrive
  // sorted, so the medians' own sorts find their input in order. Facts of users not listed drop
  // out in the join to people.
  const medianByUser = (kind: string, count: string, median: string) =>
    `SELECT e."userId", count(*) AS ${count}, percentile_cont(0.5) WITHIN GROUP (ORDER BY e.value) AS "${median}"
       FROM ticket_metric_events e WHERE ${range(kind)} AND e."userId" IS NOT NULL
      GROUP BY e."userId"`;
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
  const ctes = `WITH people AS (
       SELECT u.id, u.name, u.email FROM users u
        WHERE u."tenantId" = ${tenant} AND u.profile <> 'superadmin' ${chosen}
     ), by_user AS (
       SELECT people.id AS "userId", a.handled, r.resolved, r."resolutionMedian", fr."firstResponseMedian", g.ratings, g."ratingValues", g."ratingSum", g."ratingAverage"
         FROM people
         LEFT JOIN (${countByUser('assigned', 'handled')}) a ON a."userId" = people.id
         LEFT JOIN (${medianByUser('resolved', 'resolved', 'resolutionMedian')}) r ON r."userId" = people.id
         LEFT JOIN (${medianByUser('firstReply', 'replied', 'firstResponseMedian')}) fr ON fr."userId" = people.id
         LEFT JOIN (SELECT e."userId", count(*) AS ratings, count(e.value) AS "ratingValues", sum(e.value) AS "ratingSum", avg(e.value)::float8 AS "ratingAverage"
                      FROM ticket_metric_events e WHERE ${range('rating')} AND e."userId" IS NOT NULL
                     GROUP BY e."userId") g ON g."userId" = people.id
     ), sent_by_user AS (
       SELECT "userId", sum(n) AS messages FROM (${replyCounts()}) x GROUP BY "userId"
     )`;
  return { ctes, totals: totalsSelect(facts('resolved'), facts('firstReply')) };
}

const ROW_SELECT = `u.id AS "userId", u.name AS "userName", u.email,
  COALESCE(b.handled, 0)::int AS "ticketsHandled", COALESCE(b.resolved, 0)::int AS "ticketsResolved",
  COALESCE(s.messages, 0)::int AS "messagesSent",
  b."firstResponseMedian", b."resolutionMedian",
  COALESCE(b.ratings, 0)::int AS "ratingsCount", b."ratingAverage"`;
const ROW_FROM = `FROM people u LEFT JOIN by_user b ON b."userId" = u.id LEFT JOIN sent_by_user s ON s."userId" = u.id`;
const totalsSelect = (resolvedFacts: string, firstReplyFacts: string) => `SELECT (SELECT count(*) FROM people)::int AS count,
  (SELECT COALESCE(sum(handled), 0) FROM by_user)::int AS handled,
  (SELECT COALESCE(sum(resolved), 0) FROM by_user)::int AS resolved,
  (SELECT COALESCE(sum(messages), 0) FROM sent_by_user WHERE "userId" IN (SELECT id FROM people))::int AS messages,
  (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FROM (${firstReplyFacts}) f WHERE value IS NOT NULL) AS "firstResponseMedian",
  (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FROM (${resolvedFacts}) f WHERE value IS NOT NULL) AS "resolutionMedian",
  (SELECT COALESCE(sum(ratings), 0) FROM by_user)::int AS ratings,
  (SELECT (sum("ratingSum")::numeric / NULLIF(sum("ratingValues"), 0))::float8 FROM by_user) AS "ratingAverage"`;

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
      with: statisticsCtes(ctx, f, p).ctes,
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
      sql: (({ ctes, totals }) => `${ctes} ${totals}`)(statisticsCtes(ctx, f, p)),
      read: ([row]) => readTotals(row),
    };
  },

  /** The page and the totals out of one run of the aggregates (they are the expensive part). */
  page(ctx, f, p, pageNumber, pageSize) {
    const { ctes, totals } = statisticsCtes(ctx, f, p);
    const limit = p.bind(pageSize, 'int');
    const offset = p.bind((pageNumber - 1) * pageSize, 'int');
    return {
      sql: `${ctes}, totals AS (${totals}),
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
