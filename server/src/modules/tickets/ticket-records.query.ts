import type { TicketRecordsQuery } from '@shared/schemas/ticket-records';
import { SqlParams } from '../reports/report-sql';
import { visibilitySql, type TicketViewer } from './ticket-visibility.policy';

/**
 * GET /protocol and GET /tickets/notes as SQL: one statement for the page (offset paging, the
 * table's page numbers) and one for the count of every match, both built from the same
 * conditions. Every statement starts from the caller's tenant and adds the ticket visibility
 * policy's SQL for the caller (showAll, as the reports: a privileged viewer reads the whole
 * tenant, a supervisor without privileges what the user logic lets them see). Names are scalar
 * subqueries, evaluated for the rows of the page only.
 *
 * Indexes: protocols walk `tickets_created_stats_idx ("tenantId", "createdAt")` newest first;
 * notes walk `ticket_notes_tenant_created_idx ("tenantId", "createdAt" DESC, id DESC)` and compare
 * their generated `"searchText"` (trigram-indexed, migration 1763820000000). A search is first an
 * id set (see matchingTickets), then the list's order and page.
 * tests/bench/ticket-records.ts measures both lists on 200,000 tickets and notes.
 */

export interface TicketRecordsSql {
  pageSql: string;
  pageParams: unknown[];
  countSql: string;
  countParams: unknown[];
}

export interface TicketRecordsScope {
  viewer: TicketViewer;
  /** IANA zone the period's days are lived in (the tenant's, as the reports read it). */
  timeZone: string;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** A search typed as a phone number ("(11) 9876-5432", "+55 11 9876"): also matched by its digits. */
const NUMBER_LIKE = /^[\d\s()+.-]+$/;

/** Protocols: tickets with a protocol, newest ticket first. Every condition reads `tickets t` only. */
export function buildProtocolsSql(scope: TicketRecordsScope, q: TicketRecordsQuery): TicketRecordsSql {
  const p = new SqlParams();
  const tenant = p.bind(scope.viewer.tenantId, 'int');
  const where = [`t."tenantId" = ${tenant}`, `t.protocol IS NOT NULL`];
  where.push(...periodConditions('t."createdAt"', q, scope.timeZone, p));
  let hits = '';
  if (q.search) {
    const period = periodConditions('st."createdAt"', q, scope.timeZone, p);
    hits = `WITH hits AS MATERIALIZED (${matchingTickets(tenant, q.search, p, period)})`;
    where.push(`t.id IN (SELECT id FROM hits)`);
  }
  where.push(...visibility(scope.viewer, p));
  return statements(
    p,
    q,
    hits,
    `SELECT t.id AS "ticketId", t.protocol, t.status, t."createdAt", t."contactId", t."userId",
            (SELECT c.name FROM contacts c WHERE c.id = t."contactId") AS "contactName",
            (SELECT u.name FROM users u WHERE u.id = t."userId") AS "userName"`,
    `FROM tickets t`,
    where,
    `t."createdAt" DESC, t.id DESC`,
  );
}

/**
 * Notes of the tickets the caller may see, newest note first. Every condition reads
 * `ticket_notes n` only (ticket facts through id sets), so the count needs no join; the ticket's
 * protocol and contact are scalar subqueries, which PostgreSQL evaluates after the sort and the
 * limit, for the rows of the page only.
 */
export function buildNotesSql(scope: TicketRecordsScope, q: TicketRecordsQuery): TicketRecordsSql {
  const p = new SqlParams();
  const tenant = p.bind(scope.viewer.tenantId, 'int');
  const where = [`n."tenantId" = ${tenant}`];
  where.push(...periodConditions('n."createdAt"', q, scope.timeZone, p));
  let hits = '';
  if (q.search) {
    const folded = p.bind(`%${escapeLike(q.search)}%`, 'text');
    const period = periodConditions('sn."createdAt"', q, scope.timeZone, p).map((c) => ` AND ${c}`).join('');
    hits = `WITH hits AS MATERIALIZED (
      SELECT sn.id FROM ticket_notes sn
       WHERE sn."tenantId" = ${tenant} AND sn."searchText" LIKE lower(public.immutable_unaccent(${folded}))${period}
      UNION
      SELECT sn.id FROM ticket_notes sn WHERE sn."ticketId" IN (${matchingTickets(tenant, q.search, p, [])})${period})`;
    where.push(`n.id IN (SELECT id FROM hits)`);
  }
  const visible = visibility(scope.viewer, p);
  if (visible.length) where.push(`n."ticketId" IN (SELECT t.id FROM tickets t WHERE t."tenantId" = ${tenant} AND ${visible.join(' AND ')})`);
  return statements(
    p,
    q,
    hits,
    `SELECT n.id, n."ticketId", n.note, n."userId", n."createdAt",
            (SELECT t.protocol FROM tickets t WHERE t.id = n."ticketId") AS protocol,
            (SELECT t."contactId" FROM tickets t WHERE t.id = n."ticketId") AS "contactId",
            (SELECT c.name FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE t.id = n."ticketId") AS "contactName",
            (SELECT u.name FROM users u WHERE u.id = n."userId") AS "userName"`,
    `FROM ticket_notes n`,
    where,
    `n."createdAt" DESC, n.id DESC`,
  );
}

/**
 * The page and the count of one list. `withHits` is the search's id set (a materialized CTE,
 * computed once, each part through its own index).
 */
function statements(
  p: SqlParams,
  q: TicketRecordsQuery,
  withHits: string,
  select: string,
  from: string,
  where: string[],
  orderBy: string,
): TicketRecordsSql {
  const conditions = where.join(' AND ');
  const countParams = [...p.values];
  const limit = p.bind(q.pageSize, 'int');
  const offset = p.bind((q.pageNumber - 1) * q.pageSize, 'int');
  return {
    pageSql: `${withHits} ${select} ${from} WHERE ${conditions} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
    pageParams: p.values,
    countSql: `${withHits} SELECT count(*)::int AS count ${from} WHERE ${conditions}`,
    countParams,
  };
}

/**
 * The open or closed period on `column`: from midnight of startDate to midnight after endDate in
 * the tenant's zone (`day::timestamp AT TIME ZONE zone`, as the reports count days), so
 * daylight-saving days keep their 23 or 25 hours and an index on the column serves both bounds.
 */
function periodConditions(column: string, q: Pick<TicketRecordsQuery, 'startDate' | 'endDate'>, timeZone: string, p: SqlParams): string[] {
  const out: string[] = [];
  if (!q.startDate && !q.endDate) return out;
  const zone = p.bind(timeZone, 'text');
  if (q.startDate) out.push(`${column} >= (${p.bind(q.startDate, 'date')}::timestamp AT TIME ZONE ${zone})`);
  if (q.endDate) out.push(`${column} < ((${p.bind(q.endDate, 'date')} + 1)::timestamp AT TIME ZONE ${zone})`);
  return out;
}

/**
 * The ids of the tenant's tickets matching a search, as a UNION whose parts each use their own
 * access path: the protocol contains the term (a scan of the tenant's protocols); the contact's
 * name or e-mail contains it, accents and case ignored, or a number-like term's digits are in its
 * number (the contacts' generated search columns and their trigram indexes, then
 * tickets_contact_idx); the agent's name contains it (then tickets_user_list_idx). `extra` are
 * conditions on `st` every part adds (the protocols' period).
 */
function matchingTickets(tenant: string, term: string, p: SqlParams, extra: readonly string[]): string {
  const and = extra.map((c) => ` AND ${c}`).join('');
  const folded = `lower(public.immutable_unaccent(${p.bind(`%${escapeLike(term)}%`, 'text')}))`;
  const contact = [`sc."searchText" LIKE ${folded}`];
  const digits = term.replace(/\D/g, '');
  if (NUMBER_LIKE.test(term) && digits.length >= 2) contact.push(`sc."searchDigits" LIKE ${p.bind(`%${digits}%`)}`);
  return [
    `SELECT st.id FROM tickets st WHERE st."tenantId" = ${tenant} AND st.protocol LIKE ${p.bind(`%${escapeLike(term)}%`)}${and}`,
    `SELECT st.id FROM tickets st WHERE st."tenantId" = ${tenant}${and}
       AND st."contactId" IN (SELECT sc.id FROM contacts sc WHERE sc."tenantId" = ${tenant} AND (${contact.join(' OR ')}))`,
    `SELECT st.id FROM tickets st WHERE st."tenantId" = ${tenant}${and}
       AND st."userId" IN (SELECT su.id FROM users su WHERE su."tenantId" = ${tenant} AND lower(public.immutable_unaccent(su.name)) LIKE ${folded})`,
  ].join(' UNION ');
}

function visibility(viewer: TicketViewer, p: SqlParams): string[] {
  const visible = visibilitySql(viewer, { showAll: true }, p.values);
  return visible ? [visible] : [];
}
