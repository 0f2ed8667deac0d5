import type { NotePage, NoteRow, ProtocolPage, ProtocolRow, TicketRecordsQuery } from '@shared/schemas/ticket-records';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { reportTimeZone } from '../reports/report-sql';
import { SettingsService } from '../settings/settings.service';
import { buildNotesSql, buildProtocolsSql, type TicketRecordsScope, type TicketRecordsSql } from './ticket-records.query';
import { authorizeTicketRecords } from './ticket-records.policy';
import { TicketViewerLoader } from './ticket-viewer';

type RecordDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock'>;
type Row = Record<string, unknown>;

const iso = (value: unknown): string => new Date(value as string | Date).toISOString();
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const idOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * Protocols and notes across the tickets of the caller's tenant (issue #14 item 9): a page of
 * either list with the count of every match. The statements are built by ticket-records.query.ts
 * from the caller's ticket viewer and the tenant's time zone.
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
    const { rows, count } = await this.run(buildProtocolsSql(await this.scope(auth), q));
    const protocols: ProtocolRow[] = rows.map((r) => ({
      ticketId: Number(r.ticketId),
      protocol: String(r.protocol),
      status: String(r.status),
      contactId: Number(r.contactId),
      contactName: textOrNull(r.contactName),
      userId: idOrNull(r.userId),
      userName: textOrNull(r.userName),
      createdAt: iso(r.createdAt),
    }));
    return { protocols, ...pageFacts(q, rows.length, count) };
  }

  /** GET /tickets/notes: notes of every ticket the caller may see, newest first. */
  async notes(auth: AuthContext, q: TicketRecordsQuery): Promise<NotePage> {
    authorizeTicketRecords(auth);
    const { rows, count } = await this.run(buildNotesSql(await this.scope(auth), q));
    const notes: NoteRow[] = rows.map((r) => ({
      id: Number(r.id),
      ticketId: Number(r.ticketId),
      protocol: textOrNull(r.protocol),
      note: String(r.note),
      contactId: Number(r.contactId),
      contactName: textOrNull(r.contactName),
      userId: idOrNull(r.userId),
      userName: textOrNull(r.userName),
      createdAt: iso(r.createdAt),
    }));
    return { notes, ...pageFacts(q, rows.length, count) };
  }

  /** The page's rows and the count, side by side (one after the other on the embedded store). */
  private async run(sql: TicketRecordsSql): Promise<{ rows: Row[]; count: number }> {
    const [rows, counted] = await Promise.all([
      this.deps.dataSource.query(sql.pageSql, sql.pageParams) as Promise<Row[]>,
      this.deps.dataSource.query(sql.countSql, sql.countParams) as Promise<{ count: number }[]>,
    ]);
    return { rows, count: Number(counted[0]?.count ?? 0) };
  }

  private async scope(auth: AuthContext): Promise<TicketRecordsScope> {
    const [settings, viewer] = await Promise.all([this.settings.values(auth), this.viewers.load(auth)]);
    return { viewer, timeZone: reportTimeZone(settings) };
  }
}

function pageFacts(q: TicketRecordsQuery, rows: number, count: number) {
  return {
    count,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
    hasMore: (q.pageNumber - 1) * q.pageSize + rows < count,
  };
}
