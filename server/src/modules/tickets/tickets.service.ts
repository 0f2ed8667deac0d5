import type { EntityManager } from 'typeorm';
import { MASS_RESOLVE_BLOCK } from '@shared/limits';
import {
  INTEGRATION_STATUS_FIELDS,
  type CreateTicketInput,
  type ForceTicketInput,
  type MassResultDto,
  type MassTransferInput,
  type NullUserTicketInput,
  type TicketChannelIdInput,
  type TicketChatBotInput,
  type TicketDetailDto,
  type TicketDto,
  type TicketListQuery,
  type TicketListResponse,
  type TicketLogDto,
  type TicketsChannelInput,
  type TicketsClearQuery,
  type TicketsMarkAllReadQuery,
  type UpdateTicketInput,
} from '@shared/schemas/tickets';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { noticeTicketAssignment } from './ticket-assignment-notice';
import { CHATBOT_RUN_JOB, chatFlowOf, writeBotStart } from './ticket-bot';
import { upsertActiveTicket } from './ticket-upsert';
import { renderForTicket } from './ticket-variables';
import { emitMessages } from '../messages/message-events';
import { closedSet, farewellMessageOf, farewellSet, ratingSettingsOf, type CloseReason } from './ticket-closing';
import { buildTicketListSql, encodeCursor } from './ticket-list.query';
import { TicketViewerLoader } from './ticket-viewer';
import { isPrivilegedViewer, visibilitySql, type TicketViewer } from './ticket-visibility.policy';
import {
  applyTicketChange,
  emitTicket,
  findActiveTicket,
  guardOneActive,
  insertTicketLog,
  lockTicket,
  messageTicketOf,
  otherOpenTicketError,
  queueOutboundText,
  selectTicket,
  type TicketLogEntry,
  type TicketSet,
} from './ticket-writes';
import { authorizeTicket, authorizeTicketsAction, type TicketAction } from './tickets.policy';
import { audienceFactsOf, presentLog, presentTicket, type TicketLogRow, type TicketRow } from './tickets.presenter';

type TicketsDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger' | 'jobs'>;

/** What a change computes from the locked ticket: columns to write and the log row. */
interface Change {
  set: TicketSet;
  log: TicketLogEntry | null;
  /** Automated messages the change queued (farewell, rating request): announced after the ticket's update. */
  messages?: number[];
}

const NO_CHANGE: Change = { set: {}, log: null };

const isActive = (status: string) => status === 'open' || status === 'pending';

/**
 * Tickets: the attendance list, single loads, and every transition of spec section 4. Each
 * transition locks the ticket, checks the policy (tickets.policy.ts: same tenant, visible, may
 * act), writes the change with a ticket_logs row and records ticket:update to the ticket audience
 * in the same transaction (ticket-writes.ts).
 */
export class TicketsService {
  readonly viewers: TicketViewerLoader;

  constructor(private readonly deps: TicketsDeps) {
    this.viewers = new TicketViewerLoader(deps);
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  // ---------- Reading ----------

  /** GET /tickets: one query for the page, one for the count (ticket-list.query.ts). */
  async list(auth: AuthContext, query: TicketListQuery): Promise<TicketListResponse> {
    const viewer = await this.viewers.load(auth);
    const sql = buildTicketListSql(viewer, query);
    const [rows, count] = await Promise.all([
      this.deps.dataSource.query(sql.pageSql, sql.pageParams) as Promise<(TicketRow & { cursorMicros: string })[]>,
      query.count
        ? (this.deps.dataSource.query(sql.countSql, sql.countParams) as Promise<{ count: number }[]>).then((r) => r[0].count)
        : Promise.resolve(null),
    ]);
    const hasMore = rows.length > sql.pageSize;
    const page = rows.slice(0, sql.pageSize);
    const last = page[page.length - 1];
    return {
      tickets: page.map(presentTicket),
      count,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(last.cursorMicros, last.id) : null,
    };
  }

  /** GET /tickets/{id}: the ticket with its demand, kanban column, rating and scheduled messages. */
  async get(auth: AuthContext, ticketId: number): Promise<TicketDetailDto> {
    const viewer = await this.viewers.load(auth);
    const row = authorizeTicket(viewer, 'read', await selectTicket(this.deps.dataSource, ticketId), audienceFactsOf);
    return this.detail(this.deps.dataSource, row);
  }

  /** Spy (spec section 4): a privileged viewer opens the ticket without taking it; logged. */
  async spy(auth: AuthContext, ticketId: number): Promise<TicketDetailDto> {
    const viewer = await this.viewers.load(auth);
    const row = await this.deps.events.transaction(async (tx) => {
      const current = authorizeTicket(viewer, 'spy', await selectTicket(tx, ticketId), audienceFactsOf);
      await insertTicketLog(tx, current.tenantId, current.id, { type: 'spy', userId: auth.userId });
      return current;
    });
    return this.detail(this.deps.dataSource, row);
  }

  async logs(auth: AuthContext, ticketId: number): Promise<TicketLogDto[]> {
    const viewer = await this.viewers.load(auth);
    const ticket = authorizeTicket(viewer, 'read', await selectTicket(this.deps.dataSource, ticketId), audienceFactsOf);
    const rows: TicketLogRow[] = await this.deps.dataSource.query(
      `SELECT l.id, l."ticketId", l.type, l."userId", u.name AS "userName", l.data, l."createdAt"
         FROM ticket_logs l LEFT JOIN users u ON u.id = l."userId"
        WHERE l."ticketId" = $1 AND l."tenantId" = $2
        ORDER BY l.id`,
      [ticket.id, ticket.tenantId],
    );
    return rows.map(presentLog);
  }

  private async detail(db: Queryable, row: TicketRow): Promise<TicketDetailDto> {
    const [extra] = (await db.query(
      `SELECT (SELECT json_build_object('id', d.id, 'name', d.name) FROM demands d WHERE d.id = t."demandId") AS demand,
              (SELECT json_build_object('id', k.id, 'name', k.name, 'color', k.color) FROM kanbans k WHERE k.id = t."kanbanId") AS kanban,
              (SELECT json_build_object('rating', r.rating, 'userId', r."userId", 'attempts', r.attempts, 'createdAt', r."createdAt")
                 FROM ticket_ratings r WHERE r."ticketId" = t.id) AS rating,
              COALESCE((SELECT json_agg(json_build_object('id', m.id, 'body', m.body, 'scheduleDate', m."scheduleDate") ORDER BY m."scheduleDate", m.id)
                          FROM messages m WHERE m."ticketId" = t.id AND m.status = 'scheduled'), '[]'::json) AS "scheduledMessages"
         FROM tickets t WHERE t.id = $1`,
      [row.id],
    )) as {
      demand: { id: number; name: string } | null;
      kanban: { id: number; name: string; color: string } | null;
      rating: { rating: number; userId: number | null; attempts: number; createdAt: string } | null;
      scheduledMessages: { id: number; body: string; scheduleDate: string }[];
    }[];
    const labels = extra.rating ? (await ratingSettingsOf(db, row.tenantId)).labels : [];
    return {
      ...presentTicket(row),
      demand: extra.demand,
      kanban: extra.kanban,
      rating: extra.rating
        ? {
            ticketId: row.id,
            rating: extra.rating.rating,
            label: labels[extra.rating.rating] ?? '',
            userId: extra.rating.userId,
            attempts: extra.rating.attempts,
            createdAt: new Date(extra.rating.createdAt).toISOString(),
          }
        : null,
      scheduledMessages: extra.scheduledMessages.map((m) => ({
        id: Number(m.id),
        body: m.body,
        scheduleDate: new Date(m.scheduleDate).toISOString(),
      })),
    };
  }

  // ---------- The write skeleton ----------

  /**
   * Locks the ticket, authorises `action`, applies what `work` computes, logs and announces it,
   * in one transaction. Conflicts with another active ticket become 409 ERR_OTHER_OPEN_TICKET.
   */
  private async mutate(
    auth: AuthContext,
    ticketId: number,
    action: TicketAction,
    work: (tx: EntityManager, current: TicketRow, viewer: TicketViewer) => Promise<Change>,
  ): Promise<TicketDto> {
    const viewer = await this.viewers.load(auth);
    let conflictKey: { tenantId: number; contactId: number; channelId: number | null } | undefined;
    const run = () =>
      this.deps.events.transaction(async (tx, emit) => {
        await lockTicket(tx, auth.tenantId, ticketId);
        const current = authorizeTicket(viewer, action, await selectTicket(tx, ticketId), audienceFactsOf);
        const change = await work(tx, current, viewer);
        conflictKey = {
          tenantId: current.tenantId,
          contactId: current.contactId,
          channelId: (change.set.whatsappId as number | undefined) ?? current.whatsappId,
        };
        if (Object.keys(change.set).length === 0 && !change.log) return presentTicket(current);
        const after = await applyTicketChange(tx, emit, current, change.set, change.log);
        // Announced like every automated message (appMessage:create to whoever may see the
        // ticket), so an open chat shows the farewell or the rating request before delivery.
        if (change.messages?.length) await emitMessages(tx, emit, messageTicketOf(after), 'create', change.messages);
        return presentTicket(after);
      });
    return guardOneActive(this.deps.dataSource, () => conflictKey, run);
  }

  // ---------- PUT /tickets/{id} ----------

  /** Routes the body to its transition (see UpdateTicketSchema for the four shapes). */
  update(auth: AuthContext, ticketId: number, input: UpdateTicketInput): Promise<TicketDto> {
    const integration = INTEGRATION_STATUS_FIELDS.find((k) => input[k] !== undefined);
    if (integration) {
      const value = input[integration] ?? null;
      return this.mutate(auth, ticketId, 'change', async (_tx, current) =>
        current[integration] === value
          ? NO_CHANGE
          : {
              set: { [integration]: value },
              log: {
                type: 'integration',
                userId: auth.userId,
                data: { field: integration, from: current[integration], to: value },
              },
            },
      );
    }
    if (input.unreadMessages !== undefined) {
      const unread = input.unreadMessages;
      return this.mutate(auth, ticketId, 'markRead', async (_tx, current) =>
        current.unreadMessages === unread ? NO_CHANGE : { set: { unreadMessages: unread }, log: null },
      );
    }
    const transfer =
      input.isTransference === true ||
      (input.status === undefined && (input.queueId !== undefined || input.userId !== undefined));
    if (transfer) return this.transfer(auth, ticketId, input);
    if (input.status !== undefined) return this.transition(auth, ticketId, input);
    return this.mutate(auth, ticketId, 'change', async (tx, current) => {
      const set = await this.generalFields(tx, current, input);
      return Object.keys(set).length === 0
        ? NO_CHANGE
        : { set, log: { type: 'update', userId: auth.userId, data: { changes: set } } };
    });
  }

  /** Classification fields (any shape may carry them), each checked against the tenant. */
  private async generalFields(tx: Queryable, current: TicketRow, input: UpdateTicketInput): Promise<TicketSet> {
    const set: TicketSet = {};
    if (input.kanbanId !== undefined && input.kanbanId !== current.kanbanId) {
      if (input.kanbanId !== null) await this.assertRow(tx, 'kanbans', input.kanbanId, current.tenantId, 'ERR_NO_KANBAN_FOUND');
      set.kanbanId = input.kanbanId;
    }
    if (input.demandId !== undefined && input.demandId !== current.demandId) {
      if (input.demandId !== null) await this.assertRow(tx, 'demands', input.demandId, current.tenantId, 'ERR_NO_DEMAND_FOUND');
      set.demandId = input.demandId;
    }
    if (input.value !== undefined && (input.value === null ? current.value !== null : Number(current.value) !== input.value))
      set.value = input.value;
    if (input.isGroup !== undefined && input.isGroup !== current.isGroup) set.isGroup = input.isGroup;
    if (input.chatFlowId !== undefined && input.chatFlowId !== current.chatFlowId) set.chatFlowId = input.chatFlowId;
    if (input.botActive !== undefined && input.botActive !== current.botActive) set.botActive = input.botActive;
    return set;
  }

  private async assertRow(
    tx: Queryable,
    table: 'kanbans' | 'demands' | 'queues' | 'users' | 'channels',
    id: number,
    tenantId: number,
    notFound: ConstructorParameters<typeof AppError>[0],
  ): Promise<void> {
    const rows = await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 AND "tenantId" = $2`, [id, tenantId]);
    if (rows.length === 0) throw new AppError(notFound);
  }

  /** Status transitions: start, take, return to queue, resolve (farewell / rating), reopen. */
  private transition(auth: AuthContext, ticketId: number, input: UpdateTicketInput): Promise<TicketDto> {
    const status = input.status as 'open' | 'pending' | 'closed';
    return this.mutate(auth, ticketId, 'reopen', async (tx, current, viewer) => {
      const now = this.now();
      const general = await this.generalFields(tx, current, input);
      if (input.queueId !== undefined && input.queueId !== current.queueId) {
        if (input.queueId !== null) await this.assertRow(tx, 'queues', input.queueId, current.tenantId, 'ERR_NO_QUEUE_FOUND');
        general.queueId = input.queueId;
      }
      if (current.status === 'schedule') throw new AppError('ERR_TICKET_STATUS_TRANSITION');
      // Acting on a ticket assigned to someone else needs privileges; reopening a closed one does not.
      if (current.status !== 'closed') authorizeTicket(viewer, 'change', current, audienceFactsOf);

      if (current.status === 'closed') {
        if (status === 'closed') return NO_CHANGE;
        const userId = status === 'pending' ? null : (input.userId ?? auth.userId);
        if (userId !== null && userId !== auth.userId) await this.assertAssignable(tx, viewer, current.tenantId, userId);
        const existing = await findActiveTicket(tx, current.tenantId, current.contactId, current.whatsappId);
        if (existing) throw otherOpenTicketError(existing);
        return {
          set: {
            ...general,
            status,
            userId,
            closedAt: null,
            closeAt: null,
            closeReason: null,
            ratingRequestedAt: null,
            startedAt: status === 'open' ? now : null,
          },
          log: { type: 'reopen', userId: auth.userId, data: { status, toUserId: userId } },
        };
      }

      if (status === 'open') {
        const userId = input.userId ?? auth.userId;
        if (current.status === 'open' && current.userId === userId) {
          return Object.keys(general).length
            ? { set: general, log: { type: 'update', userId: auth.userId, data: { changes: general } } }
            : NO_CHANGE;
        }
        if (userId !== auth.userId) await this.assertAssignable(tx, viewer, current.tenantId, userId);
        const taking = current.status === 'pending' && current.userId === null && userId === auth.userId;
        return {
          set: { ...general, status: 'open', userId, startedAt: current.startedAt ?? now, closeAt: null, closeReason: null },
          log: {
            type: taking ? 'start' : 'assign',
            userId: auth.userId,
            data: { fromStatus: current.status, fromUserId: current.userId, toUserId: userId },
          },
        };
      }

      if (status === 'pending') {
        if (input.userId !== undefined && input.userId !== null) {
          throw new AppError('ERR_VALIDATION', {
            fields: [{ path: 'userId', message: 'um atendimento pendente volta para a fila, sem usuário' }],
          });
        }
        if (current.status === 'pending' && current.userId === null) {
          return Object.keys(general).length
            ? { set: general, log: { type: 'update', userId: auth.userId, data: { changes: general } } }
            : NO_CHANGE;
        }
        return {
          set: { ...general, status: 'pending', userId: null, closeAt: null, closeReason: null },
          log: {
            type: 'return',
            userId: auth.userId,
            data: { fromUserId: current.userId, queueId: general.queueId ?? current.queueId },
          },
        };
      }

      // status === 'closed'
      if (current.closeAt !== null || current.ratingRequestedAt !== null) return NO_CHANGE;
      const responsible = current.userId ?? auth.userId;
      const rating = await ratingSettingsOf(tx, current.tenantId);
      const wantsRating = input.requestRating ?? rating.enabled;
      if (wantsRating && current.whatsappId !== null && !current.isGroup && rating.message.trim()) {
        const request = await renderForTicket(tx, rating.message.trim(), {
          tenantId: current.tenantId,
          ticketId: current.id,
          userId: responsible,
          now,
        });
        const requestId = await queueOutboundText(tx, current, request, { userId: auth.userId, now, kind: 'ratingRequest' });
        return {
          messages: [requestId],
          set: {
            ...general,
            userId: responsible,
            ratingRequestedAt: now,
            lastMessage: request,
            lastMessageAt: now,
          },
          log: { type: 'ratingRequest', userId: auth.userId, data: { attempt: 1 } },
        };
      }
      const farewellText = input.sendFarewellMessage === false || current.isGroup ? null : await farewellMessageOf(tx, current);
      const farewell = farewellText
        ? await renderForTicket(tx, farewellText, { tenantId: current.tenantId, ticketId: current.id, userId: responsible, now })
        : null;
      if (farewell) {
        const farewellId = await queueOutboundText(tx, current, farewell, { userId: auth.userId, now, kind: 'farewell' });
        return {
          messages: [farewellId],
          set: { ...general, userId: responsible, ...farewellSet(now), lastMessage: farewell, lastMessageAt: now },
          log: { type: 'farewell', userId: auth.userId, data: { closeAt: farewellSet(now).closeAt } },
        };
      }
      return this.closeChange(general, now, 'resolved', auth.userId, responsible, 'resolve');
    });
  }

  private closeChange(
    general: TicketSet,
    now: Date,
    reason: CloseReason,
    actor: number,
    userId: number | null,
    type: string,
  ): Change {
    return { set: { ...general, ...closedSet(now, reason), userId }, log: { type, userId: actor, data: { reason } } };
  }

  /** Assigning a ticket to another user: a user of the tenant, and only by privileged viewers. */
  private async assertAssignable(tx: Queryable, viewer: TicketViewer, tenantId: number, userId: number): Promise<void> {
    if (!isPrivilegedViewer(viewer)) throw new AppError('ERR_NO_PERMISSION');
    await this.assertRow(tx, 'users', userId, tenantId, 'ERR_NO_USER_FOUND');
  }

  /**
   * Transfer to a queue and/or a user (spec section 5). Refused when nothing would change:
   * same queue and user 'a esta fila e usuário', same user 'ao seu usuário' (the caller) or
   * 'ao usuário selecionado'. A queue transfer without a user puts the ticket back in the queue
   * (pending); with a user it is open for them. A human takes over from the chatbot.
   */
  private transfer(auth: AuthContext, ticketId: number, input: UpdateTicketInput): Promise<TicketDto> {
    return this.mutate(auth, ticketId, 'change', async (tx, current) => {
      if (!isActive(current.status)) throw new AppError('ERR_TICKET_STATUS_TRANSITION');
      const queueChanging = input.queueId !== undefined && input.queueId !== current.queueId;
      const userChanging = input.userId !== undefined && input.userId !== current.userId;
      if (!queueChanging && !userChanging) {
        if (input.queueId !== undefined && input.userId !== undefined) throw new AppError('ERR_TICKET_ALREADY_QUEUE_USER');
        const target = input.userId !== undefined ? input.userId : current.userId;
        if (target !== null && target === auth.userId) throw new AppError('ERR_TICKET_ALREADY_YOURS');
        if (target !== null) throw new AppError('ERR_TICKET_ALREADY_USER');
        throw new AppError('ERR_TICKET_ALREADY_QUEUE_USER');
      }
      if (queueChanging && input.queueId !== null) {
        await this.assertRow(tx, 'queues', input.queueId as number, current.tenantId, 'ERR_NO_QUEUE_FOUND');
      }
      if (userChanging && input.userId !== null)
        await this.assertRow(tx, 'users', input.userId as number, current.tenantId, 'ERR_NO_USER_FOUND');
      const userId = input.userId !== undefined ? input.userId : queueChanging ? null : current.userId;
      const queueId = input.queueId !== undefined ? input.queueId : current.queueId;
      const status = input.status && input.status !== 'closed' ? input.status : userId === null ? 'pending' : 'open';
      if (status === 'pending' && userId !== null) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'status', message: 'um atendimento com usuário fica aberto (open)' }],
        });
      }
      const general = await this.generalFields(tx, current, input);
      const now = this.now();
      return {
        set: {
          ...general,
          queueId,
          userId,
          status,
          botActive: false,
          startedAt: status === 'open' ? (current.startedAt ?? now) : current.startedAt,
          closeAt: null,
          closeReason: null,
        },
        log: {
          type: 'transfer',
          userId: auth.userId,
          data: { fromQueueId: current.queueId, toQueueId: queueId, fromUserId: current.userId, toUserId: userId },
        },
      };
    });
  }

  // ---------- Forced, null-user, chatbot, channel ----------

  /** PUT /ticketsForce/{id}: status and user as given, no farewell, no rating. */
  force(auth: AuthContext, ticketId: number, input: ForceTicketInput): Promise<TicketDto> {
    return this.mutate(auth, ticketId, 'change', async (tx, current, viewer) => {
      const now = this.now();
      const userId = input.userId !== undefined ? input.userId : current.userId;
      if (userId !== null && userId !== auth.userId && userId !== current.userId)
        await this.assertAssignable(tx, viewer, current.tenantId, userId);
      if (input.status === 'closed') {
        if (current.status === 'closed' && current.userId === userId) return NO_CHANGE;
        return this.closeChange({}, now, 'forced', auth.userId, userId, 'forceClose');
      }
      if (input.status === 'pending' && userId !== null) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'userId', message: 'um atendimento pendente fica sem usuário' }],
        });
      }
      if (current.status === input.status && current.userId === userId) return NO_CHANGE;
      if (current.status === 'closed') {
        const existing = await findActiveTicket(tx, current.tenantId, current.contactId, current.whatsappId);
        if (existing) throw otherOpenTicketError(existing);
      }
      return {
        set: {
          status: input.status,
          userId,
          closedAt: null,
          closeAt: null,
          closeReason: null,
          ratingRequestedAt: null,
          startedAt: input.status === 'open' ? (current.startedAt ?? now) : current.startedAt,
        },
        log: {
          type: 'force',
          userId: auth.userId,
          data: { fromStatus: current.status, status: input.status, fromUserId: current.userId, toUserId: userId },
        },
      };
    });
  }

  /** PUT /ticketsNull/{id}: the ticket without a user, in the given status (pending by default). */
  nullUser(auth: AuthContext, ticketId: number, input: NullUserTicketInput): Promise<TicketDto> {
    return this.mutate(auth, ticketId, 'change', async (tx, current) => {
      const now = this.now();
      if (input.status === 'closed') {
        if (current.status === 'closed' && current.userId === null) return NO_CHANGE;
        return this.closeChange({}, now, 'nullUser', auth.userId, null, 'nullUser');
      }
      if (current.status === input.status && current.userId === null) return NO_CHANGE;
      if (current.status === 'closed') {
        const existing = await findActiveTicket(tx, current.tenantId, current.contactId, current.whatsappId);
        if (existing) throw otherOpenTicketError(existing);
      }
      return {
        set: { status: input.status, userId: null, closedAt: null, closeAt: null, closeReason: null, ratingRequestedAt: null },
        log: {
          type: 'nullUser',
          userId: auth.userId,
          data: { fromStatus: current.status, status: input.status, fromUserId: current.userId },
        },
      };
    });
  }

  /**
   * PUT /ticketsChatBot/{id}: hand the ticket to a chatbot flow, or take it back. The flow must be
   * the tenant's (404 ERR_NO_CHATFLOW_FOUND) and active (400 ERR_CHATFLOW_INACTIVE); the ticket
   * enters it at its start step (ticket-bot.ts) and the chatflow engine runs that step right
   * after the commit (job `chatflow.run`; the engine's sweep picks it up if the job is lost).
   */
  async chatBot(auth: AuthContext, ticketId: number, input: TicketChatBotInput): Promise<TicketDto> {
    let started = false;
    const dto = await this.mutate(auth, ticketId, 'change', async (tx, current) => {
      if (!isActive(current.status)) throw new AppError('ERR_TICKET_STATUS_TRANSITION');
      if (input.chatFlowId && input.botActive !== false) {
        const flow = await chatFlowOf(tx, current.tenantId, input.chatFlowId);
        if (!flow) throw new AppError('ERR_NO_CHATFLOW_FOUND');
        if (!flow.active) throw new AppError('ERR_CHATFLOW_INACTIVE');
        if (current.isGroup) {
          throw new AppError('ERR_VALIDATION', { fields: [{ path: 'chatFlowId', message: 'o chatbot não atende grupos' }] });
        }
        await writeBotStart(tx, current, flow, this.now());
        started = true;
        return {
          set: { chatFlowId: input.chatFlowId, botActive: true, userId: null, status: 'pending' },
          log: { type: 'chatbot', userId: auth.userId, data: { chatFlowId: input.chatFlowId, fromUserId: current.userId } },
        };
      }
      const set: TicketSet = { botActive: false };
      if (input.chatFlowId === null) set.chatFlowId = null;
      if (!current.botActive && (set.chatFlowId === undefined || current.chatFlowId === null)) return NO_CHANGE;
      return { set, log: { type: 'chatbotOff', userId: auth.userId, data: { chatFlowId: current.chatFlowId } } };
    });
    if (started) {
      await this.deps.jobs
        .enqueue(CHATBOT_RUN_JOB, { ticketId }, { jobId: `chatbot:${ticketId}:${Date.now()}` })
        .catch((err) => this.deps.logger.warn({ err, ticketId }, 'could not enqueue the chatbot start; its sweep runs it'));
    }
    return dto;
  }

  /** PUT /ticketsChannelId/{id}: the ticket continues on another channel of the tenant. */
  moveToChannel(auth: AuthContext, ticketId: number, input: TicketChannelIdInput): Promise<TicketDto> {
    return this.mutate(auth, ticketId, 'change', async (tx, current) => {
      if (current.whatsappId === input.whatsappId) return NO_CHANGE;
      const channel = await this.channelOf(tx, current.tenantId, input.whatsappId);
      if (isActive(current.status)) {
        const existing = await findActiveTicket(tx, current.tenantId, current.contactId, channel.id);
        if (existing) throw otherOpenTicketError(existing);
      }
      return {
        set: { whatsappId: channel.id, channel: channel.type },
        log: { type: 'channel', userId: auth.userId, data: { fromWhatsappId: current.whatsappId, toWhatsappId: channel.id } },
      };
    });
  }

  private async channelOf(db: Queryable, tenantId: number, channelId: number): Promise<{ id: number; type: string }> {
    const [channel] = (await db.query(`SELECT id, type FROM channels WHERE id = $1 AND "tenantId" = $2`, [
      channelId,
      tenantId,
    ])) as {
      id: number;
      type: string;
    }[];
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    return channel;
  }

  // ---------- POST /tickets ----------

  /**
   * A new ticket for a contact on a channel (the default channel when omitted). A contact with
   * an open or pending ticket (on any channel, spec section 5) gets 409 ERR_OTHER_OPEN_TICKET
   * with that ticket; an administrator may pass assignExisting to take it over instead. The
   * contact row lock serialises concurrent creations for one contact; the partial unique index
   * guards the (contact, channel) pair against every other writer (inbound messages).
   */
  async create(auth: AuthContext, input: CreateTicketInput): Promise<{ ticket: TicketDto; created: boolean }> {
    const viewer = await this.viewers.load(auth);
    authorizeTicketsAction(viewer, 'create');
    // A pending ticket waits in its queue: without a user unless one is named.
    const userId = input.userId !== undefined ? input.userId : input.status === 'pending' ? null : auth.userId;
    if (userId !== null && userId !== auth.userId) authorizeTicketsAction(viewer, 'createForOther');
    const status = userId === null ? 'pending' : input.status;
    return this.deps.events.transaction(async (tx, emit) => {
      const [contact] = (await tx.query(`SELECT id, "isGroup" FROM contacts WHERE id = $1 AND "tenantId" = $2 FOR UPDATE`, [
        input.contactId,
        auth.tenantId,
      ])) as { id: number; isGroup: boolean }[];
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
      const chosenId = input.whatsappId ?? input.channelId;
      const channel =
        chosenId !== undefined
          ? await this.channelOf(tx, auth.tenantId, chosenId)
          : input.channel !== undefined
            ? await this.channelOfType(tx, auth.tenantId, input.channel)
            : await this.defaultChannel(tx, auth.tenantId);
      if (input.channel !== undefined && channel.type !== input.channel) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'channel', message: `a conexão escolhida é do tipo ${channel.type}, não ${input.channel}` }],
        });
      }
      if (input.queueId) await this.assertRow(tx, 'queues', input.queueId, auth.tenantId, 'ERR_NO_QUEUE_FOUND');
      if (userId !== null && userId !== auth.userId)
        await this.assertRow(tx, 'users', userId, auth.tenantId, 'ERR_NO_USER_FOUND');

      const existing = await findActiveTicket(tx, auth.tenantId, contact.id);
      if (existing) {
        if (!input.assignExisting) throw otherOpenTicketError(existing);
        authorizeTicketsAction(viewer, 'assignExisting');
        await lockTicket(tx, auth.tenantId, existing.id);
        const current = (await selectTicket(tx, existing.id)) as TicketRow;
        const owner = userId ?? auth.userId;
        const after = await applyTicketChange(
          tx,
          emit,
          current,
          {
            status: 'open',
            userId: owner,
            queueId: input.queueId !== undefined ? input.queueId : current.queueId,
            startedAt: current.startedAt ?? this.now(),
            botActive: false,
          },
          { type: 'assign', userId: auth.userId, data: { fromUserId: current.userId, toUserId: owner, assignExisting: true } },
        );
        return { ticket: presentTicket(after), created: false };
      }

      const { ticket, created } = await upsertActiveTicket(tx, {
        tenantId: auth.tenantId,
        contactId: contact.id,
        channelId: channel.id,
        channelType: channel.type,
        isGroup: contact.isGroup,
        queueId: input.queueId ?? null,
        userId,
        status,
        actorUserId: auth.userId,
      });
      if (!created) throw otherOpenTicketError(ticket);
      const row = (await selectTicket(tx, ticket.id)) as TicketRow;
      await emitTicket(emit, 'create', row);
      await noticeTicketAssignment(tx, emit, null, row, auth.userId);
      return { ticket: presentTicket(row), created: true };
    });
  }

  /** The default channel when it is of `type`, else the tenant's oldest channel of that type. */
  private async channelOfType(db: Queryable, tenantId: number, type: string): Promise<{ id: number; type: string }> {
    const [channel] = (await db.query(
      `SELECT id, type FROM channels WHERE "tenantId" = $1 AND type = $2 ORDER BY "isDefault" DESC, id LIMIT 1`,
      [tenantId, type],
    )) as { id: number; type: string }[];
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    return channel;
  }

  private async defaultChannel(db: Queryable, tenantId: number): Promise<{ id: number; type: string }> {
    const [channel] = (await db.query(`SELECT id, type FROM channels WHERE "tenantId" = $1 AND "isDefault"`, [tenantId])) as {
      id: number;
      type: string;
    }[];
    if (!channel) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    return channel;
  }

  // ---------- Mass actions ----------

  /**
   * Applies `change` to the given tickets in blocks of MASS_RESOLVE_BLOCK, one transaction per
   * block (rows locked with SKIP LOCKED: a ticket another writer holds is left for later and
   * reported as skipped). Every ticket gets its log row and its event.
   */
  private async inBlocks(
    pick: (tx: EntityManager, after: number, limit: number) => Promise<number[]>,
    change: (tx: EntityManager, emit: Emit, ticket: TicketRow) => Promise<boolean>,
  ): Promise<MassResultDto> {
    const done: number[] = [];
    const skipped: number[] = [];
    let after = 0;
    for (;;) {
      const ids = await this.deps.events.transaction(async (tx, emit) => {
        const block = await pick(tx, after, MASS_RESOLVE_BLOCK);
        for (const id of block) {
          const ticket = await selectTicket(tx, id);
          if (ticket && (await change(tx, emit, ticket))) done.push(id);
          else skipped.push(id);
        }
        return block;
      });
      if (ids.length < MASS_RESOLVE_BLOCK) break;
      after = Math.max(...ids);
    }
    return { count: done.length, ticketIds: done, skipped };
  }

  /** POST /pending/resolvePending: every pending ticket of the tenant, closed without messages. */
  async resolvePending(auth: AuthContext): Promise<MassResultDto> {
    const viewer = await this.viewers.load(auth);
    authorizeTicketsAction(viewer, 'massResolve');
    const now = this.now();
    return this.inBlocks(
      async (tx, after, limit) =>
        (
          (await tx.query(
            `SELECT id FROM tickets WHERE "tenantId" = $1 AND status = 'pending' AND id > $2 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
            [auth.tenantId, after, limit],
          )) as { id: number }[]
        ).map((r) => r.id),
      async (tx, emit, ticket) => {
        await applyTicketChange(tx, emit, ticket, closedSet(now, 'massResolve'), {
          type: 'massResolve',
          userId: auth.userId,
          data: {},
        });
        return true;
      },
    );
  }

  /** POST /tickets/mass-transfer: one user's open and pending tickets to another with the same queues. */
  async massTransfer(auth: AuthContext, input: MassTransferInput): Promise<MassResultDto> {
    const viewer = await this.viewers.load(auth);
    authorizeTicketsAction(viewer, 'massTransfer');
    const users = (await this.deps.dataSource.query(
      `SELECT id, queues FROM users WHERE "tenantId" = $1 AND id = ANY($2::int[])`,
      [auth.tenantId, [input.fromUserId, input.toUserId]],
    )) as { id: number; queues: unknown }[];
    const from = users.find((u) => u.id === input.fromUserId);
    const to = users.find((u) => u.id === input.toUserId);
    if (!from || !to) throw new AppError('ERR_NO_USER_FOUND');
    const queueSet = (q: unknown) => [...new Set((Array.isArray(q) ? q : []).map(Number))].sort((a, b) => a - b).join(',');
    if (queueSet(from.queues) !== queueSet(to.queues)) throw new AppError('ERR_MASS_TRANSFER_QUEUES');
    const only = input.ticketIds ?? null;
    return this.inBlocks(
      async (tx, after, limit) =>
        (
          (await tx.query(
            `SELECT id FROM tickets
            WHERE "tenantId" = $1 AND "userId" = $2 AND status IN ('open','pending') AND id > $3
              AND ($5::int[] IS NULL OR id = ANY($5::int[]))
            ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED`,
            [auth.tenantId, input.fromUserId, after, limit, only],
          )) as { id: number }[]
        ).map((r) => r.id),
      async (tx, emit, ticket) => {
        await applyTicketChange(
          tx,
          emit,
          ticket,
          { userId: input.toUserId, status: 'open' },
          {
            type: 'transfer',
            userId: auth.userId,
            data: { fromUserId: input.fromUserId, toUserId: input.toUserId, queueId: ticket.queueId, mass: true },
          },
        );
        return true;
      },
    );
  }

  /** GET /ticketsClear?whatsappId=: closes every open and pending ticket of a channel. */
  async clearChannel(auth: AuthContext, query: TicketsClearQuery): Promise<MassResultDto> {
    const viewer = await this.viewers.load(auth);
    authorizeTicketsAction(viewer, 'channelWide');
    await this.channelOf(this.deps.dataSource, auth.tenantId, query.whatsappId);
    const now = this.now();
    return this.inBlocks(
      async (tx, after, limit) =>
        (
          (await tx.query(
            `SELECT id FROM tickets WHERE "tenantId" = $1 AND "whatsappId" = $2 AND status IN ('open','pending') AND id > $3
            ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED`,
            [auth.tenantId, query.whatsappId, after, limit],
          )) as { id: number }[]
        ).map((r) => r.id),
      async (tx, emit, ticket) => {
        await applyTicketChange(tx, emit, ticket, closedSet(now, 'channelClear'), {
          type: 'channelClear',
          userId: auth.userId,
          data: { whatsappId: query.whatsappId },
        });
        return true;
      },
    );
  }

  /**
   * PUT /ticketsChannel: every open and pending ticket of one channel continues on another. A
   * contact that already has an active ticket on the target keeps both, and is reported skipped.
   */
  async moveChannelTickets(auth: AuthContext, input: TicketsChannelInput): Promise<MassResultDto> {
    const viewer = await this.viewers.load(auth);
    authorizeTicketsAction(viewer, 'channelWide');
    await this.channelOf(this.deps.dataSource, auth.tenantId, input.fromWhatsappId);
    const target = await this.channelOf(this.deps.dataSource, auth.tenantId, input.toWhatsappId);
    return this.inBlocks(
      async (tx, after, limit) =>
        (
          (await tx.query(
            `SELECT id FROM tickets WHERE "tenantId" = $1 AND "whatsappId" = $2 AND status IN ('open','pending') AND id > $3
            ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED`,
            [auth.tenantId, input.fromWhatsappId, after, limit],
          )) as { id: number }[]
        ).map((r) => r.id),
      async (tx, emit, ticket) => {
        if (await findActiveTicket(tx, auth.tenantId, ticket.contactId, target.id)) return false;
        await applyTicketChange(
          tx,
          emit,
          ticket,
          { whatsappId: target.id, channel: target.type },
          {
            type: 'channel',
            userId: auth.userId,
            data: { fromWhatsappId: input.fromWhatsappId, toWhatsappId: target.id, mass: true },
          },
        );
        return true;
      },
    );
  }

  /** GET /ticketsMarkAllUnread: zeroes the unread counter of the caller's visible active tickets. */
  async markAllRead(auth: AuthContext, query: TicketsMarkAllReadQuery): Promise<MassResultDto> {
    const viewer = await this.viewers.load(auth);
    return this.inBlocks(
      async (tx, after, limit) => {
        const params: unknown[] = [auth.tenantId, after, limit];
        const where = [`t."tenantId" = $1`, `t.status IN ('open','pending')`, `t."unreadMessages" > 0`, `t.id > $2`];
        const visible = visibilitySql(viewer, { showAll: true }, params);
        if (visible) where.push(visible);
        if (query.whatsappIds?.length) {
          params.push(query.whatsappIds);
          where.push(`t."whatsappId" = ANY($${params.length}::int[])`);
        }
        if (query.queuesIds?.length) {
          params.push(query.queuesIds);
          where.push(`t."queueId" = ANY($${params.length}::int[])`);
        }
        return (
          (await tx.query(
            `SELECT t.id FROM tickets t WHERE ${where.join(' AND ')} ORDER BY t.id LIMIT $3 FOR UPDATE SKIP LOCKED`,
            params,
          )) as {
            id: number;
          }[]
        ).map((r) => r.id);
      },
      async (tx, emit, ticket) => {
        await applyTicketChange(tx, emit, ticket, { unreadMessages: 0 }, null);
        return true;
      },
    );
  }
}
