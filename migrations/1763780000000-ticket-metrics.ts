import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recorded metrics (issue #13): the facts the dashboard and the reports read, written by the
 * ticket and message write paths in their own transaction (server/src/modules/tickets/
 * ticket-metrics.ts), so a statistic is an indexed scan over facts, never a recomputation over
 * messages and logs.
 *
 * - `ticket_metric_events`: append-only, one row per fact, with the ticket's tenant, queue,
 *   agent, channel and contact at the time of the fact:
 *     opened       the ticket was created (queue and agent at creation)
 *     assigned     the ticket got an agent: created for them, taken, transferred or reopened to
 *                  them, or resolved by them while it had none (userId: that agent)
 *     started      first pending -> open (value: seconds waiting since creation)
 *     firstReply   first agent reply (value: first response seconds; null for tickets the agent
 *                  started, where there is nothing to respond to)
 *     reply        every agent reply (userId: its author)
 *     autoMessage  every automated message to the customer (farewell, rating request and thanks,
 *                  birthday greeting)
 *     messageIn    every message from the customer
 *     transfer     queue changed, or the agent changed from someone to someone else or to nobody
 *                  (fromQueueId, fromUserId: before)
 *     resolved     open or pending -> closed (value: seconds since creation)
 *     reopened     closed -> open or pending
 *     rating       the customer's rating (value: 0..5); a corrected rating replaces the fact
 * - `ticket_metric_daily`: the message facts (messageIn, reply, autoMessage: most of the facts)
 *   counted per UTC day, tenant, kind and queue (and agent, for replies), kept by the same
 *   statements that append them. A period's message counts read these days plus the raw facts of the period's partial
 *   UTC days at both ends, so a year of messages is a few thousand rows whatever the tenant's
 *   time zone.
 * - Per-ticket summary columns on `tickets` (the per-ticket report reads them).
 *
 * The back-fill below derives the same facts once from the tickets, ticket_logs, messages and
 * ticket_ratings written before this migration (the ticket's queue and agent at each moment are
 * replayed from its logs); `ticket-metrics.test.ts` checks it against live recording.
 */

export const METRIC_KINDS = [
  'opened',
  'assigned',
  'started',
  'firstReply',
  'reply',
  'autoMessage',
  'messageIn',
  'transfer',
  'resolved',
  'reopened',
  'rating',
] as const;

/** The facts counted per day in ticket_metric_daily. */
export const DAILY_KINDS = ['messageIn', 'reply', 'autoMessage'] as const;

export class TicketMetrics1763780000000 implements MigrationInterface {
  name = 'TicketMetrics1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ticket_metric_events (
        id bigserial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "ticketId" int NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        kind varchar NOT NULL CHECK (kind IN (${METRIC_KINDS.map((k) => `'${k}'`).join(',')})),
        at timestamptz NOT NULL,
        "queueId" int,
        "userId" int,
        "whatsappId" int,
        channel varchar,
        "contactId" int,
        "fromQueueId" int,
        "fromUserId" int,
        value int
      )`);
    // Every statistic is a range of one kind in one tenant, filtered by queue and grouped by
    // agent: all of it in the index, so the scans are index-only.
    await q.query(`CREATE INDEX ticket_metric_events_period_idx ON ticket_metric_events ("tenantId", kind, at)
      INCLUDE ("queueId", "userId", value, "ticketId")`);
    await q.query(`CREATE INDEX ticket_metric_events_ticket_idx ON ticket_metric_events ("ticketId", kind)`);
    await q.query(`
      CREATE TABLE ticket_metric_daily (
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        kind varchar NOT NULL,
        day date NOT NULL,
        "queueId" int,
        "userId" int,
        n int NOT NULL,
        CONSTRAINT ticket_metric_daily_key UNIQUE NULLS NOT DISTINCT ("tenantId", kind, day, "queueId", "userId")
      )`);

    await q.query(`ALTER TABLE tickets
      ADD COLUMN "isActiveDemand" boolean NOT NULL DEFAULT false,
      ADD COLUMN "firstOpenedAt" timestamptz,
      ADD COLUMN "waitingSeconds" int,
      ADD COLUMN "firstReplyAt" timestamptz,
      ADD COLUMN "firstResponseSeconds" int,
      ADD COLUMN "resolutionSeconds" int`);
    // Tickets opened in a period by queue, channel, hour and demand kind: index-only.
    await q.query(`CREATE INDEX tickets_created_stats_idx ON tickets ("tenantId", "createdAt")
      INCLUDE ("queueId", "whatsappId", "isActiveDemand")`);
    // New contacts in a period (dashboard card, contact reports).
    await q.query(`CREATE INDEX contacts_tenant_created_idx ON contacts ("tenantId", "createdAt")`);

    await backfillTicketMetrics(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS ticket_metric_events, ticket_metric_daily`);
    await q.query(`DROP INDEX IF EXISTS tickets_created_stats_idx, contacts_tenant_created_idx`);
    await q.query(`ALTER TABLE tickets DROP COLUMN "isActiveDemand", DROP COLUMN "firstOpenedAt", DROP COLUMN "waitingSeconds",
      DROP COLUMN "firstReplyAt", DROP COLUMN "firstResponseSeconds", DROP COLUMN "resolutionSeconds"`);
  }
}

// ---------- Back-fill ----------

type Query = (sql: string, params?: unknown[]) => Promise<any>;
type Status = 'open' | 'pending' | 'closed' | 'schedule';

interface State {
  status: Status;
  queueId: number | null;
  userId: number | null;
  whatsappId: number | null;
  channel: string | null;
}

interface TicketIn extends State {
  id: number;
  tenantId: number;
  contactId: number;
  createdAt: Date;
}

interface LogIn {
  ticketId: number;
  type: string;
  userId: number | null;
  data: Record<string, any> | null;
  createdAt: Date;
}

interface MessageIn {
  ticketId: number;
  fromMe: boolean;
  userId: number | null;
  createdAt: Date;
  automated: boolean;
}

interface RatingIn {
  ticketId: number;
  rating: number;
  userId: number | null;
  createdAt: Date;
}

export interface BackfilledEvent {
  tenantId: number;
  ticketId: number;
  kind: (typeof METRIC_KINDS)[number];
  at: Date;
  queueId: number | null;
  userId: number | null;
  whatsappId: number | null;
  channel: string | null;
  contactId: number;
  fromQueueId: number | null;
  fromUserId: number | null;
  value: number | null;
}

interface Summary {
  id: number;
  isActiveDemand: boolean;
  firstOpenedAt: Date | null;
  waitingSeconds: number | null;
  firstReplyAt: Date | null;
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
}

const BATCH_TICKETS = 1000;
const ACTIVE = new Set<Status>(['open', 'pending']);
const seconds = (to: Date, from: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const has = (data: Record<string, any> | null, key: string) => !!data && Object.prototype.hasOwnProperty.call(data, key);

/**
 * The ticket's state after a log, as the code that wrote it changed the row (ticket-writes and
 * tickets.service): every transition logs what it did, most with the agent before and after.
 */
function applyLog(prev: State, log: LogIn, channelTypes: Map<number, string>): State {
  const d = log.data ?? {};
  const next = { ...prev };
  switch (log.type) {
    case 'start':
    case 'assign':
      next.status = 'open';
      next.userId = num(d.toUserId);
      break;
    case 'transfer':
      if (has(d, 'toQueueId')) next.queueId = num(d.toQueueId);
      next.userId = num(d.toUserId);
      next.status = d.mass || next.userId !== null ? 'open' : 'pending';
      break;
    case 'return':
      next.status = 'pending';
      next.userId = null;
      if (has(d, 'queueId')) next.queueId = num(d.queueId);
      break;
    case 'reopen':
      next.status = d.status as Status;
      next.userId = num(d.toUserId);
      break;
    case 'ratingRequest':
    case 'farewell':
      if (log.userId !== null) next.userId = prev.userId ?? log.userId;
      break;
    case 'resolve':
      next.status = 'closed';
      next.userId = prev.userId ?? log.userId;
      break;
    case 'force':
      next.status = d.status as Status;
      next.userId = num(d.toUserId);
      break;
    case 'forceClose':
    case 'close':
    case 'autoClose':
    case 'massResolve':
    case 'channelClear':
      next.status = 'closed';
      break;
    case 'nullUser':
      next.userId = null;
      next.status = has(d, 'status') ? (d.status as Status) : 'closed';
      break;
    case 'chatbot':
      next.userId = null;
      next.status = 'pending';
      break;
    case 'rating':
      if (d.source === 'customer') next.status = 'closed';
      break;
    case 'channel':
      next.whatsappId = num(d.toWhatsappId);
      next.channel = next.whatsappId === null ? null : (channelTypes.get(next.whatsappId) ?? prev.channel);
      break;
    case 'update':
      if (d.changes && has(d.changes, 'queueId')) next.queueId = num(d.changes.queueId);
      break;
    default:
      break;
  }
  return next;
}

const USER_CHANGING_LOGS = new Set(['start', 'assign', 'transfer', 'return', 'reopen', 'ratingRequest', 'farewell', 'resolve', 'force', 'nullUser', 'chatbot']);
const QUEUE_CHANGING_LOGS = new Set(['transfer', 'return', 'update']);

/**
 * The state at creation. Logs that changed the agent name the one before (fromUserId), a
 * transfer names the queue before: the first such log tells the state at creation, unless a
 * change that does not name what it replaced came first. Otherwise the ticket as it is now (no
 * change since) or the creator (an open ticket) / nobody (a pending one).
 */
function initialState(ticket: TicketIn, logs: LogIn[], channelTypes: Map<number, string>): State {
  const create = logs.find((l) => l.type === 'create');
  const status = (create?.data?.status as Status | undefined) ?? ticket.status;
  const state: State = { status, queueId: ticket.queueId, userId: ticket.userId, whatsappId: ticket.whatsappId, channel: ticket.channel };

  const userLog = logs.find((l) => USER_CHANGING_LOGS.has(l.type) && !(l.type === 'ratingRequest' && l.userId === null));
  if (userLog && has(userLog.data, 'fromUserId')) state.userId = num(userLog.data!.fromUserId);
  else if (userLog) state.userId = status === 'pending' ? null : (create?.userId ?? null);

  const queueLog = logs.find(
    (l) => (QUEUE_CHANGING_LOGS.has(l.type) && l.type !== 'update') || (l.type === 'update' && !!l.data?.changes && has(l.data.changes, 'queueId')),
  );
  if (queueLog?.type === 'transfer') state.queueId = has(queueLog.data, 'fromQueueId') ? num(queueLog.data!.fromQueueId) : num(queueLog.data!.queueId);
  else if (queueLog?.type === 'return') state.queueId = num(queueLog.data!.queueId);
  else if (queueLog) state.queueId = null;

  const channelLog = logs.find((l) => l.type === 'channel');
  if (channelLog) {
    state.whatsappId = num(channelLog.data!.fromWhatsappId);
    state.channel = state.whatsappId === null ? null : (channelTypes.get(state.whatsappId) ?? ticket.channel);
  }
  return state;
}

/** The facts of one ticket (see the header), replayed from what was stored about it. */
export function ticketFacts(
  ticket: TicketIn,
  logs: LogIn[],
  messages: MessageIn[],
  rating: RatingIn | null,
  channelTypes: Map<number, string>,
): { events: BackfilledEvent[]; summary: Summary } {
  const events: BackfilledEvent[] = [];
  const event = (kind: BackfilledEvent['kind'], at: Date, s: State, extra: Partial<BackfilledEvent> = {}) =>
    events.push({
      tenantId: ticket.tenantId,
      ticketId: ticket.id,
      kind,
      at,
      queueId: s.queueId,
      userId: s.userId,
      whatsappId: s.whatsappId,
      channel: s.channel,
      contactId: ticket.contactId,
      fromQueueId: null,
      fromUserId: null,
      value: null,
      ...extra,
    });
  const createLog = logs.find((l) => l.type === 'create');
  const firstMessage = messages[0];
  const isActiveDemand = (createLog !== undefined && createLog.userId !== null) || (firstMessage?.fromMe ?? false);
  const summary: Summary = {
    id: ticket.id,
    isActiveDemand,
    firstOpenedAt: null,
    waitingSeconds: null,
    firstReplyAt: null,
    firstResponseSeconds: null,
    resolutionSeconds: null,
  };

  // The state timeline: [from, state] after each log.
  let state = initialState(ticket, logs, channelTypes);
  event('opened', ticket.createdAt, state);
  if (state.userId !== null) event('assigned', ticket.createdAt, state);
  if (state.status === 'open') summary.firstOpenedAt = ticket.createdAt;
  const timeline: { at: Date; state: State }[] = [{ at: ticket.createdAt, state }];
  for (const log of logs) {
    if (log.type === 'create') continue;
    const before = state;
    const after = applyLog(before, log, channelTypes);
    const at = log.createdAt;
    if (ACTIVE.has(before.status) && after.status === 'closed') {
      const value = seconds(at, ticket.createdAt);
      event('resolved', at, after, { value });
      summary.resolutionSeconds = value;
    }
    if (before.status === 'closed' && ACTIVE.has(after.status)) {
      event('reopened', at, after);
      summary.resolutionSeconds = null;
    }
    if (before.status === 'pending' && after.status === 'open' && summary.firstOpenedAt === null) {
      const value = seconds(at, ticket.createdAt);
      event('started', at, after, { value });
      summary.firstOpenedAt = at;
      summary.waitingSeconds = value;
    }
    if (after.userId !== null && after.userId !== before.userId) event('assigned', at, after);
    const userMoved = before.userId !== null && before.userId !== after.userId;
    if (ACTIVE.has(before.status) && ACTIVE.has(after.status) && (before.queueId !== after.queueId || userMoved)) {
      event('transfer', at, after, { fromQueueId: before.queueId, fromUserId: before.userId });
    }
    state = after;
    timeline.push({ at, state });
  }

  const stateAt = (at: Date): State => {
    let found = timeline[0].state;
    for (const t of timeline) {
      if (t.at.getTime() <= at.getTime()) found = t.state;
      else break;
    }
    return found;
  };
  for (const m of messages) {
    const s = stateAt(m.createdAt);
    if (!m.fromMe) {
      event('messageIn', m.createdAt, s);
    } else if (m.automated || m.userId === null) {
      event('autoMessage', m.createdAt, s, { userId: m.userId });
    } else {
      if (summary.firstReplyAt === null) {
        summary.firstReplyAt = m.createdAt;
        summary.firstResponseSeconds = isActiveDemand ? null : seconds(m.createdAt, ticket.createdAt);
        event('firstReply', m.createdAt, s, { userId: m.userId, value: summary.firstResponseSeconds });
      }
      event('reply', m.createdAt, s, { userId: m.userId });
    }
  }
  if (rating) event('rating', rating.createdAt, stateAt(rating.createdAt), { userId: rating.userId, value: rating.rating });
  return { events, summary };
}

/**
 * Derives the facts of every existing ticket, a thousand tickets per round (`tenantId`: one
 * tenant's only, for the test that compares the back-fill with live recording).
 */
export async function backfillTicketMetrics(q: QueryRunner | { query: Query }, only: { tenantId?: number } = {}): Promise<void> {
  const query: Query = (sql, params) => q.query(sql, params);
  const channelTypes = new Map<number, string>(
    ((await query(`SELECT id, type FROM channels`)) as { id: number; type: string }[]).map((c) => [c.id, c.type]),
  );
  for (let after = 0; ; ) {
    const tickets: TicketIn[] = await query(
      `SELECT id, "tenantId", "contactId", status, "queueId", "userId", "whatsappId", channel, "createdAt"
         FROM tickets WHERE id > $1 AND ($2::int IS NULL OR "tenantId" = $2) ORDER BY id LIMIT ${BATCH_TICKETS}`,
      [after, only.tenantId ?? null],
    );
    if (tickets.length === 0) return rebuildDaily(query, only.tenantId ?? null);
    after = tickets[tickets.length - 1].id;
    const ids = tickets.map((t) => t.id);
    const logs: LogIn[] = await query(
      `SELECT "ticketId", type, "userId", data, "createdAt" FROM ticket_logs WHERE "ticketId" = ANY($1::int[]) ORDER BY "ticketId", id`,
      [ids],
    );
    // Messages that reached (or were queued for) the customer: not private notes, not messages
    // still scheduled or canceled before their date.
    const messages: MessageIn[] = await query(
      `SELECT "ticketId", "fromMe", "userId", "createdAt",
              ("fromMe" AND (COALESCE("dataJson"->>'origin', '') IN ('farewell','ratingRequest','ratingThanks')
                             OR COALESCE("clientId", '') LIKE 'birthday:%')) AS automated
         FROM messages
        WHERE "ticketId" = ANY($1::int[]) AND NOT "isPrivate" AND status <> 'scheduled'
          AND NOT (status = 'canceled' AND COALESCE("dataJson" ? 'schedule', false))
        ORDER BY "ticketId", "createdAt", id`,
      [ids],
    );
    const ratings: RatingIn[] = await query(
      `SELECT "ticketId", rating, "userId", "createdAt" FROM ticket_ratings WHERE "ticketId" = ANY($1::int[])`,
      [ids],
    );
    const group = <T extends { ticketId: number }>(rows: T[]) => {
      const map = new Map<number, T[]>();
      for (const r of rows) map.set(r.ticketId, [...(map.get(r.ticketId) ?? []), r]);
      return map;
    };
    const logsOf = group(logs);
    const messagesOf = group(messages);
    const ratingOf = new Map(ratings.map((r) => [r.ticketId, r]));
    const events: BackfilledEvent[] = [];
    const summaries: Summary[] = [];
    for (const t of tickets) {
      const facts = ticketFacts(t, logsOf.get(t.id) ?? [], messagesOf.get(t.id) ?? [], ratingOf.get(t.id) ?? null, channelTypes);
      events.push(...facts.events);
      summaries.push(facts.summary);
    }
    for (let i = 0; i < events.length; i += 5000) await insertEvents(query, events.slice(i, i + 5000));
    await query(
      `UPDATE tickets t SET "isActiveDemand" = s.active, "firstOpenedAt" = s.opened, "waitingSeconds" = s.waiting,
              "firstReplyAt" = s.replied, "firstResponseSeconds" = s.response, "resolutionSeconds" = s.resolution
         FROM unnest($1::int[], $2::boolean[], $3::timestamptz[], $4::int[], $5::timestamptz[], $6::int[], $7::int[])
              AS s(id, active, opened, waiting, replied, response, resolution)
        WHERE t.id = s.id`,
      [
        summaries.map((s) => s.id),
        summaries.map((s) => s.isActiveDemand),
        summaries.map((s) => s.firstOpenedAt),
        summaries.map((s) => s.waitingSeconds),
        summaries.map((s) => s.firstReplyAt),
        summaries.map((s) => s.firstResponseSeconds),
        summaries.map((s) => s.resolutionSeconds),
      ],
    );
  }
}

/** ticket_metric_daily from the message facts (after the facts themselves). */
async function rebuildDaily(query: Query, tenantId: number | null): Promise<void> {
  await query(`DELETE FROM ticket_metric_daily WHERE $1::int IS NULL OR "tenantId" = $1`, [tenantId]);
  await query(
    `INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", n)
     SELECT "tenantId", kind, (at AT TIME ZONE 'UTC')::date, "queueId", CASE WHEN kind = 'reply' THEN "userId" END, count(*)
       FROM ticket_metric_events
      WHERE kind = ANY($2::varchar[]) AND ($1::int IS NULL OR "tenantId" = $1)
      GROUP BY 1, 2, 3, 4, 5`,
    [tenantId, DAILY_KINDS],
  );
}

async function insertEvents(query: Query, events: BackfilledEvent[]): Promise<void> {
  if (events.length === 0) return;
  const col = <K extends keyof BackfilledEvent>(k: K) => events.map((e) => e[k]);
  await query(
    `INSERT INTO ticket_metric_events ("tenantId", "ticketId", kind, at, "queueId", "userId", "whatsappId", channel, "contactId",
                                       "fromQueueId", "fromUserId", value)
     SELECT * FROM unnest($1::int[], $2::int[], $3::varchar[], $4::timestamptz[], $5::int[], $6::int[], $7::int[], $8::varchar[],
                          $9::int[], $10::int[], $11::int[], $12::int[])`,
    [
      col('tenantId'),
      col('ticketId'),
      col('kind'),
      col('at'),
      col('queueId'),
      col('userId'),
      col('whatsappId'),
      col('channel'),
      col('contactId'),
      col('fromQueueId'),
      col('fromUserId'),
      col('value'),
    ],
  );
}
