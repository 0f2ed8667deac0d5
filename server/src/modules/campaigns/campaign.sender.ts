import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { renderMessageVariables } from '@shared/message-variables';
import { fillLineVariables } from '@shared/schemas/bulk-sends';
import {
  CAMPAIGN_BLOCKED_REASON,
  CAMPAIGN_INTERRUPTED_REASON,
  CAMPAIGN_NO_ADDRESS_REASON,
  CAMPAIGN_OPTED_OUT_REASON,
  campaignMessages,
  normalizeTemplateVariables,
} from '@shared/schemas/campaigns';
import { ChannelSendError, type ChannelAdapter, type SendResult, type TemplateSend } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { emitBulkSend } from '../bulk/bulk-sends.presenter';
import { absoluteMediaPath } from '../messages/message-media';
import { returnedRows } from '../messages/messages.query';
import { loadChannel, resolveTarget } from '../messages/outbound-target';
import { templateDraft, templateSendOf } from '../templates/template-send';
import { variableValues } from '../tickets/ticket-variables';
import { templateVariableValues } from './campaign-template';
import { emitCampaign } from './campaigns.service';

/** The progress event of a campaign row: `campaign:update`, or `bulkSend:update` for a bulk send. */
async function emitSendProgress(tx: Queryable, emit: Emit, tenantId: number, id: number, action: 'update' | 'progress'): Promise<void> {
  const [row] = (await tx.query(`SELECT kind FROM campaigns WHERE id = $1 AND "tenantId" = $2`, [id, tenantId])) as { kind: string }[];
  if (!row) return;
  if (row.kind === 'bulk') await emitBulkSend(tx, emit, tenantId, id, action);
  else await emitCampaign(tx, emit, tenantId, id, action);
}

export const CAMPAIGN_SEND_JOB = 'campaigns.send';
export const CAMPAIGN_SWEEP_JOB = 'campaigns.sweep';
/** How often the sweep starts due campaigns, recovers interrupted sends and wakes idle senders. */
export const CAMPAIGN_SWEEP_INTERVAL_MS = 5_000;
/**
 * A sender holds its channel for this long per step. A step is one provider call (the adapters'
 * own deadlines are well under it); a lease that runs out means the process died, and the
 * contact it held is recovered (never resent if its provider call had started).
 */
export const CAMPAIGN_SENDER_LEASE_MS = 2 * 60_000;
/** A channel that is not connected is looked at again after this; its contacts stay pending. */
export const CAMPAIGN_CHANNEL_WAIT_MS = 30_000;
/**
 * Live conversations first: while this process's inbound pipeline has messages queued or being
 * written, or any channel has agents' or bots' messages due, a step claims nothing and looks
 * again after this long (short: the check is cheap and the campaign resumes soon after the burst).
 */
export const CAMPAIGN_YIELD_MS = 250;
/**
 * The floor under constant live load: a channel's sender yields for at most this long in a row
 * in a process, then sends one message anyway, so a server that is always busy still sends its
 * campaigns (at least one message per second per channel) instead of never.
 */
export const CAMPAIGN_MAX_YIELD_MS = 1_000;
/** Tries of a contact whose send failed for a passing reason (timeout, 5xx, 429) before it fails. */
export const CAMPAIGN_MAX_ATTEMPTS = 3;
/** Contacts failed without a provider call (opted out, blocked, no address) one step may go through. */
const SKIPS_PER_STEP = 200;
/** Progress events of a campaign: at most one per this interval per process (state changes always). */
const PROGRESS_EVENT_INTERVAL_MS = 1_000;

/**
 * The wait before the channel's next send: between `delay` and 1.5 x `delay` seconds (uniform),
 * so the configured delay is the least spacing and sends do not tick like a metronome. With
 * `maxSeconds` (bulk sends: min and max seconds) it is uniform between `delay` and `maxSeconds`.
 */
export function campaignDelayMs(delaySeconds: number, random: () => number = Math.random, maxSeconds?: number | null): number {
  const base = Math.max(0, delaySeconds) * 1000;
  if (maxSeconds !== null && maxSeconds !== undefined && maxSeconds * 1000 >= base) {
    return Math.round(base + (maxSeconds * 1000 - base) * random());
  }
  return Math.round(base + (base / 2) * random());
}

/** Cloud API codes refusing a template for its state (paused, disabled, not approved): every later send would fail the same way. */
const TEMPLATE_STATE_CODES = new Set(['132015', '132016', '132001']);

interface ClaimedContact {
  id: number;
  campaignId: number;
  tenantId: number;
  contactId: number;
  attempts: number;
  message1: string;
  message2: string | null;
  message3: string | null;
  mediaPath: string | null;
  mediaName: string | null;
  mimeType: string | null;
  delay: number;
  delayMax: number | null;
  kind: 'campaign' | 'bulk';
  templateName: string | null;
  templateLanguage: string | null;
  /** JSON as stored (see normalizeTemplateVariables). */
  templateVariables: unknown;
  /** The destination's own values (a bulk send's `number,var1,var2` line). */
  variables: string[] | null;
  userId: number | null;
  contactName: string | null;
  contactFirstName: string | null;
  contactLastName: string | null;
  email: string | null;
  number: string | null;
  businessName: string | null;
  kanban: string | null;
  userName: string | null;
  userEmail: string | null;
  timeZone: string | null;
  isGroup: boolean;
  blockContact: boolean;
  optedOut: boolean;
}

type StepOutcome = 'sent' | 'idle' | 'busy' | 'later';

/**
 * The campaign sender (issue #16). One throttled sender per channel, whatever the number of
 * campaigns, jobs or server processes: the channel's `campaign_senders` row is its lease
 * (`lockedUntil`) and its throttle (`nextSendAt`). A step:
 *  1. takes the lease if the channel's next send is due (one UPDATE; a step that finds it held or
 *     not due ends, after asking for a step at `nextSendAt`);
 *  2. yields to live conversations: while this process's inbound pipeline is busy (`busy()`:
 *     messages queued or in a batch) or any channel has outbound ticket messages due, it claims
 *     nothing and looks again after CAMPAIGN_YIELD_MS, though never for longer than
 *     CAMPAIGN_MAX_YIELD_MS in a row (then it sends one: the floor under constant load). The
 *     inbound check is also made before step 1, so yielding to inbound writes nothing;
 *  3. claims ONE contact (pending -> sending, `claimedAt`; FOR UPDATE SKIP LOCKED) of the channel's
 *     processing campaigns, oldest campaign first. A campaign that is not processing (canceled)
 *     has nothing claimable, so cancel stops within the message in flight;
 *  4. writes `callStartedAt`, makes the provider call, and writes delivered (with the provider's
 *     id) or failed (with the reason) in one statement that also finishes the campaign when no
 *     contact is left pending or sending;
 *  5. gives the lease back with `nextSendAt` = now + campaignDelayMs(delay), and enqueues the
 *     next step on its own Bull queue (`campaigns.send`, apart from `messages.deliver`).
 * Never twice: a contact whose provider call started and never got an outcome (the process was
 * killed) is failed as interrupted by `recover` once the lease is over, unless its provider id
 * was recorded; one whose call had not started goes back to pending. No provider we use offers
 * an idempotency key, so at-most-once is chosen over at-least-once.
 */
export class CampaignSender {
  private readonly owner = randomUUID();
  private readonly lastProgress = new Map<number, number>();
  /** Per channel: when this process last let its sender go ahead, or began yielding (CAMPAIGN_MAX_YIELD_MS). */
  private readonly lastTurn = new Map<number, number>();

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'jobs' | 'logger' | 'clock' | 'config' | 'channels'>) {}

  /** Asks for a step of the channel's sender at `at` (now by default); duplicates of one wake-up collapse. */
  async kick(channelId: number, at?: Date): Promise<void> {
    const delay = at ? Math.max(0, at.getTime() - this.deps.clock.now().getTime()) : 0;
    const slot = at ? at.getTime() : 'now';
    try {
      await this.deps.jobs.enqueue(CAMPAIGN_SEND_JOB, { channelId }, { delay: delay || undefined, jobId: `campaign-send:${channelId}:${slot}` });
    } catch (err) {
      this.deps.logger.warn({ err, channelId }, 'could not enqueue a campaign step; the sweep will wake the sender');
    }
  }

  /** One step of a channel's sender (the `campaigns.send` job). */
  async step(channelId: number): Promise<StepOutcome> {
    const db = this.deps.dataSource;
    // The inbound check costs nothing: while it says wait, the step ends before the lease (no
    // write), asking for the next look itself.
    const early = this.yieldFor(channelId, this.deps.channels.inbound.busy());
    if (early > 0) {
      await this.kick(channelId, new Date(this.deps.clock.now().getTime() + early));
      return 'later';
    }
    // The channel's lease, taken only when its next send is due and nobody holds it (the row is
    // created on the channel's first step).
    const lease = returnedRows<{ tenantId: number }>(
      await db.query(
        `INSERT INTO campaign_senders ("channelId", "tenantId", "lockedUntil", "lockedBy")
         SELECT id, "tenantId", now() + make_interval(secs => $2::float8 / 1000), $3 FROM channels WHERE id = $1
         ON CONFLICT ("channelId") DO UPDATE SET "lockedUntil" = EXCLUDED."lockedUntil", "lockedBy" = EXCLUDED."lockedBy"
          WHERE campaign_senders."nextSendAt" <= now()
            AND (campaign_senders."lockedUntil" IS NULL OR campaign_senders."lockedUntil" < now())
         RETURNING "tenantId"`,
        [channelId, CAMPAIGN_SENDER_LEASE_MS, this.owner],
      ),
    );
    if (lease.length === 0) {
      const [state] = (await db.query(
        `SELECT "nextSendAt", ("lockedUntil" IS NOT NULL AND "lockedUntil" >= now()) AS locked FROM campaign_senders WHERE "channelId" = $1`,
        [channelId],
      )) as { nextSendAt: Date; locked: boolean }[];
      // Held by a step in flight (it asks for the next one itself), or not due yet: wake up then.
      if (state && !state.locked) await this.kick(channelId, new Date(state.nextSendAt));
      return state?.locked ? 'busy' : 'later';
    }
    let result: { outcome: StepOutcome; nextDelayMs: number } = { outcome: 'idle', nextDelayMs: 0 };
    try {
      result = await this.sendNext(channelId);
    } finally {
      await db.query(
        `UPDATE campaign_senders SET "lockedUntil" = NULL, "lockedBy" = NULL, "nextSendAt" = now() + make_interval(secs => $2::float8 / 1000)
          WHERE "channelId" = $1 AND "lockedBy" = $3`,
        [channelId, result.nextDelayMs, this.owner],
      );
    }
    if (result.outcome !== 'idle') await this.kick(channelId, new Date(this.deps.clock.now().getTime() + result.nextDelayMs));
    return result.outcome;
  }

  /**
   * Whether live conversations have work now: this process's inbound messages (in memory, no
   * query), else ticket messages due on any channel (one probe of the partial index
   * messages_due_idx; campaign sends are not ticket messages, so a campaign never waits for itself).
   */
  private async liveWork(): Promise<boolean> {
    if (this.deps.channels.inbound.busy()) return true;
    const [live] = (await this.deps.dataSource.query(
      `SELECT EXISTS (
         SELECT 1 FROM messages m
          WHERE m.status = 'pending' AND m."nextRetryAt" <= now() AND m."sendClaimedAt" IS NULL AND m."ticketId" IS NOT NULL
       ) AS due`,
    )) as { due: boolean }[];
    return live.due;
  }

  /**
   * How long the channel's sender waits for live work, or 0 to go ahead: CAMPAIGN_YIELD_MS at a
   * time, but never past CAMPAIGN_MAX_YIELD_MS since its last turn (or since it began yielding).
   */
  private yieldFor(channelId: number, live: boolean): number {
    if (!live) return 0;
    const now = this.deps.clock.now().getTime();
    const last = this.lastTurn.get(channelId);
    if (last === undefined) this.lastTurn.set(channelId, now);
    const waited = last === undefined ? 0 : now - last;
    return waited < CAMPAIGN_MAX_YIELD_MS ? Math.min(CAMPAIGN_YIELD_MS, CAMPAIGN_MAX_YIELD_MS - waited) : 0;
  }

  private async sendNext(channelId: number): Promise<{ outcome: StepOutcome; nextDelayMs: number }> {
    const wait = this.yieldFor(channelId, await this.liveWork());
    if (wait > 0) return { outcome: 'later', nextDelayMs: wait };
    this.lastTurn.set(channelId, this.deps.clock.now().getTime());

    for (let skipped = 0; skipped < SKIPS_PER_STEP; skipped++) {
      const contact = await this.claim(channelId);
      if (!contact) {
        await this.finishIdle(channelId);
        // The next campaign of the channel starts with a full yield, not with an old turn.
        this.lastTurn.delete(channelId);
        return { outcome: 'idle', nextDelayMs: 0 };
      }
      const reason = contact.optedOut
        ? CAMPAIGN_OPTED_OUT_REASON
        : contact.blockContact
          ? CAMPAIGN_BLOCKED_REASON
          : contact.isGroup
            ? CAMPAIGN_NO_ADDRESS_REASON
            : null;
      if (reason) {
        await this.fail(contact, reason);
        continue;
      }
      return this.send(channelId, contact);
    }
    return { outcome: 'sent', nextDelayMs: 0 };
  }

  /** One pending contact of the channel's processing campaigns, claimed (pending -> sending). */
  private async claim(channelId: number): Promise<ClaimedContact | null> {
    const rows = returnedRows<ClaimedContact>(
      await this.deps.dataSource.query(
        `WITH next AS (
           SELECT cc.id FROM campaign_contacts cc
             JOIN campaigns ca ON ca.id = cc."campaignId"
            WHERE ca."channelId" = $1 AND ca.status = 'processing' AND cc.status = 'pending'
            ORDER BY ca.start, ca.id, cc.id
            LIMIT 1
            FOR UPDATE OF cc SKIP LOCKED
         ), claimed AS (
           UPDATE campaign_contacts cc SET status = 'sending', "claimedAt" = now(), "callStartedAt" = NULL, attempts = cc.attempts + 1
             FROM next WHERE cc.id = next.id AND cc.status = 'pending'
           RETURNING cc.*
         )
         SELECT cl.id, cl."campaignId", cl."tenantId", cl."contactId", cl.attempts, cl.variables,
                ca.message1, ca.message2, ca.message3, ca."mediaPath", ca."mediaName", ca."mimeType", ca.delay, ca."userId",
                ca."delayMax", ca.kind, ca."templateName", ca."templateLanguage", ca."templateVariables",
                c.name AS "contactName", c."firstName" AS "contactFirstName", c."lastName" AS "contactLastName", c.email, c.number,
                c."businessName", k.name AS kanban, u.name AS "userName", u.email AS "userEmail",
                (SELECT s.value FROM settings s WHERE s."tenantId" = cl."tenantId" AND s.key = 'timeZone') AS "timeZone",
                c."isGroup", c."blockContact", c."campaignOptOut" AS "optedOut"
           FROM claimed cl
           JOIN campaigns ca ON ca.id = cl."campaignId"
           JOIN contacts c ON c.id = cl."contactId"
           LEFT JOIN kanbans k ON k.id = c."kanbanId" AND k."tenantId" = cl."tenantId"
           LEFT JOIN users u ON u.id = ca."userId" AND u."tenantId" = cl."tenantId"`,
        [channelId],
      ),
    );
    return rows[0] ?? null;
  }

  private async send(channelId: number, contact: ClaimedContact): Promise<{ outcome: StepOutcome; nextDelayMs: number }> {
    const db = this.deps.dataSource;
    const channel = await loadChannel(db, contact.tenantId, channelId);
    let adapter: ChannelAdapter | undefined;
    if (channel && channel.status === 'CONNECTED') {
      try {
        adapter = await this.deps.channels.adapterFor(channel);
      } catch (err) {
        this.deps.logger.warn({ err, channelId }, 'no adapter for the campaign channel');
      }
    }
    if (!channel || !adapter) {
      // The contact waits for its channel (not failed, no try spent).
      await db.query(
        `UPDATE campaign_contacts SET status = 'pending', "claimedAt" = NULL, attempts = GREATEST(attempts - 1, 0),
                error = 'Aguardando a conexão de envio.' WHERE id = $1 AND status = 'sending'`,
        [contact.id],
      );
      return { outcome: 'later', nextDelayMs: CAMPAIGN_CHANNEL_WAIT_MS };
    }
    const target = await resolveTarget(db, channel, contact.contactId, false);
    if (!target) {
      await this.fail(contact, CAMPAIGN_NO_ADDRESS_REASON);
      return { outcome: 'sent', nextDelayMs: 0 };
    }
    const values = variableValues({ ...contact, protocol: null }, this.deps.clock.now());
    let send: (() => Promise<SendResult>) | null = null;
    let body: string;
    let messageIndex = 0;
    if (contact.templateName) {
      // A WABA template (template campaigns, /massa/template*): its header, body and button
      // variables filled for this contact, the row built and checked by templateDraft like the
      // composer's.
      const filled = templateVariableValues(normalizeTemplateVariables(contact.templateVariables), contact.variables, values);
      if (filled.empty !== null) {
        await this.fail(contact, filled.empty);
        return { outcome: 'sent', nextDelayMs: 0 };
      }
      let template: TemplateSend | null;
      try {
        const draft = await templateDraft(
          db,
          channel,
          { name: contact.templateName, language: contact.templateLanguage ?? '', variables: filled.values, clientId: `campaign-${contact.id}` },
        );
        template = templateSendOf(draft.dataJson as { template?: unknown });
        body = draft.body;
      } catch (err) {
        const reason =
          err instanceof AppError && err.fields?.length
            ? `Modelo inválido: ${err.fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`
            : err instanceof Error
              ? err.message
              : 'Modelo inválido.';
        await this.fail(contact, reason);
        return { outcome: 'sent', nextDelayMs: 0 };
      }
      if (!template) {
        await this.fail(contact, 'Modelo inválido.');
        return { outcome: 'sent', nextDelayMs: 0 };
      }
      const chosen = template;
      send = () => adapter.sendTemplate(target, chosen);
    } else {
      const messages = campaignMessages(contact);
      // Round robin over the campaign's messages by the contact's row id.
      messageIndex = messages.length > 0 ? contact.id % messages.length : 0;
      body = renderMessageVariables(fillLineVariables(messages[messageIndex] ?? '', contact.variables), values);
    }
    let result: SendResult;
    try {
      // From here the provider may get the message: a process that dies now leaves callStartedAt,
      // and the contact is failed as interrupted instead of being sent again.
      await db.query(`UPDATE campaign_contacts SET "callStartedAt" = now(), "messageIndex" = $2, body = $3 WHERE id = $1`, [
        contact.id,
        messageIndex,
        body,
      ]);
      if (send) {
        result = await send();
      } else if (contact.mediaPath) {
        const file = absoluteMediaPath(this.deps.config.dataDir, contact.tenantId, contact.mediaPath);
        await access(file).catch(() => {
          throw new ChannelSendError('Arquivo da campanha não encontrado.', false);
        });
        result = await adapter.sendMedia(target, {
          path: file,
          fileName: contact.mediaName ?? 'arquivo',
          mimeType: contact.mimeType ?? 'application/octet-stream',
          caption: body.trim() ? body : undefined,
        });
      } else {
        result = await adapter.sendText(target, body);
      }
    } catch (err) {
      return this.failure(contact, err);
    }
    await this.outcome(contact, `status = 'delivered', "messageId" = $2, "sentAt" = now(), error = NULL`, [result.providerMessageId]);
    return { outcome: 'sent', nextDelayMs: this.delayOf(contact) };
  }

  private delayOf(contact: Pick<ClaimedContact, 'delay' | 'delayMax'>): number {
    return campaignDelayMs(contact.delay, Math.random, contact.delayMax);
  }

  private async failure(contact: ClaimedContact, err: unknown): Promise<{ outcome: StepOutcome; nextDelayMs: number }> {
    const db = this.deps.dataSource;
    if (err instanceof AppError && (err.code === 'ERR_WAPP_NOT_INITIALIZED' || err.code === 'ERR_WAPP_INITIALIZED')) {
      await db.query(
        `UPDATE campaign_contacts SET status = 'pending', "claimedAt" = NULL, "callStartedAt" = NULL, attempts = GREATEST(attempts - 1, 0),
                error = $2 WHERE id = $1 AND status = 'sending'`,
        [contact.id, err.message],
      );
      return { outcome: 'later', nextDelayMs: CAMPAIGN_CHANNEL_WAIT_MS };
    }
    if (err instanceof ChannelSendError && err.mayHaveArrived) {
      await this.fail(contact, `${CAMPAIGN_INTERRUPTED_REASON} (${err.message})`);
      return { outcome: 'sent', nextDelayMs: this.delayOf(contact) };
    }
    if (contact.templateName && err instanceof ChannelSendError && err.providerCode && TEMPLATE_STATE_CODES.has(err.providerCode)) {
      // Meta paused, disabled or no longer approves the template: every other contact would be
      // refused the same way, so the campaign stops (canceled) with its contacts still pending,
      // to be started again once the template is approved (or the campaign edited).
      await this.fail(contact, err.message);
      await this.stopForTemplate(contact, err.message);
      return { outcome: 'sent', nextDelayMs: 0 };
    }
    const retryable = err instanceof ChannelSendError ? err.retryable : !(err instanceof AppError);
    const reason = err instanceof Error ? err.message : 'Erro ao enviar a mensagem.';
    if (!(err instanceof ChannelSendError) && !(err instanceof AppError)) {
      this.deps.logger.error({ err, campaignContactId: contact.id }, 'unexpected error sending a campaign message');
    }
    if (retryable && contact.attempts < CAMPAIGN_MAX_ATTEMPTS) {
      // The call failed without reaching the customer: the contact goes back to the queue.
      await db.query(
        `UPDATE campaign_contacts SET status = 'pending', "claimedAt" = NULL, "callStartedAt" = NULL, error = $2
          WHERE id = $1 AND status = 'sending'`,
        [contact.id, reason],
      );
      const retryAfter = err instanceof ChannelSendError ? (err.retryAfterMs ?? 0) : 0;
      return { outcome: 'later', nextDelayMs: Math.max(retryAfter, this.delayOf(contact), 2_000) };
    }
    await this.fail(contact, reason);
    return { outcome: 'sent', nextDelayMs: this.delayOf(contact) };
  }

  /** The campaign of a contact whose template Meta refused for its state: canceled, the rest left pending. */
  private async stopForTemplate(contact: Pick<ClaimedContact, 'campaignId' | 'tenantId'>, reason: string): Promise<void> {
    const rows = returnedRows<{ id: number }>(
      await this.deps.dataSource.query(
        `UPDATE campaigns SET status = 'canceled', "canceledAt" = now(), "updatedAt" = now()
          WHERE id = $1 AND status = 'processing' RETURNING id`,
        [contact.campaignId],
      ),
    );
    if (rows.length > 0) {
      this.deps.logger.warn({ campaignId: contact.campaignId, reason }, 'campaign stopped: its template was refused by Meta');
      await this.progress(contact.tenantId, contact.campaignId, true);
    }
  }

  private fail(contact: Pick<ClaimedContact, 'id' | 'campaignId' | 'tenantId'>, reason: string): Promise<void> {
    return this.outcome(contact, `status = 'failed', error = $2`, [reason]);
  }

  /**
   * The contact's outcome, and the campaign finished when nothing is left pending or sending, in
   * one statement; then the progress event (always when the campaign finished).
   */
  private async outcome(contact: Pick<ClaimedContact, 'id' | 'campaignId' | 'tenantId'>, set: string, values: unknown[]): Promise<void> {
    const rows = returnedRows<{ finished: boolean }>(
      await this.deps.dataSource.query(
        `WITH written AS (
           UPDATE campaign_contacts SET ${set} WHERE id = $1 AND status = 'sending' RETURNING "campaignId"
         ), finished AS (
           UPDATE campaigns ca SET status = 'finished', "finishedAt" = now(), "updatedAt" = now()
             FROM written
            WHERE ca.id = written."campaignId" AND ca.status = 'processing'
              AND NOT EXISTS (SELECT 1 FROM campaign_contacts cc
                               WHERE cc."campaignId" = ca.id AND cc.status IN ('pending', 'sending') AND cc.id <> $1)
           RETURNING ca.id
         ) SELECT EXISTS (SELECT 1 FROM finished) AS finished`,
        [contact.id, ...values],
      ),
    );
    await this.progress(contact.tenantId, contact.campaignId, rows[0]?.finished === true);
  }

  /** Processing campaigns of the channel with nothing left to send are finished. */
  private async finishIdle(channelId: number): Promise<void> {
    const done = returnedRows<{ id: number; tenantId: number }>(
      await this.deps.dataSource.query(
        `UPDATE campaigns ca SET status = 'finished', "finishedAt" = now(), "updatedAt" = now()
          WHERE ca."channelId" = $1 AND ca.status = 'processing'
            AND NOT EXISTS (SELECT 1 FROM campaign_contacts cc WHERE cc."campaignId" = ca.id AND cc.status IN ('pending', 'sending'))
          RETURNING ca.id, ca."tenantId"`,
        [channelId],
      ),
    );
    for (const c of done) await this.progress(c.tenantId, c.id, true);
  }

  async progress(tenantId: number, campaignId: number, force: boolean): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (!force && now - (this.lastProgress.get(campaignId) ?? 0) < PROGRESS_EVENT_INTERVAL_MS) return;
    this.lastProgress.set(campaignId, now);
    try {
      await this.deps.events.transaction((tx, emit) => emitSendProgress(tx, emit, tenantId, campaignId, force ? 'update' : 'progress'));
    } catch (err) {
      if (!(err instanceof AppError)) this.deps.logger.warn({ err, campaignId }, 'campaign progress event not recorded');
    }
  }

  /**
   * After a crash: contacts left `sending` by a sender whose lease is over (or gone). A call that
   * never started goes back to pending; one that started is delivered if its provider id was
   * recorded, otherwise failed as interrupted (never resent).
   */
  async recover(): Promise<number> {
    const rows = returnedRows<{ campaignId: number; tenantId: number; status: string }>(
      await this.deps.dataSource.query(
        `WITH stale AS (
           SELECT cc.id FROM campaign_contacts cc
             JOIN campaigns ca ON ca.id = cc."campaignId"
             LEFT JOIN campaign_senders s ON s."channelId" = ca."channelId"
            WHERE cc.status = 'sending'
              AND (s."channelId" IS NULL OR s."lockedUntil" IS NULL OR s."lockedUntil" < now())
            FOR UPDATE OF cc SKIP LOCKED
         )
         UPDATE campaign_contacts cc
            SET status = CASE WHEN cc."callStartedAt" IS NULL THEN 'pending'
                              WHEN cc."messageId" IS NOT NULL THEN 'delivered' ELSE 'failed' END,
                error = CASE WHEN cc."callStartedAt" IS NULL OR cc."messageId" IS NOT NULL THEN cc.error ELSE $1 END,
                "sentAt" = CASE WHEN cc."messageId" IS NOT NULL THEN COALESCE(cc."sentAt", now()) ELSE cc."sentAt" END,
                attempts = CASE WHEN cc."callStartedAt" IS NULL THEN GREATEST(cc.attempts - 1, 0) ELSE cc.attempts END,
                "claimedAt" = CASE WHEN cc."callStartedAt" IS NULL THEN NULL ELSE cc."claimedAt" END
           FROM stale WHERE cc.id = stale.id
         RETURNING cc."campaignId", cc."tenantId", cc.status`,
        [CAMPAIGN_INTERRUPTED_REASON],
      ),
    );
    const campaigns = new Map(rows.map((r) => [r.campaignId, r.tenantId]));
    if (rows.some((r) => r.status === 'failed')) {
      this.deps.logger.warn({ count: rows.filter((r) => r.status === 'failed').length }, 'interrupted campaign sends failed (not resent)');
    }
    for (const [campaignId, tenantId] of campaigns) await this.progress(tenantId, campaignId, true);
    return rows.length;
  }

  /** The sweep: interrupted sends recovered, then every channel with a campaign running woken. */
  async sweep(promoteDue: () => Promise<unknown>): Promise<void> {
    await this.recover();
    await promoteDue();
    const channels = (await this.deps.dataSource.query(
      `SELECT DISTINCT ca."channelId", s."nextSendAt"
         FROM campaigns ca LEFT JOIN campaign_senders s ON s."channelId" = ca."channelId"
        WHERE ca.status = 'processing' AND ca."channelId" IS NOT NULL
          AND (s."lockedUntil" IS NULL OR s."lockedUntil" < now())`,
    )) as { channelId: number; nextSendAt: Date | null }[];
    for (const c of channels) {
      const at = c.nextSendAt ? new Date(c.nextSendAt) : undefined;
      await this.kick(c.channelId, at && at.getTime() > this.deps.clock.now().getTime() ? at : undefined);
    }
  }
}
