import type { EntityManager } from 'typeorm';
import { matchesAutoReplyWords } from '@shared/schemas/auto-reply';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { announceAutomatedMessages } from '../messages/automated-messages';
import { renderForTicket } from '../tickets/ticket-variables';
import { applyTicketChange, lockTicket, queueOutboundText, selectTicket } from '../tickets/ticket-writes';
import type { TicketRow } from '../tickets/tickets.presenter';
import type { AutoReplyActionRow } from './auto-replies.presenter';

export type AutoReplyOutcome = 'skipped' | 'started' | 'repeated' | 'nextStep' | 'queue' | 'user' | 'ended';

interface BotState {
  autoReplyId: number | null;
  stepAutoReplyId: number | null;
  number: string | null;
}

/**
 * The keyword bot of /auto-resposta, run by the inbound hook (order 250) for each customer
 * message of a ticket without an agent, on a channel without a chatflow:
 * - a new ticket starts the tenant's active bot (action 0; a bot with a test number only for
 *   that contact number, and it wins over the others): its initial step is sent;
 * - a ticket waiting in a step: the message is matched against the step's actions (the whole
 *   message equals one of the comma-separated words, case and accents aside). A match sends
 *   its replyDefinition, then goes to the next step (its text is sent), to a queue (pending
 *   there, greeted) or to a user (open for them); the last two end the bot. No match sends the
 *   step again.
 * The step a ticket waits in is tickets."stepAutoReplyId", written with the messages in one
 * transaction: a restart resumes where it was, and a retried message cannot advance twice.
 */
export async function runAutoReply(
  deps: Pick<AppDeps, 'events' | 'dataSource'>,
  event: InboundEvent,
  now: Date,
): Promise<'handled' | undefined> {
  // A ticket routed by an opening hook (a campaign answer in the campaign's queue) is not the bot's.
  if (event.ticket.isGroup || event.ticket.userId !== null || event.ticket.routed) return undefined;
  // Most messages are of tickets no bot waits in: one read, no transaction.
  if (!event.ticket.created) {
    const [row] = (await deps.dataSource.query(`SELECT "stepAutoReplyId" FROM tickets WHERE id = $1 AND "tenantId" = $2`, [
      event.ticket.id,
      event.tenantId,
    ])) as { stepAutoReplyId: number | null }[];
    if (!row || row.stepAutoReplyId === null) return undefined;
  }
  const outcome = await deps.events.transaction(async (tx, emit) => {
    const queued: number[] = [];
    const ref = { id: event.ticket.id, tenantId: event.tenantId };
    const result = await advanceAutoReply(tx, emit, ref, event.inbound.body, event.ticket.created, now, queued);
    await announceAutomatedMessages(tx, emit, ref.id, queued, now);
    return result;
  });
  return outcome === 'skipped' ? undefined : 'handled';
}

export async function advanceAutoReply(
  tx: EntityManager,
  emit: Emit,
  ref: { id: number; tenantId: number },
  text: string,
  created: boolean,
  now: Date,
  /** Receives the ids of the messages queued, for the caller to announce. */
  queued: number[] = [],
): Promise<AutoReplyOutcome> {
  const send = async (ticket: TicketRow, template: string) => {
    queued.push(await sendText(tx, ticket, template, now));
  };
  if (!(await lockTicket(tx, ref.tenantId, ref.id))) return 'skipped';
  const ticket = await selectTicket(tx, ref.id);
  if (!ticket || ticket.userId !== null || ticket.isGroup || ticket.chatFlowId !== null) return 'skipped';
  if (ticket.status !== 'pending' && ticket.status !== 'open') return 'skipped';
  const [state] = (await tx.query(
    `SELECT t."autoReplyId", t."stepAutoReplyId", c.number,
            (SELECT ch."chatFlowId" FROM channels ch WHERE ch.id = t."whatsappId") AS "channelFlow"
       FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE t.id = $1`,
    [ticket.id],
  )) as (BotState & { channelFlow: number | null })[];
  if (!state || state.channelFlow !== null) return 'skipped';

  if (state.stepAutoReplyId === null) {
    if (!created) return 'skipped';
    const [bot] = (await tx.query(
      `SELECT a.id, s.id AS "stepId", s.reply
         FROM auto_replies a
         JOIN auto_reply_steps s ON s."autoReplyId" = a.id AND s."initialStep"
        WHERE a."tenantId" = $1 AND a.active AND a.action = 0
          AND (a."testNumber" IS NULL OR a."testNumber" = $2)
        ORDER BY (a."testNumber" IS NOT NULL) DESC, a.id
        LIMIT 1`,
      [ticket.tenantId, state.number ?? ''],
    )) as { id: number; stepId: number; reply: string }[];
    if (!bot) return 'skipped';
    await setState(tx, ticket.id, bot.id, bot.stepId);
    await send(ticket, bot.reply);
    return 'started';
  }

  const actions = (await tx.query(`SELECT * FROM auto_reply_actions WHERE "stepId" = $1 ORDER BY id`, [
    state.stepAutoReplyId,
  ])) as AutoReplyActionRow[];
  const match = actions.find((a) => matchesAutoReplyWords(text, a.words));
  if (!match) {
    const [step] = (await tx.query(`SELECT reply FROM auto_reply_steps WHERE id = $1`, [state.stepAutoReplyId])) as {
      reply: string;
    }[];
    if (!step) {
      await setState(tx, ticket.id, null, null);
      return 'ended';
    }
    await send(ticket, step.reply);
    return 'repeated';
  }
  if (match.replyDefinition?.trim()) await send(ticket, match.replyDefinition.trim());

  if (match.action === 0) {
    const [next] = match.nextStepId
      ? ((await tx.query(`SELECT id, reply FROM auto_reply_steps WHERE id = $1`, [match.nextStepId])) as {
          id: number;
          reply: string;
        }[])
      : [];
    if (!next) {
      await setState(tx, ticket.id, null, null);
      return 'ended';
    }
    await setState(tx, ticket.id, state.autoReplyId, next.id);
    await send(ticket, next.reply);
    return 'nextStep';
  }
  await setState(tx, ticket.id, null, null);
  const log = {
    type: 'autoReply',
    userId: null,
    data: { autoReplyId: state.autoReplyId, stepId: state.stepAutoReplyId, actionId: match.id },
  };
  if (match.action === 1 && match.queueId !== null) {
    await applyTicketChange(tx, emit, ticket, { queueId: match.queueId, status: 'pending', userId: null }, log);
    return 'queue';
  }
  if (match.action === 2 && match.userIdDestination !== null) {
    await applyTicketChange(
      tx,
      emit,
      ticket,
      { userId: match.userIdDestination, status: 'open', startedAt: ticket.startedAt ?? now },
      log,
    );
    return 'user';
  }
  return 'ended';
}

async function setState(tx: EntityManager, ticketId: number, autoReplyId: number | null, stepId: number | null): Promise<void> {
  await tx.query(`UPDATE tickets SET "autoReplyId" = $2, "stepAutoReplyId" = $3 WHERE id = $1`, [ticketId, autoReplyId, stepId]);
}

async function sendText(tx: EntityManager, ticket: TicketRow, template: string, now: Date): Promise<number> {
  const text = await renderForTicket(tx, template, { tenantId: ticket.tenantId, ticketId: ticket.id, userId: null, now });
  return queueOutboundText(tx, ticket, text, { userId: null, now, kind: 'autoReply' });
}
