import type { NotePage, NoteRow, ProtocolPage, ProtocolRow, TicketRecordsQuery } from '@shared/schemas/ticket-records';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { SqlParams, reportTimeZone } from '../reports/report-sql';
import { SettingsService } from '../settings/settings.service';
import { authorizeTicketRecords } from './ticket-records.policy';
import { TicketViewerLoader } from './ticket-viewer';
import { visibilitySql, type TicketViewer } from './ticket-visibility.policy';

type RecordDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock'>;
type Row = Record<string, unknown>;

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** A search typed as a phone number ("(11) 9876-5432", "+55 11 9876"): also matched by its digits. */
const NUMBER_LIKE = /^[\d\s()+.-]+$/;
const iso = (value: unknown): string => new Date(value as string | Date).toISOString();

/**
 * Protocols and notes across the tickets of the caller's tenant (issue #14 item 9), one page at a
 * time by offset (the table's page numbers) with the count of every match. Each statement starts
 * from the caller's tenant and adds the ticket visibility policy's SQL for the caller (showAll, as
 * the reports: a privileged viewer reads the whole tenant, a supervisor without privileges what
 * they may see). Names are scalar subqueries, evaluated for the rows of the page only.
 *
 * Indexes: protocols walk `tickets_created_stats_idx ("tenantId", "createdAt")`; notes walk
 * `ticket_notes_tenant_created_idx ("tenantId", "createdAt" DESC, id DESC)`, and a note text
 * search can use `ticket_notes_search_idx` (trigrams of the folded text).
 */
export class TicketRecordsService {
  private readonly viewers: TicketViewerLoader;
  private readonly settings: SettingsService;

  constructor(private readonly deps: RecordDeps) {
    this.viewers = new TicketViewerLoader(deps);
    this.settings = new SettingsService(deps);
  }

  /** GET /protocol: tickets' protocols, newest ticket first. */
  async protocols(auth: AuthContext, q: TicketRecordsQuery): Promise<ProtocolPage> {
    authorizeTicketRecords(auth);
    const { viewer, timeZone } = await this.context(auth);
    const p = new SqlParams();
    const where = [`t."tenantId" = ${p.bind(auth.tenantId, 'int')}`, `t.protocol IS NOT NULL`];
    where.push(...periodConditions('t."createdAt"', q, timeZone, p));
    const term = q.search ?? '';
    if (term !== '') where.push(`(${[`t.protocol LIKE ${p.bind(`%${escapeLike(term)}%`)}`, ...ticketSearch(term, p)].join(' OR ')})`);
    where.push(...visibility(viewer, p));
    const { rows, count } = await this.page(
      `SELECT t.id AS "ticketId", t.protocol, t.status, t."createdAt", t."contactId", t."userId",
              (SELECT c.name FROM contacts c WHERE c.id = t."contactId") AS "contactName",
              (SELECT u.name FROM users u WHERE u.id = t."userId") AS "userName"`,
      `FROM tickets t`,
      where,
      `t."createdAt" DESC, t.id DESC`,
      p,
      q,
    );
    const protocols: ProtocolRow[] = rows.map((r) => ({
      ticketId: Number(r.ticketId),
      protocol: String(r.protocol),
      status: String(r.status),
      contactId: Number(r.contactId),
      contactName: (r.contactName as string | null) ?? null,
      userId: (r.userId as number | null) ?? null,
      userName: (r.userName as string | null) ?? null,
      createdAt: iso(r.createdAt),
    }));
    return { protocols, ...pageFacts(q, rows.length, count) };
  }

  /** GET /tickets/notes: notes of every ticket the caller may see, newest first. */
  async notes(auth: AuthContext, q: TicketRecordsQuery): Promise<NotePage> {
    authorizeTicketRecords(auth);
    const { viewer, timeZone } = await this.context(auth);
    const p = new SqlParams();
    const tenant = p.bind(auth.tenantId, 'int');
    const where = [`n."tenantId" = ${tenant}`, `t."tenantId" = ${tenant}`];
    where.push(...periodConditions('n."createdAt"', q, timeZone, p));
    const term = q.search ?? '';
    if (term !== '') {
      const like = `'%' || lower(public.immutable_unaccent(${p.bind(escapeLike(term), 'text')})) || '%'`;
      const matches = [
        `lower(public.immutable_unaccent(n.note)) LIKE ${like}`,
        `t.protocol LIKE ${p.bind(`%${escapeLike(term)}%`)}`,
        ...ticketSearch(term, p),
      ];
      where.push(`(${matches.join(' OR ')})`);
    }
    where.push(...visibility(viewer, p));
    const { rows, count } = await this.page(
      `SELECT n.id, n."ticketId", n.note, n."userId", n."createdAt", t.protocol, t."contactId",
              (SELECT c.name FROM contacts c WHERE c.id = t."contactId") AS "contactName",
              (SELECT u.name FROM users u WHERE u.id = n."userId") AS "userName"`,
      `FROM ticket_notes n JOIN tickets t ON t.id = n."ticketId"`,
      where,
      `n."createdAt" DESC, n.id DESC`,
      p,
      q,
    );
    const notes: NoteRow[] = rows.map((r) => ({
      id: Number(r.id),
      ticketId: Number(r.ticketId),
      protocol: (r.protocol as string | null) ?? null,
      note: String(r.note),
      contactId: Number(r.contactId),
      contactName: (r.contactName as string | null) ?? null,
      userId: (r.userId as number | null) ?? null,
      userName: (r.userName as string | null) ?? null,
      createdAt: iso(r.createdAt),
    }));
    return { notes, ...pageFacts(q, rows.length, count) };
  }

  /** The page's rows and the count, as two statements side by side (one after the other on the embedded store). */
  private async page(
    select: string,
    from: string,
    where: string[],
    orderBy: string,
    p: SqlParams,
    q: TicketRecordsQuery,
  ): Promise<{ rows: Row[]; count: number }> {
    const conditions = where.join(' AND ');
    const countParams = [...p.values];
    const pageParams = [...p.values, q.pageSize, (q.pageNumber - 1) * q.pageSize];
    const [rows, counted] = await Promise.all([
      this.deps.dataSource.query(
        `${select} ${from} WHERE ${conditions} ORDER BY ${orderBy} LIMIT $${pageParams.length - 1}::int OFFSET $${pageParams.length}::int`,
        pageParams,
      ) as Promise<Row[]>,
      this.deps.dataSource.query(`SELECT count(*)::int AS count ${from} WHERE ${conditions}`, countParams) as Promise<
        { count: number }[]
      >,
    ]);
    return { rows, count: Number(counted[0]?.count ?? 0) };
  }

  private async context(auth: AuthContext): Promise<{ viewer: TicketViewer; timeZone: string }> {
    const [settings, viewer] = await Promise.all([this.settings.values(auth), this.viewers.load(auth)]);
    return { viewer, timeZone: reportTimeZone(settings) };
  }
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
 * The ticket's contact (name or e-mail contains the term, accents and case ignored, through the
 * contacts' generated search columns; a number-like term by its digits) or agent (name).
 */
function ticketSearch(term: string, p: SqlParams): string[] {
  const folded = `'%' || lower(public.immutable_unaccent(${p.bind(escapeLike(term), 'text')})) || '%'`;
  const contact = [`sc."searchText" LIKE ${folded}`];
  const digits = term.replace(/\D/g, '');
  if (NUMBER_LIKE.test(term) && digits.length >= 2) contact.push(`sc."searchDigits" LIKE ${p.bind(`%${digits}%`)}`);
  return [
    `EXISTS (SELECT 1 FROM contacts sc WHERE sc.id = t."contactId" AND (${contact.join(' OR ')}))`,
    `EXISTS (SELECT 1 FROM users su WHERE su.id = t."userId" AND lower(public.immutable_unaccent(su.name)) LIKE ${folded})`,
  ];
}

function visibility(viewer: TicketViewer, p: SqlParams): string[] {
  const visible = visibilitySql(viewer, { showAll: true }, p.values);
  return visible ? [visible] : [];
}

function pageFacts(q: TicketRecordsQuery, rows: number, count: number) {
  return {
    count,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
    hasMore: (q.pageNumber - 1) * q.pageSize + rows < count,
  };
}
