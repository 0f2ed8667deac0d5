import { access } from 'node:fs/promises';
import { SOCKET_EVENTS } from '@shared/events';
import type { MessageEventPayload } from '@shared/schemas/messages';
import type { DomainEvent } from '../../db/entities';
import { UNCONFIRMED_SEND_MESSAGE, UNDELIVERED_MESSAGE, unconfirmedAnswerLostMessage } from '@shared/schemas/messages';
import {
  ACK_BY_STATUS,
  ChannelSendError,
  type ChannelAdapter,
  type ChannelRecord,
  type OutboundTarget,
  type SendResult,
} from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { uniqueViolationOf } from '../../db/pg-errors';
import type { EarlyStatusRow } from '../messaging/inbound/inbound-pipeline';
import { ChannelReachability, type ReachabilityRegistry } from './channel-reachability';
import { emitMessageRows, emitMessages } from './message-events';
import { presentMessage, type MessageRow } from './messages.presenter';
import { absoluteMediaPath } from './message-media';
import { loadTicket, ticketAudience, type MessageTicket } from './message-ticket';
import { messageSelectFrom, returnedRows } from './messages.query';
import { loadDeliveryContext } from './outbound-target';
import { SendLanes } from './send-lanes';
import { templateSendOf } from '../templates/template-send';

export const DELIVER_JOB = 'messages.deliver';
export const OUTBOUND_SWEEP_JOB = 'messages.outbound-sweep';
/** How often due pending (and scheduled) messages are looked for: the safety net of every send. */
export const OUTBOUND_SWEEP_INTERVAL_MS = 5_000;
/** Tries of a send that fails for a passing reason (timeouts, 5xx, 429) before it is failed. */
export const MAX_SEND_ATTEMPTS = 6;
export const RETRY_BASE_DELAY_MS = 2_000;
export const RETRY_MAX_DELAY_MS = 5 * 60_000;
/**
 * A claimed message is not due again for this long: another worker will not send it while this
 * one is, and a worker that dies mid-send leaves it to be retried once the lease is over.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;
/** A message waiting for its channel (none, or not connected) is looked at again after this. */
export const CHANNEL_WAIT_DELAY_MS = 30_000;
/** A message still waiting for its channel after this long fails: a late send surprises more than a failed one. */
export const PENDING_MAX_AGE_MS = 24 * 3600_000;
const SWEEP_BATCH = 20;
const SWEEP_MAX_BATCHES = 50;

/** Longest wait before the next try: 2 s, 4 s, 8 s, ... after the 1st, 2nd, 3rd failed try, capped. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_MAX_DELAY_MS);
}

/**
 * The wait actually used: between half and all of retryDelayMs ("equal jitter"), so the sends a
 * provider outage failed together do not all come back in the same second; never shorter than
 * what the provider asked for (Retry-After).
 */
export function nextRetryDelayMs(failedAttempts: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const ceiling = retryDelayMs(failedAttempts);
  return Math.max(Math.round(ceiling / 2 + (ceiling / 2) * random()), retryAfterMs);
}

/** Channels a sweep sends to at once; a channel's own messages go one after another, in order. */
export const SWEEP_CHANNEL_CONCURRENCY = 8;
/**
 * `messages.deliver` jobs a process runs at once (Bull's concurrency; the memory driver runs
 * every due job at once). A job whose channel is busy in this process does not wait: it hands
 * the message to the channel's lane and ends, so job slots are never held by a hanging channel.
 */
export const DELIVER_JOB_CONCURRENCY = 16;

/** The channel registry as the delivery needs it (AppDeps.channels). */
export interface ChannelAdapterSource {
  adapterFor(channel: ChannelRecord): ChannelAdapter | Promise<ChannelAdapter>;
  /** Session changes (a channel whose provider cannot be reached is marked CONNECTION_LOST). */
  setStatus?: ReachabilityRegistry['setStatus'];
  /** Statuses that came before their message's provider id (the channel registry's inbound pipeline). */
  inbound?: {
    applyEarlyStatuses(only?: { channelId: number; providerMessageId: string }): Promise<number>;
    applyTakenEarlyStatuses?(rows: readonly EarlyStatusRow[]): Promise<number>;
  };
}

/** The ticket and channel of a message to deliver, when its writer knows them (DELIVER_JOB's data). */
export interface DeliveryLane {
  ticketId: number;
  channelId: number | null;
}

/** DELIVER_JOB's data: the message, and its lane when the writer knew it. */
export interface DeliverJobData {
  messageId: number;
  ticketId?: number;
  channelId?: number | null;
}

/** `queued`: the channel was busy in this process; its lane sends the message right after. */
export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'waiting' | 'skipped' | 'queued';

/** Why a message waits while its channel is CONNECTION_LOST (provider unreachable, or a dropped session). */
export const CHANNEL_LOST_REASON = 'Conexão com o provedor perdida.';

/** Which claimed rows: one message, one lane's, or any due row outside the lanes busy here. */
interface ClaimFilter {
  messageId?: number;
  /** Only messages up to this id (with ticketId: the ones a message must not overtake). */
  upToId?: number;
  channelId?: number;
  ticketId?: number;
  excludeChannels?: number[];
  excludeTickets?: number[];
}

/** Lane of a message: its ticket's channel, or the ticket itself when it has none. */
const laneKey = (channelId: number | null, ticketId: number): string => (channelId === null ? `t:${ticketId}` : `c:${channelId}`);
const laneFilter = (key: string): ClaimFilter =>
  key.startsWith('c:') ? { channelId: Number(key.slice(2)) } : { ticketId: Number(key.slice(2)) };

/**
 * A claimed message: the row as events present it (as of the claim), plus what the send needs.
 * `version` is its updatedAt as written by the claim, to its microsecond: the send's outcome
 * write is announced from this row only if nobody changed the message since (succeed).
 */
type ClaimedMessage = MessageRow & {
  /** The ticket's channel when claimed (groups a sweep's sends per channel). */
  channelId: number | null;
  mediaPath: string | null;
  dataJson: { buttons?: { id: string; title: string }[]; sendAsVoice?: boolean; template?: unknown; mentions?: string[] } | null;
  version: string;
};

export const waitingForChannelText = (reason: string) => `${reason} A mensagem será enviada quando a conexão estiver ativa.`;

/**
 * Outbound delivery (LESSONS 2: no fire-and-forget). Every outbound message is first a row with
 * status `pending` and `nextRetryAt`; this service moves due rows to `sent` (provider id, ack 1)
 * or `failed` ('Mensagem não entregue'), and every change is an `appMessage:update` event.
 *
 * - Who sends: a `messages.deliver` job enqueued right after the row commits, and a sweep every
 *   OUTBOUND_SWEEP_INTERVAL_MS (plus one at start) that picks whatever is due, so a lost job, a
 *   restart or a dead worker never loses a message.
 * - Per-channel lanes (send-lanes.ts): in a process, a channel's sends run one at a time and in
 *   order, whether a job or the sweep started them; a job that finds its channel busy leaves the
 *   message to that lane (which sends what came due before letting go) instead of waiting, so a
 *   hanging provider holds one job slot and its own lane, never another tenant's sends.
 * - Several workers: a row is claimed by one statement (`FOR UPDATE SKIP LOCKED` on the due
 *   rows, then `nextRetryAt` moved CLAIM_LEASE_MS ahead and `sendAttempts` + 1). No transaction
 *   is held during the provider call. Right before the call `sendClaimedAt` is set and every
 *   outcome clears it: a worker that dies during the call leaves it set, and once the lease is
 *   over the message fails as unconfirmed (failUnconfirmed) instead of being resent, since no
 *   provider offers an idempotency key or a lookup by our id; the agent resends it if needed.
 *   A worker that dies before the call is resent normally after the lease. The same holds when
 *   the provider call itself says the message may have arrived (the connection lost mid-answer,
 *   ChannelSendError.mayHaveArrived): failed as unconfirmed at once, not retried.
 * - Failures: ChannelSendError `retryable` (timeouts, 5xx, 429) retries after 2 s, 4 s, 8 s ...
 *   (capped at 5 min) up to MAX_SEND_ATTEMPTS tries, then fails; a non-retryable one (4xx:
 *   invalid number, bad token) fails at once with the provider's reason in `lastError`.
 * - No channel, channel not connected: the message stays pending with `lastError` saying so,
 *   without spending tries, and is looked at every CHANNEL_WAIT_DELAY_MS; it fails after
 *   PENDING_MAX_AGE_MS. A channel whose provider stops answering is marked CONNECTION_LOST
 *   (channel-reachability.ts), so its messages wait instead of spending their tries, and they
 *   are made due as soon as the provider answers again.
 */
export class OutboundDelivery {
  readonly reachability: ChannelReachability;
  private readonly lanes: SendLanes;

  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'jobs' | 'logger' | 'clock' | 'config'>,
    private readonly adapters: () => ChannelAdapterSource | undefined,
  ) {
    this.lanes = new SendLanes(
      (key) => this.drainLane(key),
      (err, key) => this.deps.logger.error({ err, lane: key }, 'message delivery crashed'),
    );
    this.reachability = new ChannelReachability(
      deps,
      () => {
        const source = this.adapters();
        return source?.setStatus
          ? { adapterFor: (c) => source.adapterFor(c), setStatus: source.setStatus.bind(source) }
          : undefined;
      },
      (channel) => this.channelRestored(channel),
    );
  }

  /**
   * Asks a worker to send now (or after `delayMs`). A failure to enqueue is logged, not thrown:
   * the row is already committed and the sweep sends it.
   */
  async enqueue(messageId: number, opts: { delayMs?: number; attempt?: number } = {}): Promise<void> {
    try {
      await this.deps.jobs.enqueue(
        DELIVER_JOB,
        { messageId },
        { delay: opts.delayMs || undefined, jobId: `deliver:${messageId}:${opts.attempt ?? 0}` },
      );
    } catch (err) {
      this.deps.logger.warn({ err, messageId }, 'could not enqueue a message delivery; the sweep will send it');
    }
  }

  /**
   * Sends one message if it is due and nobody else holds it. When its channel is busy in this
   * process the message is left to that channel's lane ('queued'), unless `wait` (the caller
   * wants the outcome: POST /noRedis), which queues behind the lane.
   */
  async deliver(messageId: number, opts: { wait?: boolean; lane?: DeliveryLane } = {}): Promise<DeliveryOutcome> {
    // The lane comes with the job when its writer knew the ticket (a chatbot answer): one read
    // fewer per send. A ticket moved to another channel since only changes which lane of this
    // process sends it; the claim below still keeps the ticket's own order.
    const lane =
      opts.lane !== undefined
        ? { ticketId: opts.lane.ticketId, whatsappId: opts.lane.channelId }
        : (
            (await this.deps.dataSource.query(
              `SELECT m."ticketId", t."whatsappId" FROM messages m JOIN tickets t ON t.id = m."ticketId" WHERE m.id = $1 AND m.status = 'pending'`,
              [messageId],
            )) as { ticketId: number; whatsappId: number | null }[]
          )[0];
    if (!lane) return 'skipped';
    const key = laneKey(lane.whatsappId, lane.ticketId);
    if (!opts.wait && this.lanes.requestDrain(key)) return 'queued';
    return this.lanes.run(key, async () => {
      // A message never overtakes an older one of its ticket that is due too: two jobs (or a job
      // and a retry) may start in either order, the customer reads them in the order written.
      const rows = await this.claim(SWEEP_BATCH, { ticketId: lane.ticketId, upToId: messageId });
      let outcome: DeliveryOutcome = 'skipped';
      for (const row of rows) {
        if (Number(row.id) === messageId) outcome = await this.send(row);
        else await this.sendLogged(row);
      }
      return outcome;
    });
  }

  /** Sends every due message, in batches; answers how many were tried. */
  async sweep(): Promise<number> {
    await this.failUnconfirmed();
    let tried = 0;
    for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
      // A channel busy here (a send in flight, maybe hanging) keeps its due messages: its lane
      // takes them when the send in flight is over, in order.
      const busy = this.lanes.busyKeys();
      const rows = await this.claim(SWEEP_BATCH, {
        excludeChannels: busy.filter((k) => k.startsWith('c:')).map((k) => Number(k.slice(2))),
        excludeTickets: busy.filter((k) => k.startsWith('t:')).map((k) => Number(k.slice(2))),
      });
      for (const key of busy) this.lanes.requestDrain(key);
      await this.sendByChannel(rows);
      tried += rows.length;
      if (rows.length < SWEEP_BATCH) break;
    }
    // Statuses a provider posted before a send had recorded its id (missed by the check in
    // succeed when both committed at once) are applied here at the latest.
    await this.adapters()
      ?.inbound?.applyEarlyStatuses()
      .catch((err) => this.deps.logger.warn({ err }, 'early statuses not applied'));
    return tried;
  }

  /**
   * A batch's messages grouped by channel: channels in parallel (up to SWEEP_CHANNEL_CONCURRENCY),
   * each channel's messages in order. A provider that hangs or times out holds only its own
   * channel's sends, never another tenant's.
   */
  private async sendByChannel(rows: ClaimedMessage[]): Promise<void> {
    const groups = new Map<string, ClaimedMessage[]>();
    for (const row of rows) {
      const key = laneKey(row.channelId, row.ticketId);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const queue = [...groups.entries()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        const [key, members] = group;
        await this.lanes.run(key, async () => {
          for (const row of members) await this.sendLogged(row);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(SWEEP_CHANNEL_CONCURRENCY, queue.length) }, worker));
  }

  /** Inside a lane: what came due on its channel while it was busy, in order. */
  private async drainLane(key: string): Promise<void> {
    for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
      const rows = await this.claim(SWEEP_BATCH, laneFilter(key));
      for (const row of rows) await this.sendLogged(row);
      if (rows.length < SWEEP_BATCH) return;
    }
  }

  private sendLogged(row: ClaimedMessage): Promise<DeliveryOutcome | void> {
    return this.send(row).catch((err) => this.deps.logger.error({ err, messageId: row.id }, 'message delivery crashed'));
  }

  /**
   * The provider of a channel marked unreachable answers again: its messages that wait for it
   * are due now, and its lane sends them. Only rows released by `wait` with the lost-channel
   * text and not held by a worker (a claimed row's lease is CLAIM_LEASE_MS ahead, past the
   * CHANNEL_WAIT_DELAY_MS a waiting row is given).
   */
  async channelRestored(channel: Pick<ChannelRecord, 'id' | 'tenantId'>): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.dataSource.query(
      `UPDATE messages SET "nextRetryAt" = $3, "updatedAt" = now()
        WHERE status = 'pending' AND "sendClaimedAt" IS NULL AND "lastError" = $4
          AND "nextRetryAt" > $3 AND "nextRetryAt" <= $5
          AND "tenantId" = $2 AND "ticketId" IN (SELECT id FROM tickets WHERE "whatsappId" = $1 AND "tenantId" = $2)`,
      [
        channel.id,
        channel.tenantId,
        now,
        waitingForChannelText(CHANNEL_LOST_REASON),
        new Date(now.getTime() + CHANNEL_WAIT_DELAY_MS),
      ],
    );
    const key = laneKey(channel.id, 0);
    if (!this.lanes.requestDrain(key)) {
      void this.lanes
        .run(key, () => this.drainLane(key))
        .catch((err) => this.deps.logger.error({ err, channelId: channel.id }, 'message delivery crashed'));
    }
  }

  private async claim(limit: number, filter: ClaimFilter = {}): Promise<ClaimedMessage[]> {
    const now = this.deps.clock.now();
    const params: unknown[] = [now, new Date(now.getTime() + CLAIM_LEASE_MS), limit];
    const where: string[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.messageId !== undefined) where.push(`id = ${param(filter.messageId)}`);
    if (filter.upToId !== undefined) where.push(`id <= ${param(filter.upToId)}`);
    if (filter.ticketId !== undefined) where.push(`"ticketId" = ${param(filter.ticketId)}`);
    if (filter.channelId !== undefined) {
      where.push(`"ticketId" IN (SELECT id FROM tickets WHERE "whatsappId" = ${param(filter.channelId)})`);
    }
    if (filter.excludeTickets?.length) where.push(`"ticketId" <> ALL(${param(filter.excludeTickets)}::int[])`);
    if (filter.excludeChannels?.length) {
      where.push(`"ticketId" NOT IN (SELECT id FROM tickets WHERE "whatsappId" = ANY(${param(filter.excludeChannels)}::int[]))`);
    }
    const result = await this.deps.dataSource.query(
      `WITH due AS (
         SELECT id FROM messages
          WHERE status = 'pending' AND "nextRetryAt" <= $1 AND "sendClaimedAt" IS NULL ${where.map((w) => `AND ${w}`).join(' ')}
          ORDER BY "nextRetryAt", id
          LIMIT $3
          FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE messages m
            SET "nextRetryAt" = $2, "sendAttempts" = m."sendAttempts" + 1, "updatedAt" = now()
           FROM due
          WHERE m.id = due.id AND m.status = 'pending'
         RETURNING m.*
       ), presented AS (${messageSelectFrom('claimed')})
       SELECT p.*, c."mediaPath", c."dataJson", c."updatedAt"::text AS version,
              (SELECT t."whatsappId" FROM tickets t WHERE t.id = c."ticketId") AS "channelId"
         FROM presented p JOIN claimed c ON c.id = p.id`,
      params,
    );
    // The statement gives no order: a batch goes out oldest message first.
    return returnedRows<ClaimedMessage>(result).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * Messages whose provider call started and never got an outcome (the worker was killed or lost
   * its database mid-call) and whose lease is over. None of our providers can say whether such a
   * message arrived (no idempotency key, no lookup by our id), so none is resent blindly: each
   * fails as unconfirmed and the agent resends it (POST /messages/{id}/retry) if needed.
   */
  async failUnconfirmed(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.events.transaction(async (tx, emit) => {
      const rows = returnedRows<{ id: string; ticketId: number }>(
        await tx.query(
          `UPDATE messages SET status = 'failed', ack = ${ACK_BY_STATUS.failed}, "nextRetryAt" = NULL, "sendClaimedAt" = NULL,
                  unconfirmed = true, "lastError" = $2, "updatedAt" = now()
            WHERE status = 'pending' AND "sendClaimedAt" IS NOT NULL AND "nextRetryAt" <= $1
            RETURNING id, "ticketId"`,
          [now, UNCONFIRMED_SEND_MESSAGE],
        ),
      );
      const byTicket = new Map<number, number[]>();
      for (const r of rows) byTicket.set(r.ticketId, [...(byTicket.get(r.ticketId) ?? []), Number(r.id)]);
      for (const [ticketId, ids] of byTicket) {
        const ticket = await loadTicket(tx, ticketId);
        if (ticket) await emitMessages(tx, emit, ticket, 'update', ids);
      }
      if (rows.length > 0)
        this.deps.logger.warn({ messageIds: rows.map((r) => r.id) }, 'sends left without an outcome failed as unconfirmed');
      return rows.length;
    });
  }

  private async send(row: ClaimedMessage): Promise<DeliveryOutcome> {
    const ds = this.deps.dataSource;
    const context = await loadDeliveryContext(ds, row.ticketId, row.quotedMsgId);
    if (!context) return 'skipped';
    const { ticket, channel, target } = context;
    if (ticket.whatsappId === null) return this.wait(row, ticket, 'Atendimento sem conexão.');
    if (!channel) return this.wait(row, ticket, 'Conexão não encontrada.');
    if (channel.status === 'CONNECTION_LOST') return this.wait(row, ticket, CHANNEL_LOST_REASON);
    if (channel.status !== 'CONNECTED') return this.wait(row, ticket, 'Sessão não inicializada.');
    const source = this.adapters();
    if (!source) return this.wait(row, ticket, 'Sessão não inicializada.');
    let adapter: ChannelAdapter;
    try {
      adapter = await source.adapterFor(channel);
    } catch (err) {
      this.deps.logger.warn({ err, channelId: channel.id }, 'no adapter for channel');
      return this.wait(row, ticket, 'Sessão não inicializada.');
    }
    if (!target) return this.fail(row, ticket, 'Este não é um número válido.');
    const opts = context.quotedProviderMessageId ? { quotedProviderMessageId: context.quotedProviderMessageId } : undefined;

    let result: SendResult;
    try {
      // From here until its outcome is written the provider may get the message: a worker that
      // dies now leaves this mark, and the message is failed as unconfirmed instead of resent.
      await ds.query(`UPDATE messages SET "sendClaimedAt" = now() WHERE id = $1 AND status = 'pending'`, [row.id]);
      result = await this.dispatch(adapter, target, row, opts);
    } catch (err) {
      const outcome = await this.failure(row, ticket, err);
      await this.reachability.sendFailed(channel, adapter, err);
      return outcome;
    }
    this.reachability.sendSucceeded(channel.id);
    await this.succeed(row, ticket, channel, result);
    return 'sent';
  }

  private async dispatch(
    adapter: ChannelAdapter,
    target: OutboundTarget,
    row: ClaimedMessage,
    opts: { quotedProviderMessageId: string } | undefined,
  ): Promise<SendResult> {
    const data = row.dataJson ?? {};
    const template = templateSendOf(data);
    if (template) return adapter.sendTemplate(target, template);
    if (Array.isArray(data.buttons) && data.buttons.length > 0) return adapter.sendButtons(target, row.body, data.buttons, opts);
    if (row.mediaPath) {
      const file = absoluteMediaPath(this.deps.config.dataDir, row.tenantId, row.mediaPath);
      // A file that is gone will not come back: fail now rather than retry six times.
      await access(file).catch(() => {
        throw new ChannelSendError('Arquivo da mensagem não encontrado.', false);
      });
      return adapter.sendMedia(
        target,
        {
          path: file,
          fileName: row.mediaName ?? 'arquivo',
          mimeType: row.mimeType ?? 'application/octet-stream',
          caption: row.body.trim() ? row.body : undefined,
          sendAsVoice: data.sendAsVoice === true,
        },
        opts,
      );
    }
    // Group mentions (POST /messages/mentionMessage, mentionAllMessage): only adapters with groups get them.
    if (Array.isArray(data.mentions) && data.mentions.length > 0 && adapter.groups) {
      return adapter.sendText(target, row.body, { ...opts, mentions: data.mentions });
    }
    return adapter.sendText(target, row.body, opts);
  }

  private async failure(row: ClaimedMessage, ticket: MessageTicket, err: unknown): Promise<DeliveryOutcome> {
    if (err instanceof AppError && (err.code === 'ERR_WAPP_NOT_INITIALIZED' || err.code === 'ERR_WAPP_INITIALIZED')) {
      return this.wait(row, ticket, err.message);
    }
    let retryable: boolean;
    let reason: string;
    let retryAfterMs = 0;
    if (err instanceof ChannelSendError && err.mayHaveArrived) {
      // The provider may have the message (its answer was lost on the way): not resent blindly.
      this.deps.logger.warn({ messageId: row.id, reason: err.message }, 'send without an answer failed as unconfirmed');
      return this.failUnconfirmedNow(row, ticket, unconfirmedAnswerLostMessage(err.message));
    }
    if (err instanceof ChannelSendError) {
      retryable = err.retryable;
      reason = err.message;
      retryAfterMs = err.retryAfterMs ?? 0;
    } else if (err instanceof AppError) {
      retryable = false;
      reason = err.message;
    } else {
      // Not the provider's answer (a bug, the network stack): worth another try, and logged.
      this.deps.logger.error({ err, messageId: row.id }, 'unexpected error sending a message');
      retryable = true;
      reason = 'Erro ao enviar a mensagem.';
    }
    if (!retryable || row.sendAttempts >= MAX_SEND_ATTEMPTS) return this.fail(row, ticket, reason);
    const delay = nextRetryDelayMs(row.sendAttempts, retryAfterMs);
    const next = new Date(this.deps.clock.now().getTime() + delay);
    await this.update(row, ticket, `"nextRetryAt" = $2, "lastError" = $3`, [next, reason], true);
    await this.enqueue(Number(row.id), { delayMs: delay, attempt: row.sendAttempts });
    return 'retry';
  }

  private async wait(row: ClaimedMessage, ticket: MessageTicket, reason: string): Promise<DeliveryOutcome> {
    const now = this.deps.clock.now();
    if (now.getTime() - new Date(row.createdAt).getTime() > PENDING_MAX_AGE_MS) return this.fail(row, ticket, reason);
    const text = waitingForChannelText(reason);
    await this.update(
      row,
      ticket,
      `"sendAttempts" = GREATEST(m."sendAttempts" - 1, 0), "nextRetryAt" = $2, "lastError" = $3`,
      [new Date(now.getTime() + CHANNEL_WAIT_DELAY_MS), text],
      // Announced once, not every CHANNEL_WAIT_DELAY_MS.
      row.lastError !== text,
    );
    return 'waiting';
  }

  private async failUnconfirmedNow(row: ClaimedMessage, ticket: MessageTicket, text: string): Promise<DeliveryOutcome> {
    await this.update(
      row,
      ticket,
      `status = 'failed', ack = ${ACK_BY_STATUS.failed}, "nextRetryAt" = NULL, unconfirmed = true, "lastError" = $2`,
      [text],
      true,
    );
    return 'failed';
  }

  private async fail(row: ClaimedMessage, ticket: MessageTicket, reason: string): Promise<DeliveryOutcome> {
    await this.update(
      row,
      ticket,
      `status = 'failed', ack = ${ACK_BY_STATUS.failed}, "nextRetryAt" = NULL, "lastError" = $2`,
      [`${UNDELIVERED_MESSAGE}: ${reason}`],
      true,
    );
    return 'failed';
  }

  /** One guarded write of the outcome (only while still pending) and its event. */
  private async update(
    row: ClaimedMessage,
    ticket: MessageTicket,
    set: string,
    values: unknown[],
    announce: boolean,
  ): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      // The row as events present it comes back from the write itself (no second read).
      const updated: MessageRow[] = await tx.query(
        `WITH written AS (
           UPDATE messages m SET ${set}, "sendClaimedAt" = NULL, "updatedAt" = now() WHERE m.id = $1 AND m.status = 'pending' RETURNING m.*
         ) ${messageSelectFrom('written')}`,
        [row.id, ...values],
      );
      if (announce) await emitMessageRows(emit, ticket, 'update', updated);
    });
  }

  private async succeed(row: ClaimedMessage, ticket: MessageTicket, channel: ChannelRecord, result: SendResult): Promise<void> {
    // The provider accepted it: record that even if an agent deleted or canceled it meanwhile
    // (the customer has it), but only move the status forward from pending.
    // A status the provider posted before this answer reached us waited for the id: taken out of
    // message_status_early by the same statement (one round trip: the write, the early statuses
    // and the row as events present it), applied after the commit. One that commits at the same
    // time as this write is missed here and applied by the sweep.
    const inbound = this.adapters()?.inbound;
    const takeEarly = inbound?.applyTakenEarlyStatuses !== undefined;
    const timestamp = result.timestamp ?? Math.floor(this.deps.clock.now().getTime() / 1000);
    const applyEarly = async (early: EarlyStatusRow[]) => {
      if (early.length === 0) return;
      await inbound
        ?.applyTakenEarlyStatuses?.(early)
        .catch((err) => this.deps.logger.warn({ err, messageId: row.id }, 'early statuses not applied'));
    };
    try {
      const early = await this.succeedAlone(row, ticket, channel, result, timestamp, takeEarly);
      if (early) return applyEarly(early);
    } catch (err) {
      // The provider id is already stored (handled below), or the statement failed: the
      // transaction below writes the outcome, or fails the same way.
      if (uniqueViolationOf(err) === undefined)
        this.deps.logger.warn({ err, messageId: row.id }, 'send outcome: one-statement write failed');
    }
    const write = (providerId: string | null) =>
      this.deps.events.transaction(async (tx, emit) => {
        const [written]: (MessageRow & { early: EarlyStatusRow[] | null })[] = await tx.query(
          `WITH ${
            takeEarly
              ? `early AS (
                   DELETE FROM message_status_early e WHERE $2::varchar IS NOT NULL AND e."whatsappId" = $3 AND e."messageId" = $2
                   RETURNING e."tenantId", e."whatsappId", e."messageId", e.status, e.error
                 ),`
              : ''
          } written AS (
             UPDATE messages
                SET "messageId" = COALESCE($2, "messageId"), "whatsappId" = $3, timestamp = COALESCE($4, timestamp),
                    status = CASE WHEN status = 'pending' THEN 'sent' ELSE status END,
                    ack = CASE WHEN status = 'pending' THEN ${ACK_BY_STATUS.sent} ELSE ack END,
                    "nextRetryAt" = NULL, "lastError" = NULL, "sendClaimedAt" = NULL, "updatedAt" = now()
              WHERE id = $1
              RETURNING *
           ), presented AS (${messageSelectFrom('written')})
           SELECT p.*, ${takeEarly ? '(SELECT json_agg(early) FROM early)' : 'NULL::json'} AS early FROM presented p`,
          [row.id, providerId, channel.id, timestamp],
        );
        if (written) {
          const { early, ...message } = written;
          await emitMessageRows(emit, ticket, 'update', [message as MessageRow]);
          return early ?? [];
        }
        return [];
      });
    try {
      await applyEarly(await write(result.providerMessageId));
    } catch (err) {
      // The provider id is already stored for this channel (an echo recorded by the inbound
      // pipeline): the message is sent all the same.
      if (uniqueViolationOf(err) === undefined) throw err;
      this.deps.logger.warn({ messageId: row.id, providerMessageId: result.providerMessageId }, 'provider id already stored');
      await write(null);
    }
  }

  /**
   * The usual outcome of a send in one statement and no transaction (one statement is atomic):
   * the write, the early statuses and the event. The event's message is the claimed row moved to
   * sent, so this holds only while nobody changed the message since the claim (its updatedAt to
   * the microsecond; every writer of messages sets it). Answers the early statuses taken, or null
   * when the message had changed: the caller then writes it in a transaction and reads it again.
   * Four round trips fewer per message than that transaction (BEGIN, the event's own statement,
   * COMMIT; the write's read-back): most of an answer's cost in issue #14's inbound benchmark.
   */
  private async succeedAlone(
    row: ClaimedMessage,
    ticket: MessageTicket,
    channel: ChannelRecord,
    result: SendResult,
    timestamp: number,
    takeEarly: boolean,
  ): Promise<EarlyStatusRow[] | null> {
    const after: MessageRow = {
      ...row,
      messageId: result.providerMessageId ?? row.messageId,
      whatsappId: channel.id,
      timestamp,
      status: 'sent',
      ack: ACK_BY_STATUS.sent,
      nextRetryAt: null,
      lastError: null,
    };
    const payload: MessageEventPayload = { action: 'update', ticketId: ticket.id, message: presentMessage(after) };
    const rows: (DomainEvent & { early: EarlyStatusRow[] | null })[] = await this.deps.dataSource.query(
      `WITH written AS (
         UPDATE messages
            SET "messageId" = COALESCE($2, "messageId"), "whatsappId" = $3, timestamp = $4, status = 'sent', ack = ${ACK_BY_STATUS.sent},
                "nextRetryAt" = NULL, "lastError" = NULL, "sendClaimedAt" = NULL, "updatedAt" = date_trunc('milliseconds', now())
          WHERE id = $1 AND status = 'pending' AND "updatedAt" = $5::timestamptz
          RETURNING to_char("updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAtIso"
       ), ${
         takeEarly
           ? `early AS (
                DELETE FROM message_status_early e
                 WHERE EXISTS (SELECT 1 FROM written) AND $2::varchar IS NOT NULL AND e."whatsappId" = $3 AND e."messageId" = $2
                RETURNING e."tenantId", e."whatsappId", e."messageId", e.status, e.error
              ),`
           : ''
       } next AS (
         UPDATE tenants SET "eventSeq" = "eventSeq" + 1 WHERE id = $6 AND EXISTS (SELECT 1 FROM written) RETURNING id, "eventSeq"
       ), event AS (
         INSERT INTO domain_events ("tenantId", seq, name, payload, audience)
         SELECT next.id, next."eventSeq", $7::varchar, jsonb_set($8::jsonb, '{message,updatedAt}', to_jsonb(written."updatedAtIso")), $9::jsonb
           FROM next, written
         RETURNING id, "tenantId", seq, name, payload, audience, "createdAt"
       )
       SELECT event.*, ${takeEarly ? '(SELECT json_agg(early) FROM early)' : 'NULL::json'} AS early FROM event`,
      [
        row.id,
        result.providerMessageId,
        channel.id,
        timestamp,
        row.version,
        ticket.tenantId,
        SOCKET_EVENTS.messageUpdate,
        JSON.stringify(payload),
        JSON.stringify(ticketAudience(ticket)),
      ],
    );
    const [event] = rows;
    if (!event) return null;
    const { early, ...recorded } = event;
    this.deps.events.publishCommitted([recorded]);
    return early ?? [];
  }
}
