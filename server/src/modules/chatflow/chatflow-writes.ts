import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Logger } from '../../core/logger';
import type { Emit, PendingEvent } from '../../realtime/domain-events';
import { emitMessageRows } from '../messages/message-events';
import type { MessageRow } from '../messages/messages.presenter';
import { selectMessagesByIds } from '../messages/messages.query';
import { mediaTypeOf } from '../messages/message-media';
import { pickQueueUser } from '../queues/auto-distribution';
import { BOT_RESUME_KEY } from '../tickets/ticket-bot';
import { closedSet } from '../tickets/ticket-closing';
import { recordOutboundMessages } from '../tickets/ticket-metrics';
import { renderForTicket } from '../tickets/ticket-variables';
import { runStatementParts, type StatementPart } from '../../db/statement-part';
import {
  applyTicketChange,
  emitTicket,
  findActiveTicket,
  messageTicketOf,
  plannedOutboundTexts,
  plannedSelfChange,
  queueOutboundTexts,
  type TicketSet,
} from '../tickets/ticket-writes';
import type { TicketRow } from '../tickets/tickets.presenter';
import { CHATBOT_ORIGIN, type LoadedFlow, type Next, type Outcome } from './chatflow-types';

/**
 * The engine's write side, in the caller's transaction with the ticket locked: the bot's
 * messages (outbound rows, pending, origin 'chatbot'), tags, kanban, then the state row or the
 * routing, through the tickets module's write path (ticket logs, metrics, ticket:update).
 */

/**
 * How many message ids the ticket's lock statement takes for this outcome's texts: the usual
 * step (texts, then a wait; no media, whose row keeps its place between texts) writes them in
 * the commit's events statement. 0: the texts are inserted on their own, as before.
 */
export function deferredTextIdsFor(outcome: Outcome): number {
  if (outcome.next.type !== 'wait' || outcome.effects.some((e) => e.kind === 'media')) return 0;
  return outcome.effects.filter((e) => e.kind === 'text').length;
}

/** In the ticket's transaction (ticket locked): messages, tags, kanban, then the state row or the routing. Answers the message ids. */
export async function applyOutcome(
logger: Logger,
tx: EntityManager,
  emit: Emit,
  current: TicketRow,
  flow: LoadedFlow,
  outcome: Outcome,
  now: Date,
  starting: boolean,
  deferral?: { txNow: Date; parts: StatementPart[]; messageIds?: number[] },
): Promise<number[]> {
  const ids: number[] = [];
  // Texts come back as presented rows from their insert; media rows are read at the end.
  const rows = new Map<number, MessageRow>();
  // The usual step's texts (deferredTextIdsFor): ids taken with the ticket's lock, the insert
  // goes into the commit's events statement.
  const spareIds = deferral && deferredTextIdsFor(outcome) > 0 ? [...(deferral.messageIds ?? [])] : [];
  const queueTexts = async (bodies: string[]) => {
    let written: MessageRow[];
    if (deferral && bodies.length > 0 && spareIds.length >= bodies.length) {
      const planned = plannedOutboundTexts(current, bodies, spareIds.splice(0, bodies.length), {
        now,
        kind: CHATBOT_ORIGIN,
        at: deferral.txNow,
      });
      deferral.parts.push(...planned.parts);
      written = planned.rows;
    } else written = await queueOutboundTexts(tx, current, bodies, { now, kind: CHATBOT_ORIGIN });
    for (const row of written) {
      ids.push(Number(row.id));
      rows.set(Number(row.id), row);
    }
  };
  let lastText: string | null = null;
  let kanbanId: number | undefined;
  let next = outcome.next;
  const render = textRenderer(tx, current, now);
  // Consecutive texts go in one statement; a media message keeps its place between them.
  let texts: string[] = [];
  const flushTexts = async () => {
    const bodies = (await render(texts)).filter((b) => b.trim());
    texts = [];
    if (bodies.length === 0) return;
    await queueTexts(bodies);
    lastText = bodies[bodies.length - 1];
  };
  for (const effect of outcome.effects) {
    if (effect.kind === 'text') {
      texts.push(effect.body);
      continue;
    }
    await flushTexts();
    if (effect.kind === 'media') {
      const [caption] = effect.caption ? await render([effect.caption]) : [''];
      ids.push(await queueOutboundMedia(tx, current, effect, caption, now));
      lastText = caption || effect.fileName;
    } else if (effect.kind === 'tag') {
      await tx.query(
        `INSERT INTO contact_tags ("tenantId", "contactId", "tagId")
         SELECT t."tenantId", $1, t.id FROM tags t WHERE t.id = $2 AND t."tenantId" = $3
         ON CONFLICT DO NOTHING`,
        [current.contactId, effect.tagId, current.tenantId],
      );
    } else if (effect.kind === 'kanban') {
      const [k] = await tx.query(`SELECT id FROM kanbans WHERE id = $1 AND "tenantId" = $2`, [effect.kanbanId, current.tenantId]);
      if (k) kanbanId = effect.kanbanId;
      else logger.warn({ ticketId: current.id, kanbanId: effect.kanbanId }, 'chatbot: kanban column not found; ignored');
    }
  }
  await flushTexts();

  const set: TicketSet = {};
  if (lastText !== null) {
    set.lastMessage = lastText;
    set.lastMessageAt = now;
  }
  if (kanbanId !== undefined && kanbanId !== current.kanbanId) set.kanbanId = kanbanId;
  let log: { type: string; userId: null; data: Record<string, unknown> } | null = null;

  if (next.type === 'route' && next.target?.type === 'channel') {
    const target = next.target;
    const [channel] = (await tx.query(`SELECT id, type FROM channels WHERE id = $1 AND "tenantId" = $2`, [
      target.channelId,
      current.tenantId,
    ])) as { id: number; type: string }[];
    const conflict = channel ? await findActiveTicket(tx, current.tenantId, current.contactId, channel.id) : null;
    if (!channel || (conflict && conflict.id !== current.id)) {
      logger.warn({ ticketId: current.id, channelId: target.channelId }, 'chatbot: cannot move to that channel; the bot lets go');
      next = { ...next, target: null, reason: 'channelUnavailable' };
    }
  }

  // The state row is written in the ticket's update statement (one round trip fewer per step).
  let botState: StatementPart | undefined;
  if (next.type === 'wait') {
    const wait = next;
    const variables: Record<string, unknown> = { ...wait.variables };
    if (wait.resume) variables[BOT_RESUME_KEY] = wait.resume;
    botState = (param) =>
      `INSERT INTO ticket_bot_states ("ticketId", "tenantId", "chatFlowId", "stepId", attempts, variables, "dueAt", "updatedAt")
       VALUES (${param(current.id)}, ${param(current.tenantId)}, ${param(wait.flowId)}, ${param(wait.stepId)}, ${param(wait.attempts)},
               ${param(JSON.stringify(variables))}, ${param(wait.dueAt)}, clock_timestamp())
       ON CONFLICT ("ticketId") DO UPDATE
         SET "chatFlowId" = EXCLUDED."chatFlowId", "stepId" = EXCLUDED."stepId", attempts = EXCLUDED.attempts,
             variables = EXCLUDED.variables, "dueAt" = EXCLUDED."dueAt", "updatedAt" = clock_timestamp()`;
    if (!current.botActive || current.chatFlowId !== wait.flowId) {
      set.botActive = true;
      set.chatFlowId = wait.flowId;
      log = { type: starting ? 'chatbotStart' : 'chatbotFlow', userId: null, data: { chatFlowId: wait.flowId, stepId: wait.stepId } };
    }
  } else {
    const routed = await routeSet(logger, tx, current, next, now, queueTexts);
    Object.assign(set, routed.set);
    log = { type: 'chatbotRoute', userId: null, data: { chatFlowId: flow.id, reason: next.reason, target: next.target ?? null, ...routed.data } };
    await tx.query(`DELETE FROM ticket_bot_states WHERE "ticketId" = $1`, [current.id]);
  }

  let after = current;
  // The usual step (texts, the next wait) changes the ticket's own columns only: that change,
  // its log entry and the state row go into the events' statement at the commit (the caller's
  // deferral), one round trip for all of them.
  const planned = deferral && (Object.keys(set).length > 0 || log) ? plannedSelfChange(current, set, log, deferral.txNow, botState) : null;
  if (planned) {
    after = planned.after;
    deferral!.parts.push(...planned.parts);
    await emitTicket(emit, 'update', after, current);
  } else if (Object.keys(set).length > 0 || log) after = await applyTicketChange(tx, emit, current, set, log, botState);
  else if (botState) await runStatementParts(tx, [botState]);
  if (ids.length > 0) {
    for (const row of await selectMessagesByIds(tx, ids.filter((id) => !rows.has(id)))) rows.set(Number(row.id), row);
    const inOrder = ids.map((id) => rows.get(id)).filter((row): row is MessageRow => row !== undefined);
    await emitMessageRows(emit, messageTicketOf(after), 'create', inOrder);
  }
  return ids;
}

/** The columns a routing writes (the bot lets go in every case). */
async function routeSet(
logger: Logger,
tx: EntityManager,
  current: TicketRow,
  next: Extract<Next, { type: 'route' }>,
  now: Date,
  queueTexts: (bodies: string[]) => Promise<void>,
): Promise<{ set: TicketSet; data: Record<string, unknown> }> {
  const base: TicketSet = { botActive: false };
  const target = next.target;
  const end = async () => {
    const text = next.settings.endMessage.trim();
    if (!text) return;
    const [body] = await textRenderer(tx, current, now)([text]);
    await queueTexts([body]);
    base.lastMessage = body;
    base.lastMessageAt = now;
  };
  if (!target) return { set: base, data: {} };
  switch (target.type) {
    case 'queue': {
      const [queue] = await tx.query(`SELECT id FROM queues WHERE id = $1 AND "tenantId" = $2`, [target.queueId, current.tenantId]);
      if (!queue) {
        logger.warn({ ticketId: current.id, queueId: target.queueId }, 'chatbot: queue not found; the bot lets go');
        return { set: base, data: { missing: 'queue' } };
      }
      const userId = await pickQueueUser(tx, current.tenantId, target.queueId, next.settings.selfDistribution);
      return {
        set: {
          ...base,
          queueId: target.queueId,
          ...(userId !== null ? { userId, status: 'open', startedAt: current.startedAt ?? now } : { userId: null, status: 'pending' }),
        },
        data: { distribution: next.settings.selfDistribution, toUserId: userId },
      };
    }
    case 'user': {
      const [user] = await tx.query(`SELECT id FROM users WHERE id = $1 AND "tenantId" = $2`, [target.userId, current.tenantId]);
      if (!user) return { set: base, data: { missing: 'user' } };
      return { set: { ...base, userId: target.userId, status: 'open', startedAt: current.startedAt ?? now }, data: { toUserId: target.userId } };
    }
    case 'close':
      await end();
      return next.settings.closeService ? { set: { ...base, ...closedSet(now, 'chatbot') }, data: { closed: true } } : { set: base, data: { closed: false } };
    case 'channel': {
      const [channel] = (await tx.query(`SELECT id, type FROM channels WHERE id = $1 AND "tenantId" = $2`, [
        target.channelId,
        current.tenantId,
      ])) as { id: number; type: string }[];
      return { set: { ...base, whatsappId: channel.id, channel: channel.type }, data: { fromWhatsappId: current.whatsappId } };
    }
    case 'step':
      return { set: base, data: {} };
  }
}

/** An Emit that keeps the events for one emitMany at the end of the transaction. */
export function bufferedEmit(): { emit: Emit; pending: PendingEvent[] } {
  const pending: PendingEvent[] = [];
  return {
    pending,
    emit: async (_tenantId, name, payload, audience) => {
      pending.push({ name, payload, audience });
    },
  };
}

/**
 * Fills the message variables ({{name}}, {{greeting}}, {{protocol}} ...) of several texts with
 * one query at most (renderForTicket over the texts joined by a separator no text contains).
 */
export function textRenderer(tx: EntityManager, ticket: TicketRow, now: Date): (texts: string[]) => Promise<string[]> {
  return async (texts) => {
    if (texts.length === 0) return [];
    const separator = `\u241e${randomUUID()}\u241e`;
    const rendered = await renderForTicket(tx, texts.join(separator), { tenantId: ticket.tenantId, ticketId: ticket.id, userId: null, now });
    const parts = rendered.split(separator);
    return parts.length === texts.length ? parts : texts;
  };
}

/** A media message by the bot, queued like queueOutboundText (pending, automated). */
async function queueOutboundMedia(
  tx: EntityManager,
  ticket: TicketRow,
  media: { relativePath: string; mimeType: string; fileName: string },
  caption: string,
  now: Date,
): Promise<number> {
  const [row] = (await tx.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "whatsappId", "mediaType", "mediaPath",
                           "mediaName", "mimeType", status, "nextRetryAt", timestamp, "dataJson")
     VALUES ($1, $2, $3, $4, true, NULL, $5, $6, $7, $8, $9, 'pending', $10, $11, $12)
     RETURNING id`,
    [
      ticket.tenantId,
      ticket.id,
      ticket.contactId,
      caption,
      ticket.whatsappId,
      mediaTypeOf(media.mimeType),
      media.relativePath,
      media.fileName,
      media.mimeType,
      now,
      Math.floor(now.getTime() / 1000),
      JSON.stringify({ origin: CHATBOT_ORIGIN }),
    ],
  )) as { id: string }[];
  await recordOutboundMessages(tx, ticket.id, [Number(row.id)], 'autoMessage');
  return Number(row.id);
}
