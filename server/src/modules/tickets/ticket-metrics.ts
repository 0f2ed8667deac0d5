import type { Queryable } from '../../core/tenant-catalog';
import type { StatementPart } from '../../db/statement-part';

/**
 * Recorded metrics (issue #13): every write path that changes a ticket or stores a message calls
 * one of these in ITS transaction (the transaction's manager, never the data source: PGlite has
 * one connection), so the facts commit or roll back with the change they describe. The
 * statistics and the reports read only these facts (`ticket_metric_events`) and the per-ticket
 * summary columns; what each kind means is written in migration 1763780000000-ticket-metrics.
 *
 * Times: a ticket transition's facts take the transaction's `now()`, the same instant as its
 * ticket_logs row; a message's facts take the message's `createdAt`. Message facts are also
 * counted per UTC day in ticket_metric_daily by the statement that appends them.
 */

export type MetricKind =
  | 'opened'
  | 'assigned'
  | 'started'
  | 'firstReply'
  | 'reply'
  | 'autoMessage'
  | 'messageIn'
  | 'transfer'
  | 'resolved'
  | 'reopened'
  | 'rating';

/** What a ticket transition is, for the facts: its status, queue and agent before and after. */
export interface TicketFactsState {
  status: string;
  queueId: number | null;
  userId: number | null;
}

export interface TransitionFact {
  kind: Extract<MetricKind, 'assigned' | 'started' | 'transfer' | 'resolved' | 'reopened'>;
  fromQueueId: number | null;
  fromUserId: number | null;
}

const isActive = (status: string) => status === 'open' || status === 'pending';

/**
 * The facts of one transition. `started` is only a candidate: it counts when the ticket was never
 * open before (checked against the row, in SQL). A transfer is a change of queue, or of agent
 * away from someone; taking an unassigned ticket is not a transfer. Every new agent is an
 * assignment (taken, transferred, reopened, resolved by someone while it had none).
 */
export function transitionFacts(before: TicketFactsState, after: TicketFactsState): TransitionFact[] {
  const facts: TransitionFact[] = [];
  const fact = (kind: TransitionFact['kind'], from = false) =>
    facts.push({ kind, fromQueueId: from ? before.queueId : null, fromUserId: from ? before.userId : null });
  if (isActive(before.status) && after.status === 'closed') fact('resolved');
  if (before.status === 'closed' && isActive(after.status)) fact('reopened');
  if (before.status === 'pending' && after.status === 'open') fact('started');
  if (after.userId !== null && after.userId !== before.userId) fact('assigned');
  const userMoved = before.userId !== null && before.userId !== after.userId;
  if (isActive(before.status) && isActive(after.status) && (before.queueId !== after.queueId || userMoved)) fact('transfer', true);
  return facts;
}

const EVENT_COLUMNS = `"tenantId", "ticketId", kind, at, "queueId", "userId", "whatsappId", channel, "contactId", "fromQueueId", "fromUserId", value`;
/** Whole seconds from the ticket's creation to `instant`, never negative. */
const SINCE_CREATED = (instant: string, alias: string) => `GREATEST(0, round(extract(epoch FROM ${instant} - ${alias}."createdAt")))::int`;

/**
 * The day row this connection adds to (migration 1763870000000): one of DAILY_SLOTS per day and
 * key, by backend pid, so concurrent writers of a tenant do not wait on one row; readers sum them.
 */
export const DAILY_SLOTS = 16;
const DAILY_SLOT = `(pg_backend_pid() % ${DAILY_SLOTS})::smallint`;

const APPENDED = (select: string) => `appended AS (
    INSERT INTO ticket_metric_events (${EVENT_COLUMNS}) ${select}
    RETURNING "tenantId", kind, at, "queueId", "userId"
  )`;
const DAILY_COUNTS_OF_APPENDED = `
  INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", slot, n)
  SELECT "tenantId", kind, (at AT TIME ZONE 'UTC')::date, "queueId", CASE WHEN kind = 'reply' THEN "userId" END, ${DAILY_SLOT}, count(*)::int
    FROM appended WHERE kind IN ('messageIn', 'reply', 'autoMessage')
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ON CONSTRAINT ticket_metric_daily_key DO UPDATE SET n = ticket_metric_daily.n + EXCLUDED.n`;
/**
 * Appends message facts (`select` yields EVENT_COLUMNS) and adds them to ticket_metric_daily in
 * the same statement (by agent for replies only: no statistic counts customers' or automated
 * messages per agent). The day rows are upserted in key order, so two batches touching the same
 * rows lock them in the same order.
 */
const withDailyCounts = (select: string) => `WITH ${APPENDED(select)} ${DAILY_COUNTS_OF_APPENDED}`;

/** The autoMessage facts of the messages in `source` (rows of messages, aliased m); the ticket looked up by key whatever the statistics say. */
const AUTO_MESSAGE_FACTS = (source: string) => `
       SELECT t."tenantId", t.id, 'autoMessage', m."createdAt", t."queueId", m."userId", t."whatsappId", t.channel, t."contactId", NULL::int, NULL::int, NULL::int
         FROM ${source} m
         JOIN LATERAL (SELECT * FROM tickets t WHERE t.id = m."ticketId" LIMIT 1) t ON true`;

/**
 * recordOutboundMessages(..., 'autoMessage') as CTEs of the statement that inserts the messages
 * (their rows in the CTE `source`): the facts and the day counts in the same round trip. A
 * statement using it starts `WITH source AS (INSERT INTO messages ... RETURNING *), ` then these.
 */
export const autoMessageFactsCtes = (source: string) => `${APPENDED(AUTO_MESSAGE_FACTS(source))},
  auto_message_counts AS (${DAILY_COUNTS_OF_APPENDED} RETURNING 1)`;

/**
 * autoMessageFactsCtes for `count` messages of one ticket whose insert goes in the same
 * statement (planned writes, StatementPart): the facts are made from the ticket and the count,
 * not from the inserted rows, so each part stands alone. `at` is the messages' createdAt (the
 * transaction's now()). The ticket is read from the statement's snapshot, as the separate insert
 * before the ticket's own change read it.
 */
export function autoMessageFactsParts(ticketId: number, count: number): StatementPart[] {
  if (count <= 0) return [];
  return [
    (param) => `INSERT INTO ticket_metric_events (${EVENT_COLUMNS})
       SELECT t."tenantId", t.id, 'autoMessage', now(), t."queueId", NULL::int, t."whatsappId", t.channel, t."contactId", NULL::int, NULL::int, NULL::int
         FROM tickets t CROSS JOIN generate_series(1, ${param(count)}::int)
        WHERE t.id = ${param(ticketId)}`,
    (param) => `INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", slot, n)
       SELECT t."tenantId", 'autoMessage', (now() AT TIME ZONE 'UTC')::date, t."queueId", NULL::int, ${DAILY_SLOT}, ${param(count)}::int
         FROM tickets t WHERE t.id = ${param(ticketId)}
       ON CONFLICT ON CONSTRAINT ticket_metric_daily_key DO UPDATE SET n = ticket_metric_daily.n + EXCLUDED.n`,
  ];
}

/**
 * New tickets (upsertActiveTicket(s)): one `opened` fact each, with the queue and agent they were
 * created with (and `assigned` when created for an agent); a ticket created open is open from its
 * first instant (no waiting).
 */
export async function recordTicketsOpened(tx: Queryable, ticketIds: readonly number[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await tx.query(
    `WITH o AS (
       UPDATE tickets SET "firstOpenedAt" = CASE WHEN status = 'open' THEN "createdAt" END
        WHERE id = ANY($1::int[]) RETURNING *
     )
     INSERT INTO ticket_metric_events (${EVENT_COLUMNS})
     SELECT o."tenantId", o.id, k.kind, o."createdAt", o."queueId", o."userId", o."whatsappId", o.channel, o."contactId", NULL::int, NULL::int, NULL::int
       FROM o CROSS JOIN LATERAL (VALUES ('opened'), ('assigned')) AS k(kind)
      WHERE k.kind = 'opened' OR o."userId" IS NOT NULL`,
    [ticketIds],
  );
}

/**
 * A transition of a locked ticket (applyTicketChange, after its UPDATE): its facts with the
 * ticket's queue and agent after the change, and the summary columns (first open and waiting
 * time, resolution time, cleared again by a reopen).
 */
export async function recordTicketChange(
  tx: Queryable,
  ticketId: number,
  before: TicketFactsState,
  after: TicketFactsState,
): Promise<void> {
  const facts = transitionFacts(before, after);
  if (facts.length === 0) return;
  await tx.query(
    `WITH k AS (
       SELECT k.* FROM unnest($2::varchar[], $3::int[], $4::int[]) AS k(kind, "fromQueueId", "fromUserId")
        WHERE k.kind <> 'started' OR (SELECT "firstOpenedAt" IS NULL FROM tickets WHERE id = $1)
     ), u AS (
       UPDATE tickets t SET
         "firstOpenedAt" = CASE WHEN EXISTS (SELECT 1 FROM k WHERE kind = 'started') THEN now() ELSE t."firstOpenedAt" END,
         "waitingSeconds" = CASE WHEN EXISTS (SELECT 1 FROM k WHERE kind = 'started') THEN ${SINCE_CREATED('now()', 't')} ELSE t."waitingSeconds" END,
         "resolutionSeconds" = CASE WHEN EXISTS (SELECT 1 FROM k WHERE kind = 'resolved') THEN ${SINCE_CREATED('now()', 't')}
                                    WHEN EXISTS (SELECT 1 FROM k WHERE kind = 'reopened') THEN NULL
                                    ELSE t."resolutionSeconds" END
        WHERE t.id = $1
        RETURNING t.*
     )
     INSERT INTO ticket_metric_events (${EVENT_COLUMNS})
     SELECT u."tenantId", u.id, k.kind, now(), u."queueId", u."userId", u."whatsappId", u.channel, u."contactId",
            k."fromQueueId", k."fromUserId",
            CASE WHEN k.kind IN ('started', 'resolved') THEN ${SINCE_CREATED('now()', 'u')} END
       FROM u, k`,
    [ticketId, facts.map((f) => f.kind), facts.map((f) => f.fromQueueId), facts.map((f) => f.fromUserId)],
  );
}

/**
 * Messages to the customer, right after their rows are written: an agent's (`reply`, and the
 * ticket's `firstReply` with its first response time when it is the first) or an automated one
 * (`autoMessage`). The first reply is claimed by `"firstReplyAt" IS NULL` on the ticket row, so
 * two agents answering at once record one first reply.
 */
export async function recordOutboundMessages(
  tx: Queryable,
  ticketId: number,
  messageIds: readonly number[],
  kind: 'reply' | 'autoMessage',
): Promise<void> {
  if (messageIds.length === 0) return;
  if (kind === 'autoMessage') {
    await tx.query(
      withDailyCounts(`${AUTO_MESSAGE_FACTS('messages')} WHERE m.id = ANY($2::bigint[]) AND m."ticketId" = $1`),
      [ticketId, messageIds],
    );
    return;
  }
  await tx.query(
    `WITH m AS (
       SELECT id, "userId", "createdAt" FROM messages WHERE id = ANY($2::bigint[]) AND "ticketId" = $1
     ), first AS (
       SELECT * FROM m ORDER BY "createdAt", id LIMIT 1
     ), f AS (
       UPDATE tickets t SET "firstReplyAt" = first."createdAt",
              "firstResponseSeconds" = CASE WHEN t."isActiveDemand" THEN NULL ELSE ${SINCE_CREATED('first."createdAt"', 't')} END
         FROM first
        WHERE t.id = $1 AND t."firstReplyAt" IS NULL
        RETURNING t.*, first."userId" AS "replyUserId"
     ), ${APPENDED(`
       SELECT f."tenantId", f.id, 'firstReply', f."firstReplyAt", f."queueId", f."replyUserId", f."whatsappId", f.channel, f."contactId",
              NULL::int, NULL::int, f."firstResponseSeconds"
         FROM f
       UNION ALL
       SELECT t."tenantId", t.id, 'reply', m."createdAt", t."queueId", m."userId", t."whatsappId", t.channel, t."contactId", NULL::int, NULL::int, NULL::int
         FROM m, tickets t WHERE t.id = $1`)}
     ${DAILY_COUNTS_OF_APPENDED}`,
    [ticketId, messageIds],
  );
}

/** Messages from the customer (the inbound pipeline's batch), with each ticket's queue and agent now. */
export async function recordInboundMessages(tx: Queryable, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.query(
    withDailyCounts(`
     SELECT t."tenantId", t.id, 'messageIn', m."createdAt", t."queueId", t."userId", t."whatsappId", t.channel, t."contactId", NULL::int, NULL::int, NULL::int
       FROM messages m JOIN tickets t ON t.id = m."ticketId"
      WHERE m.id = ANY($1::bigint[])`),
    [messageIds],
  );
}

/**
 * The ticket's rating, right after its ticket_ratings row was written: one fact per ticket (a
 * corrected rating replaces the earlier one), attributed to the rated agent.
 */
export async function recordRating(tx: Queryable, ticketId: number): Promise<void> {
  await tx.query(
    `WITH earlier AS (DELETE FROM ticket_metric_events WHERE "ticketId" = $1 AND kind = 'rating')
     INSERT INTO ticket_metric_events (${EVENT_COLUMNS})
     SELECT t."tenantId", t.id, 'rating', r."createdAt", t."queueId", r."userId", t."whatsappId", t.channel, t."contactId", NULL::int, NULL::int, r.rating
       FROM tickets t JOIN ticket_ratings r ON r."ticketId" = t.id
      WHERE t.id = $1`,
    [ticketId],
  );
}
