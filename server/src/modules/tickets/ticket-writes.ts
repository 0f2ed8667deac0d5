import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import { INTEGRATION_STATUS_FIELDS, type TicketEventPayload } from '@shared/schemas/tickets';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { EventAudience, TicketAudienceFacts } from '../../db/entities';
import { uniqueViolationOf } from '../../db/pg-errors';
import { messageSelectFrom, returnedRows } from '../messages/messages.query';
import { paramsOf, runStatementParts, type StatementPart } from '../../db/statement-part';
import type { MessageRow } from '../messages/messages.presenter';
import type { Emit } from '../../realtime/domain-events';
import { emitMessages } from '../messages/message-events';
import type { MessageTicket } from '../messages/message-ticket';
import { noticeTicketAssignment } from './ticket-assignment-notice';
import { deleteBotState } from './ticket-bot';
import { autoMessageFactsCtes, autoMessageFactsParts, recordOutboundMessages, recordTicketChange } from './ticket-metrics';
import { renderForTicket } from './ticket-variables';
import { TICKET_SELECT, audienceFactsOf, presentTicket, type TicketRow } from './tickets.presenter';

/**
 * The write path every ticket change shares (transitions, sweeps, inbound rating replies): lock
 * the row, update the given columns, write the ticket_logs row (who, what, when), record the
 * change's metric facts (ticket-metrics.ts) and `ticket:update` to the ticket audience, and
 * notify a user someone handed the ticket to (ticket-assignment-notice.ts), all in the caller's
 * transaction. Lock order: the
 * ticket row first, the tenant row (taken by `emit` for the event seq) last.
 */

/** Columns a change may write; constants of this module, never request keys. */
export type TicketColumn =
  | 'status'
  | 'userId'
  | 'queueId'
  | 'whatsappId'
  | 'channel'
  | 'isGroup'
  | 'unreadMessages'
  | 'lastMessage'
  | 'lastMessageAt'
  | 'kanbanId'
  | 'chatFlowId'
  | 'botActive'
  | 'demandId'
  | 'value'
  | 'difyStatus'
  | 'lmStatus'
  | 'ollamaStatus'
  | 'n8nStatus'
  | 'typebotStatus'
  | 'dialogflowStatus'
  | 'chatgptStatus'
  | 'closeAt'
  | 'closeReason'
  | 'ratingRequestedAt'
  | 'startedAt'
  | 'closedAt';

export type TicketSet = Partial<Record<TicketColumn, unknown>>;

export interface TicketLogEntry {
  type: string;
  /** Who did it; null for the system (sweeps, the customer's reply). */
  userId: number | null;
  data?: Record<string, unknown>;
}

export const ACTIVE_TICKET_INDEX = 'tickets_one_active_uq';

export async function selectTicket(db: Queryable, ticketId: number): Promise<TicketRow | null> {
  const rows: TicketRow[] = await db.query(`${TICKET_SELECT} WHERE t.id = $1`, [ticketId]);
  return rows[0] ?? null;
}

/** Row lock of one ticket of a tenant; answers whether it exists there. */
export async function lockTicket(tx: Queryable, tenantId: number, ticketId: number): Promise<boolean> {
  const rows = await tx.query(`SELECT id FROM tickets WHERE id = $1 AND "tenantId" = $2 FOR UPDATE`, [ticketId, tenantId]);
  return rows.length > 0;
}

export async function insertTicketLog(tx: Queryable, tenantId: number, ticketId: number, entry: TicketLogEntry): Promise<void> {
  await runStatementParts(tx, [(param) => logInsert(param, tenantId, ticketId, entry)]);
}

function logInsert(param: (value: unknown) => string, tenantId: number, ticketId: number, entry: TicketLogEntry): string {
  return `INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data)
          VALUES (${param(tenantId)}, ${param(ticketId)}, ${param(entry.userId)}, ${param(entry.type)}, ${param(JSON.stringify(entry.data ?? {}))})`;
}

const VISIBILITY_FACTS: (keyof TicketAudienceFacts)[] = ['queueId', 'userId', 'status', 'isGroup', 'botActive'];

/** The ticket audience; `previous` only when a fact that decides visibility changed. */
export function ticketAudienceOf(row: TicketRow, previous?: TicketRow | null): EventAudience {
  const ticket = audienceFactsOf(row);
  if (!previous) return { scope: 'ticket', ticket };
  const before = audienceFactsOf(previous);
  const changed = VISIBILITY_FACTS.some((k) => before[k] !== ticket[k]);
  return changed ? { scope: 'ticket', ticket, previous: before } : { scope: 'ticket', ticket };
}

export async function emitTicket(
  emit: Emit,
  action: TicketEventPayload['action'],
  row: TicketRow,
  previous?: TicketRow | null,
): Promise<void> {
  const payload: TicketEventPayload = { action, ticket: presentTicket(row) };
  await emit(
    row.tenantId,
    action === 'create' ? SOCKET_EVENTS.ticketCreate : SOCKET_EVENTS.ticketUpdate,
    payload,
    ticketAudienceOf(row, previous),
  );
}

/**
 * Updates a locked ticket, logs and announces the change; answers the ticket as it is now.
 * An empty `set` with a log still logs and announces (e.g. a rating recorded).
 */
export async function applyTicketChange(
  tx: EntityManager,
  emit: Emit,
  current: TicketRow,
  set: TicketSet,
  log: TicketLogEntry | null,
  alongside?: StatementPart,
): Promise<TicketRow> {
  // An agent taking the ticket (start, assign, transfer to a user), or the ticket leaving the
  // active states, stops the chatbot: its state row goes and botActive turns off.
  if (current.botActive) {
    const userId = 'userId' in set ? set.userId : current.userId;
    const status = ('status' in set ? set.status : current.status) as string;
    if (userId !== null || (status !== 'open' && status !== 'pending') || set.botActive === false) {
      set = { ...set, botActive: false };
      await deleteBotState(tx, current.id);
    }
  }
  const columns = Object.keys(set) as TicketColumn[];
  // A change of the ticket's own columns only (nothing shown through a join: the last message,
  // counters, bot switches) builds the row it leads to from the one in hand, instead of reading
  // the ticket back with its joins: the chatbot's and the inbound path's most frequent write
  // (issue #14, a flow step's overhead). A log entry does not change the row.
  const selfOnly = columns.length > 0 && columns.every((c) => SELF_COLUMNS.has(c));
  let after: TicketRow | undefined;
  if (columns.length > 0) {
    const params: unknown[] = [];
    const param = paramsOf(params);
    const update = `${ticketUpdate(param, current.id, columns, set)} RETURNING "updatedAt"`;
    // The change, its log entry and the caller's write alongside: one statement, one round trip.
    const parts = [`u AS (${update})`];
    if (log) parts.push(`l AS (${logInsert(param, current.tenantId, current.id, log)})`);
    if (alongside) parts.push(`a AS (${alongside(param)})`);
    const sql = parts.length > 1 ? `WITH ${parts.join(', ')} SELECT "updatedAt" FROM u` : update;
    const [row] = returnedRows<{ updatedAt: Date }>(await tx.query(sql, params));
    if (selfOnly && row) after = { ...current, ...(set as Partial<TicketRow>), updatedAt: row.updatedAt };
  } else {
    if (log) await insertTicketLog(tx, current.tenantId, current.id, log);
    if (alongside) await runStatementParts(tx, [alongside]);
  }
  after ??= (await selectTicket(tx, current.id)) as TicketRow;
  const greeting = entersQueue(current, after) ? await sendQueueGreeting(tx, after, new Date()) : null;
  await recordTicketChange(tx, current.id, current, after);
  await emitTicket(emit, 'update', after, current);
  await noticeTicketAssignment(tx, emit, current, after, log?.userId ?? null);
  // The greeting is announced as every automated message (appMessage:create to whoever may see
  // the ticket now), so an open console shows it before delivery, without a reload.
  if (greeting !== null) await emitMessages(tx, emit, messageTicketOf(after), 'create', [greeting]);
  return after;
}

/**
 * A change of the ticket's own columns (SELF_COLUMNS) as statement parts for a later statement
 * of the same transaction, with the row it leads to: `at` is the transaction's now(), which the
 * update writes as updatedAt. The caller announces the row (emitTicket) and runs the parts. Null
 * when the change needs more than that (joined columns, metrics, the chatbot's state going):
 * then applyTicketChange.
 */
export function plannedSelfChange(
  current: TicketRow,
  set: TicketSet,
  log: TicketLogEntry | null,
  at: Date,
  alongside?: StatementPart,
): { after: TicketRow; parts: StatementPart[] } | null {
  const columns = Object.keys(set) as TicketColumn[];
  if (columns.length === 0 || !columns.every((c) => SELF_COLUMNS.has(c))) return null;
  if (current.botActive && set.botActive === false) return null;
  // Separate parts, not one WITH inside another: PostgreSQL takes data-modifying WITH parts at
  // the top level of a statement only.
  const parts: StatementPart[] = [
    (param) => ticketUpdate(param, current.id, columns, set),
  ];
  if (log) parts.push((param) => logInsert(param, current.tenantId, current.id, log));
  if (alongside) parts.push(alongside);
  return { after: { ...current, ...(set as Partial<TicketRow>), updatedAt: at }, parts };
}

/** The UPDATE of a ticket's columns (and updatedAt = the transaction's now()). */
function ticketUpdate(param: (value: unknown) => string, id: number, columns: readonly TicketColumn[], set: TicketSet): string {
  const where = param(id);
  const assignments = columns.map((c) => `"${c}" = ${param(set[c])}`);
  return `UPDATE tickets SET ${[...assignments, `"updatedAt" = now()`].join(', ')} WHERE id = ${where}`;
}

/**
 * Ticket columns that the presented row carries as they are, and on which no joined column
 * (contact, user, queue, channel names) nor any metric transition depends.
 */
const SELF_COLUMNS: ReadonlySet<string> = new Set([
  'lastMessage',
  'lastMessageAt',
  'unreadMessages',
  'answered',
  'botActive',
  'chatFlowId',
  'kanbanId',
  'ratingRequestedAt',
  ...INTEGRATION_STATUS_FIELDS,
]);

/** A ticket row as the messages module's events need it (visibility facts, wallets). */
export function messageTicketOf(row: TicketRow): MessageTicket {
  return {
    id: row.id,
    tenantId: row.tenantId,
    contactId: row.contactId,
    queueId: row.queueId,
    userId: row.userId,
    status: row.status,
    isGroup: row.isGroup,
    botActive: row.botActive,
    whatsappId: row.whatsappId,
    protocol: row.protocol,
    unreadMessages: row.unreadMessages,
    kanbanId: row.kanbanId,
    walletUserIds: row.contactWallets.map((w) => w.id),
  };
}

const isActiveStatus = (status: string): boolean => status === 'open' || status === 'pending';

/**
 * A change that puts a ticket into a queue: moved to another queue, given back to its queue
 * (return: no agent any more, pending), or reopened into one. Taking, closing or changing other
 * fields is not an entry.
 */
export function entersQueue(before: TicketRow, after: TicketRow): boolean {
  if (after.queueId === null || !isActiveStatus(after.status)) return false;
  if (!isActiveStatus(before.status)) return true;
  if (before.queueId !== after.queueId) return true;
  return before.userId !== null && after.userId === null && after.status === 'pending';
}

/**
 * The queue's greeting (queues."greetingMessage", variables as in the farewell) queued to the
 * contact as an automated message (origin `queueGreeting`). Called once per entry: by
 * applyTicketChange for the change that is the entry, and by the inbound pipeline's hook for a
 * ticket created in its channel's queue. Groups and tickets without a channel get none.
 */
export async function sendQueueGreeting(tx: Queryable, ticket: TicketRow, now: Date): Promise<number | null> {
  if (ticket.queueId === null || ticket.isGroup || ticket.whatsappId === null) return null;
  const [queue] = (await tx.query(`SELECT "greetingMessage" FROM queues WHERE id = $1 AND "tenantId" = $2`, [
    ticket.queueId,
    ticket.tenantId,
  ])) as { greetingMessage: string | null }[];
  const template = queue?.greetingMessage?.trim();
  if (!template) return null;
  const text = await renderForTicket(tx, template, {
    tenantId: ticket.tenantId,
    ticketId: ticket.id,
    userId: ticket.userId,
    now,
  });
  return queueOutboundText(tx, ticket, text, { userId: null, now, kind: 'queueGreeting' });
}

/** The open-or-pending ticket of a contact (on one channel, or any), for conflict answers. */
export async function findActiveTicket(
  db: Queryable,
  tenantId: number,
  contactId: number,
  channelId?: number | null,
): Promise<{ id: number; userId: number | null } | null> {
  const params: unknown[] = [tenantId, contactId];
  let channel = '';
  if (channelId !== undefined) {
    params.push(channelId ?? 0);
    channel = ` AND COALESCE("whatsappId", 0) = $3`;
  }
  const rows: { id: number; userId: number | null }[] = await db.query(
    `SELECT id, "userId" FROM tickets
      WHERE "tenantId" = $1 AND "contactId" = $2 AND status IN ('open','pending')${channel}
      ORDER BY id LIMIT 1`,
    params,
  );
  return rows[0] ?? null;
}

/** 409 ERR_OTHER_OPEN_TICKET carrying the ongoing ticket, so the console can offer to open it. */
export function otherOpenTicketError(existing: { id: number; userId: number | null }): AppError {
  return new AppError('ERR_OTHER_OPEN_TICKET', { details: { ticketId: existing.id, userId: existing.userId } });
}

/**
 * Runs a write that may make a second active ticket for a contact and channel. The partial
 * unique index is the guard (no check-then-write race): its violation becomes the same 409 the
 * checked path answers, naming the ticket that won.
 */
export async function guardOneActive<T>(
  db: Queryable,
  where: () => { tenantId: number; contactId: number; channelId: number | null } | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const key = where();
    if (uniqueViolationOf(err) !== ACTIVE_TICKET_INDEX || !key) throw err;
    const existing = await findActiveTicket(db, key.tenantId, key.contactId, key.channelId);
    throw existing ? otherOpenTicketError(existing) : new AppError('ERR_OTHER_OPEN_TICKET');
  }
}

/**
 * Queues a text to the contact as an outbound message row (status `pending`, due now): the
 * messages module's delivery sends every due pending row (job plus periodic sweep) with retries
 * and announces its progress, so a farewell or a rating request survives a restart like any send.
 * It counts as an automated message, never as an agent's reply.
 */
export async function queueOutboundText(
  tx: Queryable,
  ticket: Pick<TicketRow, 'id' | 'tenantId' | 'contactId' | 'whatsappId'>,
  body: string,
  opts: { userId: number | null; now: Date; kind: string },
): Promise<number> {
  const [row] = (await tx.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", "mediaType",
                           status, "nextRetryAt", timestamp, "dataJson")
     VALUES ($1, $2, $3, $4, true, $5, $6, 'chat', 'pending', $7, $8, $9)
     RETURNING id`,
    [
      ticket.tenantId,
      ticket.id,
      ticket.contactId,
      body,
      opts.userId,
      ticket.whatsappId,
      opts.now,
      Math.floor(opts.now.getTime() / 1000),
      JSON.stringify({ origin: opts.kind }),
    ],
  )) as { id: string }[];
  await recordOutboundMessages(tx, ticket.id, [Number(row.id)], 'autoMessage');
  return Number(row.id);
}

/**
 * Several automated texts to the contact in one statement (queueOutboundText's batch form, used
 * by the chatbot: a step often sends a greeting and a menu together): the rows, their
 * autoMessage facts and the rows as presented (messageSelectFrom), in one round trip. Answers
 * the rows in order, ready for emitMessageRows.
 */
/**
 * queueOutboundTexts as planned writes: ids taken beforehand (nextval in the ticket's lock
 * statement), the rows presented from what is written, and the insert and its metric facts as
 * parts of the commit's events statement: one round trip fewer for a chatbot step (issue #14).
 * `at` is the transaction's now(), the rows' createdAt and updatedAt.
 */
export function plannedOutboundTexts(
  ticket: Pick<TicketRow, 'id' | 'tenantId' | 'contactId' | 'whatsappId'>,
  bodies: readonly string[],
  ids: readonly number[],
  opts: { now: Date; kind: string; at: Date },
): { rows: MessageRow[]; parts: StatementPart[] } {
  if (bodies.length === 0) return { rows: [], parts: [] };
  if (ids.length < bodies.length) throw new Error('plannedOutboundTexts: fewer ids than texts');
  const taken = ids.slice(0, bodies.length);
  const timestamp = Math.floor(opts.now.getTime() / 1000);
  const dataJson = JSON.stringify({ origin: opts.kind });
  const rows: MessageRow[] = bodies.map((body, i) => ({
    id: taken[i],
    tenantId: ticket.tenantId,
    messageId: null,
    clientId: null,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: null,
    whatsappId: ticket.whatsappId,
    body,
    fromMe: true,
    mediaType: 'chat',
    mediaName: null,
    mimeType: null,
    hasMedia: false,
    quotedMsgId: null,
    status: 'pending',
    ack: 0,
    read: false,
    reactions: [],
    isEdited: false,
    isDeleted: false,
    isSync: false,
    isPrivate: false,
    scheduleDate: null,
    sendAttempts: 0,
    nextRetryAt: opts.now,
    lastError: null,
    unconfirmed: false,
    buttons: null,
    schedule: null,
    timestamp,
    createdAt: opts.at,
    updatedAt: opts.at,
    q_id: null,
    q_body: null,
    q_fromMe: null,
    q_mediaType: null,
    q_mediaName: null,
    q_isDeleted: null,
  }));
  const insert: StatementPart = (param) => `INSERT INTO messages (id, "tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", "mediaType",
                           status, "nextRetryAt", timestamp, "dataJson")
     SELECT x.id, ${param(ticket.tenantId)}, ${param(ticket.id)}, ${param(ticket.contactId)}, x.body, true, NULL, ${param(ticket.whatsappId)}::int, 'chat',
            'pending', ${param(opts.now)}::timestamptz, ${param(timestamp)}::bigint, ${param(dataJson)}::jsonb
       FROM unnest(${param(taken)}::bigint[], ${param([...bodies])}::text[]) AS x(id, body)`;
  return { rows, parts: [insert, ...autoMessageFactsParts(ticket.id, bodies.length)] };
}

export async function queueOutboundTexts(
  tx: Queryable,
  ticket: Pick<TicketRow, 'id' | 'tenantId' | 'contactId' | 'whatsappId'>,
  bodies: readonly string[],
  opts: { now: Date; kind: string },
): Promise<MessageRow[]> {
  if (bodies.length === 0) return [];
  const rows = (await tx.query(
    `WITH inserted AS (
       INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", "mediaType",
                             status, "nextRetryAt", timestamp, "dataJson")
       SELECT $1, $2, $3, x.body, true, NULL, $4, 'chat', 'pending', $5, $6, $7
         FROM unnest($8::text[]) WITH ORDINALITY AS x(body, ord)
        ORDER BY x.ord
       RETURNING *
     ), ${autoMessageFactsCtes('inserted')}
     ${messageSelectFrom('inserted')}
     ORDER BY m.id`,
    [
      ticket.tenantId,
      ticket.id,
      ticket.contactId,
      ticket.whatsappId,
      opts.now,
      Math.floor(opts.now.getTime() / 1000),
      JSON.stringify({ origin: opts.kind }),
      bodies,
    ],
  )) as MessageRow[];
  return rows;
}
