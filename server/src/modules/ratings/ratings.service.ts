import type { RatingListAnswer, RatingListQuery, RatingRow, RatingSummary } from '@shared/schemas/ratings';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { SqlParams, periodCondition } from '../reports/report-sql';
import { timeZoneOfTenant } from '../settings/tenant-time-zone';
import { ratingSettingsOf } from '../tickets/ticket-closing';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import { visibilitySql } from '../tickets/ticket-visibility.policy';
import { authorizeRatings } from './ratings.policy';

interface RatingDbRow extends Omit<RatingRow, 'label' | 'ratedAt'> {
  ratedAt: Date;
}

interface SummaryDbRow {
  g: number;
  rating: number | null;
  userId: number | null;
  queueId: number | null;
  name: string | null;
  count: number;
  average: number | null;
}

/** GROUPING(r.rating, r."userId", t."queueId") of each grouping set. */
const TOTAL = 7;
const BY_RATING = 3;
const BY_USER = 5;
const BY_QUEUE = 6;

/**
 * GET /ratings: the ratings (ticket_ratings) given in a period of the tenant's days, of the
 * tickets the caller may see (ticket visibility policy, as the ticket reports), filtered by the
 * ticket's queue, the rated agent and the score; one page of them, newest first, and over all of
 * them the count, the average, the distribution by score and the averages by agent and by queue,
 * in one GROUPING SETS statement.
 */
export class RatingsService {
  private readonly viewers: TicketViewerLoader;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.viewers = new TicketViewerLoader(deps);
  }

  async list(auth: AuthContext, query: RatingListQuery): Promise<RatingListAnswer> {
    authorizeRatings(auth);
    const db = this.deps.dataSource;
    const viewer = await this.viewers.load(auth);
    const timeZone = await timeZoneOfTenant(db, auth.tenantId);
    const { labels } = await ratingSettingsOf(db, auth.tenantId);

    const conditions = (p: SqlParams): string => {
      const tenant = p.bind(auth.tenantId, 'int');
      const where = [
        `r."tenantId" = ${tenant}`,
        `t."tenantId" = ${tenant}`,
        periodCondition('r."createdAt"', query, timeZone, p),
      ];
      if (query.queuesIds?.length) where.push(`t."queueId" = ANY(${p.bind(query.queuesIds, 'int[]')})`);
      if (query.usersIds?.length) where.push(`r."userId" = ANY(${p.bind(query.usersIds, 'int[]')})`);
      if (query.ratings?.length) where.push(`r.rating = ANY(${p.bind(query.ratings, 'int[]')})`);
      const visible = visibilitySql(viewer, { showAll: true }, p.values);
      if (visible) where.push(visible);
      return where.join(' AND ');
    };

    const rowsParams = new SqlParams();
    const rowsWhere = conditions(rowsParams);
    const limit = rowsParams.bind(query.pageSize, 'int');
    const offset = rowsParams.bind((query.pageNumber - 1) * query.pageSize, 'int');
    const rows = (await db.query(
      `SELECT r."ticketId", t.protocol, t."contactId", c.name AS "contactName", c.number AS "contactNumber",
              r."userId", u.name AS "userName", t."queueId", q.name AS "queueName", r.rating, r.attempts,
              r."createdAt" AS "ratedAt"
         FROM ticket_ratings r
         JOIN tickets t ON t.id = r."ticketId"
         JOIN contacts c ON c.id = t."contactId"
         LEFT JOIN users u ON u.id = r."userId"
         LEFT JOIN queues q ON q.id = t."queueId"
        WHERE ${rowsWhere}
        ORDER BY r."createdAt" DESC, r.id DESC
        LIMIT ${limit} OFFSET ${offset}`,
      rowsParams.values,
    )) as RatingDbRow[];

    const summaryParams = new SqlParams();
    const summaryWhere = conditions(summaryParams);
    const groups = (await db.query(
      `SELECT s.*,
              CASE s.g WHEN ${BY_USER} THEN (SELECT name FROM users WHERE id = s."userId")
                       WHEN ${BY_QUEUE} THEN (SELECT name FROM queues WHERE id = s."queueId") END AS name
         FROM (SELECT GROUPING(r.rating, r."userId", t."queueId")::int AS g, r.rating, r."userId", t."queueId",
                      count(*)::int AS count, round(avg(r.rating)::numeric, 2)::float8 AS average
                 FROM ticket_ratings r
                 JOIN tickets t ON t.id = r."ticketId"
                WHERE ${summaryWhere}
                GROUP BY GROUPING SETS ((), (r.rating), (r."userId"), (t."queueId"))) s`,
      summaryParams.values,
    )) as SummaryDbRow[];

    const total = groups.find((g) => g.g === TOTAL) ?? { count: 0, average: null };
    const byRating = new Map(groups.filter((g) => g.g === BY_RATING).map((g) => [g.rating, g.count]));
    const byCount = <T extends { count: number; name: string }>(a: T, b: T) => b.count - a.count || a.name.localeCompare(b.name);
    const summary: RatingSummary = {
      count: total.count,
      average: total.count > 0 ? total.average : null,
      distribution: labels.map((label, rating) => ({ rating, label, count: byRating.get(rating) ?? 0 })),
      byUser: groups
        .filter((g) => g.g === BY_USER)
        .map((g) => ({
          userId: g.userId,
          name: g.name ?? (g.userId === null ? 'Sem atendente' : 'Usuário removido'),
          count: g.count,
          average: g.average,
        }))
        .sort(byCount),
      byQueue: groups
        .filter((g) => g.g === BY_QUEUE)
        .map((g) => ({ queueId: g.queueId, name: g.name ?? 'Sem fila', count: g.count, average: g.average }))
        .sort(byCount),
    };
    return {
      ratings: rows.map((row) => ({ ...row, label: labels[row.rating] ?? '', ratedAt: new Date(row.ratedAt).toISOString() })),
      count: summary.count,
      hasMore: query.pageNumber * query.pageSize < summary.count,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      summary,
    };
  }
}
