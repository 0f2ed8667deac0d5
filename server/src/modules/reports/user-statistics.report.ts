import type { ReportFilters } from '@shared/schemas/reports';
import { toInt, toRounded, type ReportContext, type ReportDefinition } from './report-definition';
import type { SqlParams } from './report-sql';
import { ticketConditions } from './tickets-by-parameters.report';

type Filters = ReportFilters<'estatisticas-atendimentos-usuarios'>;

/**
 * estatisticas-atendimentos-usuarios: one row per user of the tenant (the chosen ones, or all but
 * the platform super administrator), over the tickets created within the period in the chosen
 * queues that the caller may see (the same tickets as atendimentos-por-parametros):
 * - ticketsHandled: those tickets assigned to the user; ticketsResolved: those of them closed;
 * - messagesSent: the user's replies in those tickets (the recorded `reply` facts: agent
 *   messages to the customer, private notes and automated messages excluded);
 * - firstResponse: the ticket's recorded first response time (`firstResponseSeconds`: first
 *   agent reply minus creation; null for tickets the company started, where there was nothing to
 *   respond to), median (percentile_cont) over the user's tickets that have one; resolution:
 *   closing minus creation over their closed tickets;
 * - ratings: count and average of the ratings of the user's tickets.
 * Read from the recorded metrics (issue #13: migration 1763780000000-ticket-metrics), never from
 * the messages: one range of the tickets and one index-only range of the reply facts, joined by
 * hash. The totals row is computed over the same tickets (its medians are the medians of all of
 * them, not a median of medians).
 */
function statisticsCtes(ctx: ReportContext, f: Filters, p: SqlParams): string {
  const tenant = p.bind(ctx.tenantId, 'int');
  const chosen = f.usersIds?.length ? `AND u.id = ANY(${p.bind(f.usersIds, 'int[]')})` : '';
  // A reply comes after its ticket was created: the facts from the period's first instant on.
  const since = `(${p.bind(f.startDate, 'date')}::timestamp AT TIME ZONE ${p.bind(ctx.timeZone, 'text')})`;
  return `WITH people AS (
       SELECT u.id, u.name, u.email FROM users u
        WHERE u."tenantId" = ${tenant} AND u.profile <> 'superadmin' ${chosen}
     ), tk AS MATERIALIZED (
       SELECT t.id, t."userId", t.status, t."createdAt", t."closedAt", t."firstResponseSeconds"
         FROM tickets t
        WHERE ${ticketConditions(ctx, { ...f, usersIds: undefined }, p).join(' AND ')}
     ), sent_by_user AS (
       SELECT e."userId", count(*) AS messages
         FROM ticket_metric_events e JOIN tk ON tk.id = e."ticketId"
        WHERE e."tenantId" = ${tenant} AND e.kind = 'reply' AND e.at >= ${since}
          AND e."userId" IN (SELECT id FROM people)
        GROUP BY e."userId"
     ), per_ticket AS (
       SELECT tk."userId", tk.status,
              tk."firstResponseSeconds"::float8 AS "firstResponse",
              CASE WHEN tk.status = 'closed' AND tk."closedAt" IS NOT NULL
                   THEN EXTRACT(EPOCH FROM (tk."closedAt" - tk."createdAt"))::float8 END AS resolution,
              r.rating
         FROM tk
         LEFT JOIN ticket_ratings r ON r."ticketId" = tk.id
        WHERE tk."userId" IN (SELECT id FROM people)
     ), by_user AS (
       SELECT "userId",
              count(*) AS handled,
              count(*) FILTER (WHERE status = 'closed') AS resolved,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "firstResponse") AS "firstResponseMedian",
              percentile_cont(0.5) WITHIN GROUP (ORDER BY resolution) AS "resolutionMedian",
              count(rating) AS ratings,
              avg(rating)::float8 AS "ratingAverage"
         FROM per_ticket GROUP BY "userId"
     )`;
}

const ROW_SELECT = `u.id AS "userId", u.name AS "userName", u.email,
  COALESCE(b.handled, 0)::int AS "ticketsHandled", COALESCE(b.resolved, 0)::int AS "ticketsResolved",
  COALESCE(s.messages, 0)::int AS "messagesSent",
  b."firstResponseMedian", b."resolutionMedian",
  COALESCE(b.ratings, 0)::int AS "ratingsCount", b."ratingAverage"`;
const ROW_FROM = `FROM people u LEFT JOIN by_user b ON b."userId" = u.id LEFT JOIN sent_by_user s ON s."userId" = u.id`;
const TOTALS_SELECT = `SELECT (SELECT count(*) FROM people)::int AS count,
  count(*)::int AS handled,
  count(*) FILTER (WHERE status = 'closed')::int AS resolved,
  (SELECT COALESCE(sum(messages), 0) FROM sent_by_user)::int AS messages,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY "firstResponse") AS "firstResponseMedian",
  percentile_cont(0.5) WITHIN GROUP (ORDER BY resolution) AS "resolutionMedian",
  count(rating)::int AS ratings,
  avg(rating)::float8 AS "ratingAverage"
  FROM per_ticket`;

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
