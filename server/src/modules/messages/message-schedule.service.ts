import {
  SCHEDULED_MESSAGES_PAGE_SIZE,
  isWallTimeText,
  parseScheduleDate,
  type MessageDto,
  type ScheduleMessageInput,
  type ScheduledMessageDto,
  type ScheduledMessagesQuery,
  type ScheduledMessagesResponse,
  type UpdateMessageInput,
} from '@shared/schemas/messages';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { reportTimeZone } from '../reports/report-sql';
import { SettingsService } from '../settings/settings.service';
import { recordOutboundMessages, recordTicketsOpened } from '../tickets/ticket-metrics';
import { upsertActiveTicket } from '../tickets/ticket-upsert';
import { MessageAccess } from './message-access';
import { emitMessages } from './message-events';
import { activeTicketOf, closeEmptyHoldingTicket, holdingTicket } from './message-schedule-ticket';
import { discardMedia, type ReceivedMedia } from './message-media';
import { insertOutbound, serverClientId } from './message-store';
import { emitTicketChanged, touchTicketForOutbound } from './message-ticket-events';
import { loadTicket, type MessageTicket } from './message-ticket';
import { renderForTicket } from './message-variables.values';
import { authorizeMessageChange, visibleTicketsSql } from './messages.policy';
import { presentMessage, type MessageRow } from './messages.presenter';
import { MESSAGE_SELECT, returnedRows, selectMessagesByIds } from './messages.query';

/** What a scheduled row keeps in dataJson.schedule. */
interface ScheduleData {
  recurrenceDays: number;
  /** Sends of the series in all, this one included. */
  repetitions: number;
  /** 1-based position of this row in the series. */
  occurrence: number;
  /** The first row's client id: the next rows are `${seriesId}#r${n}`, so a sweep run twice adds none twice. */
  seriesId: string;
}

const DAY_MS = 24 * 3600_000;
const PROMOTE_BATCH = 50;

/** Message statuses behind each list filter but `scheduled` and `all`. */
const LIST_STATUSES: Record<'sent' | 'failed' | 'canceled', string[]> = {
  sent: ['pending', 'sent', 'delivered', 'read'],
  failed: ['failed'],
  canceled: ['canceled'],
};

const notPending = () => new AppError('ERR_SCHEDULE_NOT_PENDING');

/**
 * Scheduled messages (spec section 5 "Scheduling a message", section 9 recurrence): a message
 * row with status `scheduled`, `scheduleDate` and `nextRetryAt` = that date, so the outbound
 * sweep's index finds it. When due it becomes `pending` (message variables filled then, as at
 * any send) and is delivered like any message; a recurring one adds the next row of its series
 * in the same transaction. Canceling (PATCH status 'canceled', DELETE /messagesSchedule/{id} or
 * DELETE /messages) keeps the row with status `canceled`.
 *
 * Ticket status `schedule` (spec section 4): scheduling for a contact without an ongoing ticket
 * does not open a pending ticket in the agents' queue; it holds the message in a ticket with
 * status `schedule` (one per contact and channel), whose next action is the scheduled send. When
 * the first message is due the ticket becomes `pending` (or, if the customer wrote meanwhile and
 * has an ongoing ticket, the message goes there); a `schedule` ticket left without scheduled
 * messages (all canceled or moved) is closed.
 */
export class MessageScheduleService {
  private readonly access: MessageAccess;
  private readonly settings: SettingsService;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger'>) {
    this.access = new MessageAccess(deps);
    this.settings = new SettingsService(deps);
  }

  /**
   * The date as the request typed it: a wall time (no offset) is read in the tenant's `timeZone`
   * setting (default America/Sao_Paulo, the zone the schema parsed it in); an ISO date with an
   * offset is kept.
   */
  async tenantDate(auth: AuthContext, parsed: Date, typed: unknown): Promise<Date> {
    if (!isWallTimeText(typed)) return parsed;
    const zone = reportTimeZone(await this.settings.values(auth));
    return parseScheduleDate(typed, zone) ?? parsed;
  }

  /**
   * POST /messagesSchedule/. With `ticketId`, on that ticket; with `contactId`, on the
   * contact's ongoing ticket, or a new pending one on the default channel when there is none.
   */
  async create(
    auth: AuthContext,
    input: ScheduleMessageInput,
    files: ReceivedMedia[] = [],
  ): Promise<{ status: 200 | 201; message: MessageDto }> {
    try {
      const result = await this.createRow(auth, input, files[0] ?? null, files.length);
      // A retry of a request already stored keeps the first request's file.
      if (!result.created) await discardMedia(files);
      return { status: result.created ? 201 : 200, message: result.message };
    } catch (err) {
      await discardMedia(files);
      throw err;
    }
  }

  private async createRow(
    auth: AuthContext,
    input: ScheduleMessageInput,
    file: ReceivedMedia | null,
    fileCount: number,
  ): Promise<{ created: boolean; message: MessageDto }> {
    const now = this.deps.clock.now();
    if (fileCount > 1) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'medias', message: 'um só arquivo por agendamento' }] });
    }
    if (!file && !input.body.trim()) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'Mensagem é obrigatório' }] });
    }
    if (input.scheduleDate.getTime() <= now.getTime()) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'scheduleDate', message: 'Data inválida: deve ser no futuro' }] });
    }
    const viewer = await this.access.viewer(auth);
    const clientId = input.clientId ?? serverClientId('sch');
    const schedule: ScheduleData = {
      recurrenceDays: input.recurrenceDays,
      repetitions: input.recurrenceDays > 0 ? input.repetitions : 1,
      occurrence: 1,
      seriesId: clientId,
    };
    let ticket: MessageTicket | null = null;
    if (input.ticketId !== undefined) {
      ticket = (await this.access.ticket(auth, input.ticketId, { viewer })).ticket;
      if (input.contactId !== undefined && ticket.contactId !== input.contactId) {
        throw new AppError('ERR_VALIDATION', { fields: [{ path: 'contactId', message: 'não é o contato deste atendimento' }] });
      }
    }
    const written = await this.deps.events.transaction(async (tx, emit) => {
      let created = false;
      if (!ticket) {
        const [contact] = (await tx.query(`SELECT id, "isGroup" FROM contacts WHERE id = $1 AND "tenantId" = $2`, [
          input.contactId,
          auth.tenantId,
        ])) as { id: number; isGroup: boolean }[];
        if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
        const [channel] = (await tx.query(`SELECT id, type FROM channels WHERE "tenantId" = $1 AND "isDefault"`, [
          auth.tenantId,
        ])) as {
          id: number;
          type: string;
        }[];
        const held = await holdingTicket(tx, {
          tenantId: auth.tenantId,
          contactId: contact.id,
          channelId: channel?.id ?? null,
          channelType: channel?.type ?? null,
          isGroup: contact.isGroup,
          actorUserId: auth.userId,
        });
        created = held.created;
        ticket = (await this.access.ticket(auth, held.id, { viewer, db: tx })).ticket;
      }
      const row = await insertOutbound(
        tx,
        ticket,
        auth.userId,
        {
          body: input.body,
          mediaType: file?.mediaType ?? 'chat',
          mediaPath: file?.relativePath ?? null,
          mediaName: file?.fileName ?? null,
          mimeType: file?.mimeType ?? null,
          clientId,
          isPrivate: false,
          status: 'scheduled',
          scheduleDate: input.scheduleDate,
          dataJson: { schedule },
        },
        now,
      );
      if (created) await emitTicketChanged(tx, emit, ticket.id, 'create');
      if (row.created) await emitMessages(tx, emit, ticket, 'create', [row.id]);
      return row;
    });
    const [stored] = await selectMessagesByIds(this.deps.dataSource, [written.id]);
    return { created: written.created, message: presentMessage(stored) };
  }

  /**
   * GET /scheduleMessages/: the tenant's scheduled messages the caller may see. `status`
   * `scheduled` (default): the waiting ones, soonest first; otherwise the rows that were scheduled
   * and are now sent, failed or canceled (or all of them), latest date first. `contactId` narrows
   * to one contact.
   */
  async list(auth: AuthContext, query: Pick<ScheduledMessagesQuery, 'page' | 'pageNumber' | 'status' | 'contactId'>): Promise<ScheduledMessagesResponse> {
    const page = query.pageNumber ?? query.page;
    const status = query.status ?? 'scheduled';
    const viewer = await this.access.viewer(auth);
    const params: unknown[] = [auth.tenantId];
    const conditions = [`m."tenantId" = $1`];
    if (status === 'scheduled') conditions.push(`m.status = 'scheduled'`);
    else {
      conditions.push(`m."scheduleDate" IS NOT NULL`, `NOT m."isPrivate"`);
      if (status !== 'all') {
        params.push(LIST_STATUSES[status]);
        conditions.push(`m.status = ANY($${params.length}::varchar[])`);
      }
    }
    if (query.contactId !== undefined) {
      params.push(query.contactId);
      conditions.push(`m."contactId" = $${params.length}`);
    }
    const order = status === 'scheduled' ? `m."scheduleDate", m.id` : `m."scheduleDate" DESC, m.id DESC`;
    const visible = visibleTicketsSql(viewer, params);
    if (visible) conditions.push(visible);
    const where = conditions.join(' AND ');
    params.push(SCHEDULED_MESSAGES_PAGE_SIZE + 1, (page - 1) * SCHEDULED_MESSAGES_PAGE_SIZE);
    const rows: (MessageRow & { c_id: number; c_name: string; c_number: string | null })[] = await this.deps.dataSource.query(
      `${MESSAGE_SELECT.replace('SELECT', 'SELECT c.id AS c_id, c.name AS c_name, c.number AS c_number,')}
         JOIN tickets t ON t.id = m."ticketId"
         JOIN contacts c ON c.id = t."contactId"
        WHERE ${where}
        ORDER BY ${order}
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const [{ count }] = (await this.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM messages m JOIN tickets t ON t.id = m."ticketId" WHERE ${where}`,
      params.slice(0, -2),
    )) as { count: number }[];
    const messages: ScheduledMessageDto[] = rows.slice(0, SCHEDULED_MESSAGES_PAGE_SIZE).map((row) => ({
      ...presentMessage(row),
      contact: { id: row.c_id, name: row.c_name, number: row.c_number },
    }));
    return { messages, count, hasMore: rows.length > SCHEDULED_MESSAGES_PAGE_SIZE };
  }

  /**
   * PATCH /messages/{id} on a scheduled message: text, date, recurrence, or `status:
   * 'canceled'`. Its author or a privileged viewer.
   */
  async update(auth: AuthContext, messageId: number, input: UpdateMessageInput): Promise<MessageDto> {
    const { message, ticket, viewer } = await this.access.message(auth, messageId);
    if (message.status !== 'scheduled') throw notPending();
    authorizeMessageChange(auth, viewer, message);
    if (input.scheduleDate && input.scheduleDate.getTime() <= this.deps.clock.now().getTime()) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'scheduleDate', message: 'Data inválida: deve ser no futuro' }] });
    }
    const current = message.schedule ?? { recurrenceDays: 0, repetitions: 1, occurrence: 1 };
    const recurrenceDays = input.recurrenceDays ?? current.recurrenceDays;
    const schedule = {
      ...current,
      recurrenceDays,
      repetitions:
        recurrenceDays > 0 ? Math.max(input.repetitions ?? current.repetitions, current.occurrence) : current.occurrence,
    };
    await this.deps.events.transaction(async (tx, emit) => {
      const updated = returnedRows<{ id: string }>(
        await tx.query(
          `UPDATE messages
              SET body = COALESCE($2, body),
                  "scheduleDate" = COALESCE($3, "scheduleDate"),
                  "nextRetryAt" = CASE WHEN $4::boolean THEN NULL ELSE COALESCE($3, "nextRetryAt") END,
                  status = CASE WHEN $4::boolean THEN 'canceled' ELSE status END,
                  "dataJson" = jsonb_set(COALESCE("dataJson", '{}'::jsonb), '{schedule}', $5::jsonb),
                  "updatedAt" = now()
            WHERE id = $1 AND status = 'scheduled'
            RETURNING id`,
          [message.id, input.body ?? null, input.scheduleDate ?? null, input.status === 'canceled', JSON.stringify(schedule)],
        ),
      );
      // The sweep took it meanwhile: it is being sent, too late to change.
      if (updated.length === 0) throw notPending();
      await emitMessages(tx, emit, ticket, input.status === 'canceled' ? 'delete' : 'update', [Number(message.id)]);
      if (input.status === 'canceled') await closeEmptyHoldingTicket(tx, emit, ticket.id);
    });
    const [row] = await selectMessagesByIds(this.deps.dataSource, [Number(message.id)]);
    return presentMessage(row);
  }

  /**
   * Moves due scheduled messages to pending (the outbound sweep then sends them). Each row in
   * its own transaction, claimed with SKIP LOCKED so several workers share the work. A message
   * whose ticket was closed meanwhile goes to the contact's ongoing ticket (created if needed).
   */
  async promoteDue(): Promise<number> {
    let promoted = 0;
    for (;;) {
      const now = this.deps.clock.now();
      const due = (await this.deps.dataSource.query(
        `SELECT id FROM messages WHERE status = 'scheduled' AND "nextRetryAt" <= $1 ORDER BY "nextRetryAt", id LIMIT $2`,
        [now, PROMOTE_BATCH],
      )) as { id: string }[];
      for (const { id } of due) {
        try {
          if (await this.promote(Number(id), now)) promoted++;
        } catch (err) {
          this.deps.logger.error({ err, messageId: id }, 'could not promote a scheduled message');
        }
      }
      if (due.length < PROMOTE_BATCH) return promoted;
    }
  }

  private async promote(id: number, now: Date): Promise<boolean> {
    return this.deps.events.transaction(async (tx, emit) => {
      const [row] = (await tx.query(
        `SELECT id, "tenantId", "ticketId", "userId", body, "clientId", "scheduleDate", "mediaType", "mediaName", "mediaPath", "mimeType",
                "dataJson"->'schedule' AS schedule
           FROM messages WHERE id = $1 AND status = 'scheduled' AND "nextRetryAt" <= $2 FOR UPDATE SKIP LOCKED`,
        [id, now],
      )) as {
        id: string;
        tenantId: number;
        ticketId: number;
        userId: number | null;
        body: string;
        clientId: string | null;
        scheduleDate: Date;
        mediaType: string;
        mediaName: string | null;
        mediaPath: string | null;
        mimeType: string | null;
        schedule: ScheduleData | null;
      }[];
      if (!row) return false;
      let ticket = await loadTicket(tx, row.ticketId);
      if (!ticket) return false;
      let createdTicket = false;
      const heldTicketId = ticket.status === 'schedule' ? ticket.id : null;
      if (heldTicketId !== null && !(await activeTicketOf(tx, ticket))) {
        // The ticket held for this send: it enters the queue now, as a new pending ticket.
        await tx.query(
          `UPDATE tickets SET status = 'pending', "createdAt" = $2, "lastMessageAt" = $2, "updatedAt" = now() WHERE id = $1`,
          [ticket.id, now],
        );
        await recordTicketsOpened(tx, [ticket.id]);
        createdTicket = true;
        ticket = (await loadTicket(tx, ticket.id)) as MessageTicket;
      } else if (ticket.status !== 'open' && ticket.status !== 'pending') {
        const [contact] = (await tx.query(`SELECT "isGroup" FROM contacts WHERE id = $1`, [ticket.contactId])) as {
          isGroup: boolean;
        }[];
        const [channel] = (await tx.query(`SELECT type FROM channels WHERE id = $1`, [ticket.whatsappId])) as { type: string }[];
        const upserted = await upsertActiveTicket(tx, {
          tenantId: ticket.tenantId,
          contactId: ticket.contactId,
          channelId: ticket.whatsappId,
          channelType: channel?.type ?? null,
          isGroup: contact?.isGroup ?? false,
        });
        createdTicket = upserted.created;
        ticket = (await loadTicket(tx, upserted.ticket.id)) as MessageTicket;
      }
      const schedule = row.schedule;
      let nextId: number | null = null;
      if (schedule && schedule.recurrenceDays > 0 && schedule.occurrence < schedule.repetitions) {
        const next = schedule.occurrence + 1;
        const seriesId = schedule.seriesId ?? row.clientId ?? `sch-${row.id}`;
        const inserted = await insertOutbound(
          tx,
          ticket,
          row.userId,
          {
            // The series keeps the text as typed: variables are filled at each send.
            body: row.body,
            mediaType: row.mediaType,
            mediaPath: row.mediaPath,
            mediaName: row.mediaName,
            mimeType: row.mimeType,
            clientId: `${seriesId}#r${next}`,
            isPrivate: false,
            status: 'scheduled',
            scheduleDate: new Date(new Date(row.scheduleDate).getTime() + schedule.recurrenceDays * DAY_MS),
            dataJson: { schedule: { ...schedule, occurrence: next, seriesId } },
          },
          now,
        );
        if (inserted.created) nextId = inserted.id;
      }
      const body = await renderForTicket(tx, row.body, {
        tenantId: ticket.tenantId,
        ticketId: ticket.id,
        userId: row.userId,
        now,
      });
      await tx.query(
        `UPDATE messages SET status = 'pending', body = $2, "ticketId" = $3, "whatsappId" = $4, "contactId" = $5,
                "nextRetryAt" = $6, "createdAt" = $6, timestamp = $7, "updatedAt" = now()
          WHERE id = $1`,
        [row.id, body, ticket.id, ticket.whatsappId, ticket.contactId, now, Math.floor(now.getTime() / 1000)],
      );
      // Due now: the agent's message reaches the customer, a metric fact like any reply.
      await recordOutboundMessages(tx, ticket.id, [Number(row.id)], row.userId !== null ? 'reply' : 'autoMessage');
      // A file scheduled through POST /messages/{ticketId} keeps its file: only the status moves.
      await touchTicketForOutbound(tx, ticket.id, { body, mediaType: row.mediaType, mediaName: row.mediaName, isPrivate: false }, now);
      await emitTicketChanged(tx, emit, ticket.id, createdTicket ? 'create' : 'update');
      await emitMessages(tx, emit, ticket, ticket.id === row.ticketId ? 'update' : 'create', [Number(row.id)]);
      if (nextId !== null) await emitMessages(tx, emit, ticket, 'create', [nextId]);
      // The message left a held ticket for the contact's ongoing one: close the held one once empty.
      if (heldTicketId !== null && heldTicketId !== ticket.id) await closeEmptyHoldingTicket(tx, emit, heldTicketId);
      return true;
    });
  }
}
