import type { EntityManager } from 'typeorm';
import { FAREWELL_CLOSE_DELAY_MS } from '@shared/limits';
import { withDefaultRating, type RatingSettings } from '@shared/schemas/tenant-settings';
import type { Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { recordRating } from './ticket-metrics';
import { applyTicketChange, lockTicket, queueOutboundText, selectTicket, type TicketSet } from './ticket-writes';
import type { TicketRow } from './tickets.presenter';
import { renderForTicket } from './ticket-variables';

const variablesOf = (ticket: TicketRow, now: Date) => ({
  tenantId: ticket.tenantId,
  ticketId: ticket.id,
  userId: ticket.userId,
  now,
});

/**
 * Closing a ticket: at once, after a farewell (deferred: `closeAt` is a row, a periodic sweep
 * closes what is due, so a restart loses nothing), after the customer's rating reply, or when
 * idle for the tenant's autoCloseTicketsMinutes. Every close logs and emits ticket:update.
 */

export const CLOSE_DUE_JOB = 'tickets.close-due';
export const AUTO_CLOSE_JOB = 'tickets.auto-close';
/** Farewell closes are due FAREWELL_CLOSE_DELAY_MS after the resolve; looked for this often. */
export const CLOSE_DUE_SWEEP_MS = 5_000;
export const AUTO_CLOSE_SWEEP_MS = 60_000;
const SWEEP_BATCH = 50;

export type CloseReason =
  'resolved' | 'farewell' | 'forced' | 'rating' | 'ratingUnanswered' | 'idle' | 'massResolve' | 'channelClear' | 'nullUser' | 'chatbot';

/** The columns a close writes. */
export function closedSet(now: Date, reason: CloseReason | SystemCloseReason): TicketSet {
  return { status: 'closed', closedAt: now, closeAt: null, closeReason: reason, ratingRequestedAt: null };
}

/** The farewell countdown: the message goes out now, the ticket closes when `closeAt` is due. */
export function farewellSet(now: Date): TicketSet {
  return { closeAt: new Date(now.getTime() + FAREWELL_CLOSE_DELAY_MS), closeReason: 'farewell' };
}

export async function ratingSettingsOf(db: Queryable, tenantId: number): Promise<RatingSettings> {
  const [row] = (await db.query(`SELECT "ratingSettings" FROM tenants WHERE id = $1`, [tenantId])) as {
    ratingSettings: Partial<RatingSettings> | null;
  }[];
  return withDefaultRating(row?.ratingSettings);
}

/** The channel's farewell message, if it has one. */
export async function farewellMessageOf(
  db: Queryable,
  ticket: Pick<TicketRow, 'tenantId' | 'whatsappId'>,
): Promise<string | null> {
  if (ticket.whatsappId === null) return null;
  const [row] = (await db.query(`SELECT "farewellMessage" FROM channels WHERE id = $1 AND "tenantId" = $2`, [
    ticket.whatsappId,
    ticket.tenantId,
  ])) as { farewellMessage: string | null }[];
  const text = row?.farewellMessage?.trim();
  return text ? text : null;
}

/**
 * Closes, in blocks, the tickets picked by `pick` (ids of due rows, locked with SKIP LOCKED so
 * several workers never close one twice). Answers the closed ids.
 */
async function closeInBlocks(
  deps: Pick<AppDeps, 'events'>,
  pick: (tx: EntityManager) => Promise<number[]>,
  close: (tx: EntityManager, emit: Emit, ticket: TicketRow) => Promise<void>,
): Promise<number[]> {
  const closed: number[] = [];
  for (;;) {
    const ids = await deps.events.transaction(async (tx, emit) => {
      const due = await pick(tx);
      for (const id of due) {
        const ticket = await selectTicket(tx, id);
        if (ticket) await close(tx, emit, ticket);
      }
      return due;
    });
    closed.push(...ids);
    if (ids.length < SWEEP_BATCH) return closed;
  }
}

/** Closes every ticket whose farewell countdown is over. */
export async function closeDueTickets(deps: Pick<AppDeps, 'events' | 'clock'>, now = deps.clock.now()): Promise<number[]> {
  return closeInBlocks(
    deps,
    async (tx) =>
      (
        (await tx.query(
          `SELECT id FROM tickets
            WHERE "closeAt" IS NOT NULL AND "closeAt" <= $1 AND status IN ('open','pending')
            ORDER BY "closeAt", id LIMIT ${SWEEP_BATCH}
            FOR UPDATE SKIP LOCKED`,
          [now],
        )) as { id: number }[]
      ).map((r) => r.id),
    async (tx, emit, ticket) => {
      await applyTicketChange(tx, emit, ticket, closedSet(now, 'farewell'), {
        type: 'close',
        userId: null,
        data: { reason: 'farewell', closeAt: ticket.closeAt },
      });
    },
  );
}

/**
 * Resolves open and pending tickets without activity for the tenant's autoCloseTicketsMinutes
 * (0 or no row: off). Reads the keyset index by ("tenantId", status, "lastMessageAt").
 */
export async function autoCloseIdleTickets(
  deps: Pick<AppDeps, 'events' | 'clock' | 'dataSource'>,
  now = deps.clock.now(),
): Promise<number[]> {
  const tenants = (await deps.dataSource.query(
    `SELECT s."tenantId", s.value FROM settings s JOIN tenants t ON t.id = s."tenantId"
      WHERE s.key = 'autoCloseTicketsMinutes' AND s.value ~ '^[0-9]+$' AND s.value <> '0' AND t.status = 'active'`,
  )) as { tenantId: number; value: string }[];
  const closed: number[] = [];
  for (const { tenantId, value } of tenants) {
    const cutoff = new Date(now.getTime() - Number(value) * 60_000);
    closed.push(
      ...(await closeInBlocks(
        deps,
        async (tx) =>
          (
            (await tx.query(
              `SELECT id FROM tickets
                WHERE "tenantId" = $1 AND status IN ('open','pending') AND "lastMessageAt" < $2
                ORDER BY "lastMessageAt", id LIMIT ${SWEEP_BATCH}
                FOR UPDATE SKIP LOCKED`,
              [tenantId, cutoff],
            )) as { id: number }[]
          ).map((r) => r.id),
        async (tx, emit, ticket) => {
          await applyTicketChange(tx, emit, ticket, closedSet(now, 'idle'), {
            type: 'autoClose',
            userId: null,
            data: { idleMinutes: Number(value), lastMessageAt: ticket.lastMessageAt },
          });
        },
      )),
    );
  }
  return closed;
}

/**
 * Registers both sweeps as periodic tasks (claimed through PostgreSQL, so a Redis loss never
 * stops them); each also runs right after start, for what a restart left due.
 */
export function scheduleTicketSweeps(deps: Pick<AppDeps, 'periodic' | 'events' | 'clock' | 'dataSource' | 'logger'>): void {
  deps.periodic.register({
    name: CLOSE_DUE_JOB,
    intervalMs: CLOSE_DUE_SWEEP_MS,
    run: async () => {
      const closed = await closeDueTickets(deps);
      if (closed.length > 0) deps.logger.info({ closed: closed.length }, 'closed tickets after their farewell');
    },
  });
  deps.periodic.register({
    name: AUTO_CLOSE_JOB,
    intervalMs: AUTO_CLOSE_SWEEP_MS,
    run: async () => {
      const closed = await autoCloseIdleTickets(deps);
      if (closed.length > 0) deps.logger.info({ closed: closed.length }, 'auto-resolved idle tickets');
    },
  });
}

// ---------- Resolved by the system (the customer's closing keyword) ----------

/** Why the system (not an agent) resolved a ticket. */
export type SystemCloseReason = 'closingKeyword';

/**
 * Resolves a locked active ticket without an agent's request, by the same rules as an agent's
 * resolve: the rating request when the tenant has ratings on (the ticket closes after the
 * reply), else the channel's farewell (the ticket closes FAREWELL_CLOSE_DELAY_MS later), else at
 * once. A ticket already counting down to its close is left as it is.
 */
export async function resolveBySystem(
  tx: EntityManager,
  emit: Emit,
  current: TicketRow,
  now: Date,
  reason: SystemCloseReason,
  /** Receives the ids of the messages queued (rating request or farewell), for the caller to announce. */
  queued: number[] = [],
): Promise<'ratingRequest' | 'farewell' | 'closed' | 'none'> {
  if (current.status !== 'open' && current.status !== 'pending') return 'none';
  if (current.closeAt !== null || current.ratingRequestedAt !== null) return 'none';
  const rating = await ratingSettingsOf(tx, current.tenantId);
  if (rating.enabled && current.whatsappId !== null && !current.isGroup && rating.message.trim()) {
    const request = await renderForTicket(tx, rating.message.trim(), variablesOf(current, now));
    queued.push(await queueOutboundText(tx, current, request, { userId: null, now, kind: 'ratingRequest' }));
    await applyTicketChange(
      tx,
      emit,
      current,
      { ratingRequestedAt: now, lastMessage: request, lastMessageAt: now },
      { type: 'ratingRequest', userId: null, data: { attempt: 1, reason } },
    );
    return 'ratingRequest';
  }
  const farewellText = current.isGroup ? null : await farewellMessageOf(tx, current);
  if (farewellText) {
    const farewell = await renderForTicket(tx, farewellText, variablesOf(current, now));
    queued.push(await queueOutboundText(tx, current, farewell, { userId: null, now, kind: 'farewell' }));
    await applyTicketChange(
      tx,
      emit,
      current,
      { ...farewellSet(now), lastMessage: farewell, lastMessageAt: now },
      { type: 'farewell', userId: null, data: { closeAt: farewellSet(now).closeAt, reason } },
    );
    return 'farewell';
  }
  await applyTicketChange(tx, emit, current, closedSet(now, reason), { type: 'close', userId: null, data: { reason } });
  return 'closed';
}

// ---------- The customer's reply to a rating request ----------

export interface InboundTicketOutcome {
  /** 'rating': the reply was a rating and the ticket closed; 'ratingRetry': asked again; 'none': not ours. */
  handled: 'rating' | 'ratingRetry' | 'ratingGiveUp' | 'none';
  closed: boolean;
  rating?: number;
}

/** A reply with exactly one digit, 0 to 5 ("5", "5!", "nota 4"); "10" or "3 ou 4" are not ratings. */
export function ratingOf(text: string): number | null {
  const digits = text.match(/\d/g) ?? [];
  if (digits.length !== 1 || text.trim().length > 40) return null;
  const value = Number(digits[0]);
  return value >= 0 && value <= 5 ? value : null;
}

/**
 * For the inbound pipeline: call it with every inbound text of a ticket, in the transaction that
 * stored the message (`emit` of that transaction). While a rating request is open
 * (`ratingRequestedAt`), a reply with a digit 0..5 records the rating (attributed to the ticket's
 * agent), sends the tenant's thanks message and closes the ticket; another reply asks again, up
 * to the tenant's `maxAttempts` requests, then the ticket closes without a rating. Outside a
 * rating request it does nothing ('none') and the pipeline goes on as usual.
 */
export async function handleInboundForTicket(
  tx: EntityManager,
  emit: Emit,
  ticket: { id: number; tenantId: number },
  text: string,
  now: Date = new Date(),
): Promise<InboundTicketOutcome> {
  if (!(await lockTicket(tx, ticket.tenantId, ticket.id))) return { handled: 'none', closed: false };
  const current = await selectTicket(tx, ticket.id);
  if (!current || current.ratingRequestedAt === null || (current.status !== 'open' && current.status !== 'pending')) {
    return { handled: 'none', closed: false };
  }
  const settings = await ratingSettingsOf(tx, current.tenantId);
  const [{ requests }] = (await tx.query(
    `SELECT count(*)::int AS requests FROM ticket_logs WHERE "ticketId" = $1 AND type = 'ratingRequest'`,
    [current.id],
  )) as { requests: number }[];
  const rating = ratingOf(text);
  if (rating !== null) {
    await tx.query(
      `INSERT INTO ticket_ratings ("tenantId", "ticketId", "userId", rating, attempts) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("ticketId") DO UPDATE SET rating = EXCLUDED.rating, attempts = EXCLUDED.attempts, "createdAt" = now()`,
      [current.tenantId, current.id, current.userId, rating, Math.max(requests, 1)],
    );
    await recordRating(tx, current.id);
    if (settings.thanksMessage.trim()) {
      const thanks = await renderForTicket(tx, settings.thanksMessage.trim(), variablesOf(current, now));
      await queueOutboundText(tx, current, thanks, { userId: null, now, kind: 'ratingThanks' });
    }
    await applyTicketChange(tx, emit, current, closedSet(now, 'rating'), {
      type: 'rating',
      userId: null,
      data: { rating, label: settings.labels[rating], source: 'customer' },
    });
    return { handled: 'rating', closed: true, rating };
  }
  if (requests < settings.maxAttempts) {
    const request = await renderForTicket(tx, settings.message.trim(), variablesOf(current, now));
    await queueOutboundText(tx, current, request, { userId: null, now, kind: 'ratingRequest' });
    await applyTicketChange(
      tx,
      emit,
      current,
      { ratingRequestedAt: now },
      { type: 'ratingRequest', userId: null, data: { attempt: requests + 1 } },
    );
    return { handled: 'ratingRetry', closed: false };
  }
  await applyTicketChange(tx, emit, current, closedSet(now, 'ratingUnanswered'), {
    type: 'close',
    userId: null,
    data: { reason: 'ratingUnanswered', requests },
  });
  return { handled: 'ratingGiveUp', closed: true };
}
