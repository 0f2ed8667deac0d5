import type { TicketListQuery, TicketStatus } from '@shared/schemas/tickets';
import { AppError } from '../../core/app-error';
import { TICKET_COLUMNS, TICKET_FROM } from './tickets.presenter';
import { visibilityAccessPaths, visibilitySql, type TicketViewer } from './ticket-visibility.policy';

/**
 * GET /tickets as SQL: one statement for the page and one cheap count (LESSONS 4).
 *
 * Order: newest activity first, `"lastMessageAt" DESC, id DESC`. The page is taken in branches
 * (UNION ALL, merged in order), one per status and access path (see accessPaths): each walks a
 * keyset index (tickets_list_idx, tickets_queue_list_idx or tickets_user_list_idx, all ending in
 * "lastMessageAt" DESC, id DESC) from the top and stops after the page, applying visibility and
 * filters as it goes. A plain `status IN (...)` would instead read every matching row and sort.
 *
 * Paging: the answer carries `nextCursor` (the last row's exact time in microseconds and id);
 * sent back as `cursor`, the next page starts strictly after it, an index seek wherever the
 * list is. Clients of the anchor that only send `pageNumber` get OFFSET paging (each branch
 * reads offset + page rows), which is exact but grows with the page number and may repeat or
 * skip a ticket that moved between requests.
 */

export interface TicketListSql {
  pageSql: string;
  pageParams: unknown[];
  countSql: string;
  countParams: unknown[];
  pageSize: number;
}

interface Cursor {
  /** Microseconds since the epoch, as text (exact, beyond JS number precision needs). */
  micros: string;
  id: number;
}

export function encodeCursor(micros: string, id: number): string {
  return Buffer.from(`${micros}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): Cursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(-?\d{1,19})\.(\d{1,10})$/.exec(text);
  if (!match) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'cursor', message: 'cursor inválido' }] });
  return { micros: match[1], id: Number(match[2]) };
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Filters of the attendance filter (all but status), starting from the tenant and visibility. */
function filterConditions(viewer: TicketViewer, q: TicketListQuery, params: unknown[]): string[] {
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [`t."tenantId" = ${bind(viewer.tenantId)}`];
  const visible = visibilitySql(viewer, { showAll: q.showAll }, params);
  if (visible) where.push(visible);

  const term = q.searchParam?.trim() ?? '';
  if (term !== '') {
    const matches = [`sc.name ILIKE ${bind(`%${escapeLike(term)}%`)}`];
    const digits = term.replace(/\D/g, '');
    if (digits.length >= 2) matches.push(`sc.number LIKE ${bind(`%${digits}%`)}`);
    where.push(
      `(t.protocol = ${bind(term)} OR EXISTS (SELECT 1 FROM contacts sc WHERE sc.id = t."contactId" AND (${matches.join(' OR ')})))`,
    );
  }
  if (q.queuesIds?.length) {
    where.push(`(t."queueId" = ANY(${bind(q.queuesIds)}::int[])${q.includeNotQueueDefined ? ` OR t."queueId" IS NULL` : ''})`);
  } else if (!q.includeNotQueueDefined) {
    where.push(`t."queueId" IS NOT NULL`);
  }
  if (q.whatsappIds?.length) where.push(`t."whatsappId" = ANY(${bind(q.whatsappIds)}::int[])`);
  if (q.selectedUser?.length) where.push(`t."userId" = ANY(${bind(q.selectedUser)}::int[])`);
  if (q.withUnreadMessages) where.push(`t."unreadMessages" > 0`);
  if (q.isNotAssignedUser) where.push(`t."userId" IS NULL`);
  if (q.tags?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM contact_tags ft WHERE ft."contactId" = t."contactId" AND ft."tagId" = ANY(${bind(q.tags)}::int[]))`,
    );
  }
  if (q.kanbanIds?.length) where.push(`t."kanbanId" = ANY(${bind(q.kanbanIds)}::int[])`);
  return where;
}

/**
 * The branches of one status: each a condition matching an index prefix after (tenant, status)
 * order, together covering every ticket the filter and visibility can answer. The full WHERE
 * still applies in each branch, so the answer is exactly the rule's; paths only choose indexes.
 * - queuesIds filter: one branch per queue (tickets_queue_list_idx), plus "no queue" if included;
 * - else a viewer confined to queues and own tickets: one branch per queue, "no queue" when
 *   visible, and the viewer's own tickets (tickets_user_list_idx);
 * - else one branch for the whole status (tickets_list_idx).
 */
function accessPaths(viewer: TicketViewer, q: TicketListQuery, status: TicketStatus, bind: (v: unknown) => string): string[] {
  let queueIds: number[];
  let nullQueue: boolean;
  let userId: number | null = null;
  if (q.queuesIds?.length) {
    queueIds = q.queuesIds;
    nullQueue = q.includeNotQueueDefined;
  } else {
    const paths = visibilityAccessPaths(viewer, { showAll: q.showAll }, status);
    if (!paths) return [''];
    queueIds = paths.queueIds;
    nullQueue = paths.nullQueue && q.includeNotQueueDefined;
    userId = paths.userId;
  }
  const conditions = [...new Set(queueIds)].map((id) => `t."queueId" = ${bind(id)}`);
  if (nullQueue) conditions.push(`t."queueId" IS NULL`);
  if (userId !== null) conditions.push(`t."userId" = ${bind(userId)}`);
  // Nothing can match (no queue, no own ticket path): a branch that reads nothing.
  return conditions.length ? conditions : ['false'];
}

const CURSOR_COLUMN = `(extract(epoch FROM t."lastMessageAt") * 1000000)::bigint::text AS "cursorMicros"`;

export function buildTicketListSql(viewer: TicketViewer, q: TicketListQuery): TicketListSql {
  const statuses = [...new Set(q.status)] as TicketStatus[];
  const pageSize = q.pageSize;

  const pageParams: unknown[] = [];
  const bind = (value: unknown): string => {
    pageParams.push(value);
    return `$${pageParams.length}`;
  };
  const common = filterConditions(viewer, q, pageParams).join(' AND ');
  let after = '';
  let offset = 0;
  if (q.cursor) {
    const cursor = decodeCursor(q.cursor);
    after = ` AND (t."lastMessageAt", t.id) < (timestamptz 'epoch' + ${bind(cursor.micros)}::bigint * interval '1 microsecond', ${bind(cursor.id)}::int)`;
  } else {
    offset = (q.pageNumber - 1) * pageSize;
  }
  // One more row than the page tells whether there is a next page.
  const branchLimit = bind(offset + pageSize + 1);
  const branches: string[] = [];
  for (const status of statuses) {
    const statusParam = bind(status);
    for (const path of accessPaths(viewer, q, status, bind)) {
      branches.push(
        `(SELECT t.id, t."lastMessageAt" FROM tickets t
           WHERE ${common} AND t.status = ${statusParam}${path ? ` AND ${path}` : ''}${after}
           ORDER BY t."lastMessageAt" DESC, t.id DESC LIMIT ${branchLimit})`,
      );
    }
  }
  // A ticket can come from two paths (its queue and its user): DISTINCT keeps it once.
  const page = `SELECT DISTINCT id, "lastMessageAt" FROM (${branches.join(' UNION ALL ')}) b
     ORDER BY "lastMessageAt" DESC, id DESC LIMIT ${bind(pageSize + 1)} OFFSET ${bind(offset)}`;
  const pageSql = `WITH page AS MATERIALIZED (${page})
    SELECT ${TICKET_COLUMNS}, ${CURSOR_COLUMN} ${TICKET_FROM}
     WHERE t.id IN (SELECT id FROM page)
     ORDER BY t."lastMessageAt" DESC, t.id DESC`;

  const fast = pathCount(viewer, q, statuses);
  if (fast) return { pageSql, pageParams, countSql: fast.sql, countParams: fast.params, pageSize };
  const countParams: unknown[] = [];
  const countWhere = filterConditions(viewer, q, countParams);
  countParams.push(statuses);
  const countSql = `SELECT count(*)::int AS count FROM tickets t WHERE ${countWhere.join(' AND ')} AND t.status = ANY($${countParams.length}::varchar[])`;
  return { pageSql, pageParams, countSql, countParams, pageSize };
}

/**
 * The count of the default filter (no search, no other filter) for a viewer confined to queues
 * and own tickets, as disjoint parts that read only index columns: tickets of the viewer's
 * queues (tickets_queue_list_idx, index-only), of no queue when visible, and the viewer's own
 * tickets elsewhere (tickets_user_list_idx). Equal to the generic count whenever
 * visibilityAccessPaths says the queue paths are wholly visible; null otherwise.
 */
function pathCount(
  viewer: TicketViewer,
  q: TicketListQuery,
  statuses: TicketStatus[],
): { sql: string; params: unknown[] } | null {
  const filtered =
    (q.searchParam?.trim() ?? '') !== '' ||
    q.queuesIds?.length ||
    !q.includeNotQueueDefined ||
    q.whatsappIds?.length ||
    q.selectedUser?.length ||
    q.withUnreadMessages ||
    q.isNotAssignedUser ||
    q.tags?.length ||
    q.kanbanIds?.length;
  if (filtered) return null;
  const paths = statuses.map((status) => visibilityAccessPaths(viewer, { showAll: q.showAll }, status));
  const first = paths[0];
  if (!first || paths.some((p) => !p || !p.queuePathsVisible || p.nullQueue !== first.nullQueue)) return null;
  const nullQueue = first.nullQueue && q.includeNotQueueDefined;
  const params: unknown[] = [viewer.tenantId, statuses, viewer.queueIds, viewer.userId];
  const parts = [
    `(SELECT count(*) FROM tickets t WHERE t."tenantId" = $1 AND t.status = ANY($2::varchar[]) AND t."queueId" = ANY($3::int[]))`,
  ];
  if (nullQueue)
    parts.push(
      `(SELECT count(*) FROM tickets t WHERE t."tenantId" = $1 AND t.status = ANY($2::varchar[]) AND t."queueId" IS NULL)`,
    );
  const elsewhere = nullQueue
    ? `t."queueId" IS NOT NULL AND NOT (t."queueId" = ANY($3::int[]))`
    : `(t."queueId" IS NULL OR NOT (t."queueId" = ANY($3::int[])))`;
  // Own tickets are always visible (the policy's first opener); only those outside the paths above.
  parts.push(
    `(SELECT count(*) FROM tickets t WHERE t."tenantId" = $1 AND t.status = ANY($2::varchar[]) AND t."userId" = $4 AND ${elsewhere})`,
  );
  return { sql: `SELECT (${parts.join(' + ')})::int AS count`, params };
}
