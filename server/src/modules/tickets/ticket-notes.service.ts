import { SOCKET_EVENTS } from '@shared/events';
import type { TicketNoteDto, TicketNoteEventPayload, TicketRatingDto } from '@shared/schemas/tickets';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { ratingSettingsOf } from './ticket-closing';
import { recordRating } from './ticket-metrics';
import { TicketViewerLoader } from './ticket-viewer';
import { applyTicketChange, lockTicket, selectTicket, ticketAudienceOf } from './ticket-writes';
import { authorizeNoteDelete, authorizeTicket } from './tickets.policy';
import { audienceFactsOf, presentNote, type TicketNoteRow } from './tickets.presenter';

const NOTE_SELECT = `SELECT n.id, n."ticketId", n.note, n."userId", u.name AS "userName", n."createdAt"
  FROM ticket_notes n LEFT JOIN users u ON u.id = n."userId"`;

/**
 * Internal notes of a ticket (never sent to the contact) and its rating (0 to 5, labelled by the
 * tenant's rating labels). Both follow ticket visibility: whoever sees the ticket reads and adds
 * notes; a note is deleted by its author or a privileged viewer. Note events go to the ticket
 * audience as `ticket:note`.
 */
export class TicketNotesService {
  private readonly viewers: TicketViewerLoader;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.viewers = new TicketViewerLoader(deps);
  }

  async list(auth: AuthContext, ticketId: number): Promise<TicketNoteDto[]> {
    const viewer = await this.viewers.load(auth);
    const ticket = authorizeTicket(viewer, 'read', await selectTicket(this.deps.dataSource, ticketId), audienceFactsOf);
    const rows: TicketNoteRow[] = await this.deps.dataSource.query(
      `${NOTE_SELECT} WHERE n."ticketId" = $1 AND n."tenantId" = $2 ORDER BY n.id`,
      [ticket.id, ticket.tenantId],
    );
    return rows.map(presentNote);
  }

  async add(auth: AuthContext, ticketId: number, note: string): Promise<TicketNoteDto> {
    const viewer = await this.viewers.load(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const ticket = authorizeTicket(viewer, 'note', await selectTicket(tx, ticketId), audienceFactsOf);
      const [{ id }] = (await tx.query(
        `INSERT INTO ticket_notes ("tenantId", "ticketId", "userId", note) VALUES ($1, $2, $3, $4) RETURNING id`,
        [ticket.tenantId, ticket.id, auth.userId, note],
      )) as { id: number }[];
      const [row] = (await tx.query(`${NOTE_SELECT} WHERE n.id = $1`, [id])) as TicketNoteRow[];
      const dto = presentNote(row);
      const payload: TicketNoteEventPayload = { action: 'create', ticketId: ticket.id, note: dto };
      await emit(ticket.tenantId, SOCKET_EVENTS.ticketNote, payload, ticketAudienceOf(ticket));
      return dto;
    });
  }

  /** DELETE /tickets/notes/{id}: a note of another tenant, or of a ticket the caller cannot see, is not found. */
  async remove(auth: AuthContext, noteId: number): Promise<void> {
    const viewer = await this.viewers.load(auth);
    await this.deps.events.transaction(async (tx, emit) => {
      const [note] = (await tx.query(
        `SELECT id, "ticketId", "userId", "tenantId" FROM ticket_notes WHERE id = $1 AND "tenantId" = $2 FOR UPDATE`,
        [noteId, auth.tenantId],
      )) as { id: number; ticketId: number; userId: number | null; tenantId: number }[];
      if (!note) throw new AppError('ERR_NOT_FOUND');
      const ticket = await selectTicket(tx, note.ticketId);
      try {
        authorizeTicket(viewer, 'read', ticket, audienceFactsOf);
      } catch {
        throw new AppError('ERR_NOT_FOUND');
      }
      authorizeNoteDelete(viewer, note);
      await tx.query(`DELETE FROM ticket_notes WHERE id = $1`, [note.id]);
      const payload: TicketNoteEventPayload = { action: 'delete', ticketId: note.ticketId, noteId: note.id };
      await emit(auth.tenantId, SOCKET_EVENTS.ticketNote, payload, ticketAudienceOf(ticket!));
    });
  }

  /**
   * POST /tickets/{ticketId}/rating: records (or corrects) the ticket's rating, attributed to
   * the ticket's agent; logged and announced as a ticket update.
   */
  async rate(auth: AuthContext, ticketId: number, rating: number): Promise<TicketRatingDto> {
    const viewer = await this.viewers.load(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      await lockTicket(tx, auth.tenantId, ticketId);
      const ticket = authorizeTicket(viewer, 'rate', await selectTicket(tx, ticketId), audienceFactsOf);
      const [row] = (await tx.query(
        `INSERT INTO ticket_ratings ("tenantId", "ticketId", "userId", rating) VALUES ($1, $2, $3, $4)
         ON CONFLICT ("ticketId") DO UPDATE SET rating = EXCLUDED.rating, "createdAt" = now()
         RETURNING rating, "userId", attempts, "createdAt"`,
        [ticket.tenantId, ticket.id, ticket.userId, rating],
      )) as { rating: number; userId: number | null; attempts: number; createdAt: Date }[];
      await recordRating(tx, ticket.id);
      const label = (await ratingSettingsOf(tx, ticket.tenantId)).labels[rating] ?? '';
      await applyTicketChange(
        tx,
        emit,
        ticket,
        {},
        { type: 'rating', userId: auth.userId, data: { rating, label, source: 'agent' } },
      );
      return {
        ticketId: ticket.id,
        rating: row.rating,
        label,
        userId: row.userId,
        attempts: row.attempts,
        createdAt: new Date(row.createdAt).toISOString(),
      };
    });
  }
}
