import type { AppDeps } from '../../../deps';
import { systemClock } from '../../../core/clock';
import { runAutoReply } from '../../auto-replies/auto-reply.runner';
import { announceAutomatedMessages, emitQueuedMessages } from '../../messages/automated-messages';
import { sendAbsenceMessageIfClosed } from '../../tenants/absence-message';
import { businessHoursOf, isWithinBusinessHours } from '../../tenants/business-hours';
import {
  channelAutomationOf,
  closeOnKeyword,
  enterChannelQueue,
  isClosingKeyword,
} from '../../tickets/ticket-automation';
import type { InboundPipeline } from './inbound-pipeline';

/** The channel's rules: closing keyword, then auto-distribution and queue greeting of a new ticket. */
export const CHANNEL_RULES_HOOK_ORDER = 150;
/** The absence message outside business hours. */
export const BUSINESS_HOURS_HOOK_ORDER = 200;
/** The keyword bot of /auto-resposta (tickets without an agent on channels without a chatflow). */
export const AUTO_REPLY_HOOK_ORDER = 250;

/**
 * The automation hooks of issue #14 items 3-5 (docs/architecture.md, "Inbound hooks"), after the
 * rating hook (100) and before the chatbot (300):
 * - channel rules (150): the channel's closing keyword resolves the ticket (handled); a ticket
 *   created in the channel's queue is auto-distributed and greeted (not on a channel with a
 *   chatflow: the bot routes first).
 * - business hours (200): outside hours the absence message (once per window); when there is one,
 *   the chain stops there unless a chatflow runs the ticket (it decides with
 *   isWithinBusinessHours itself). A tenant without an absence text keeps its bots at night.
 * - auto-reply (250): the keyword bot.
 * Each hook reads first, outside a transaction, and opens one only when it has something to
 * write: most messages cost these hooks a few indexed reads.
 */
export function registerAutomationHooks(
  pipeline: InboundPipeline,
  deps: Pick<AppDeps, 'events' | 'dataSource'> & Partial<Pick<AppDeps, 'clock'>>,
): void {
  const clock = deps.clock ?? systemClock;
  pipeline.useHook({
    name: 'channel-rules',
    order: CHANNEL_RULES_HOOK_ORDER,
    run: async (event) => {
      if (event.ticket.isGroup) return;
      const automation = await channelAutomationOf(deps.dataSource, event.tenantId, event.channel.id);
      if (!automation) return;
      const ticket = { id: event.ticket.id, tenantId: event.tenantId };
      if (isClosingKeyword(event.inbound.body, automation.closingKeyword)) {
        const closed = await deps.events.transaction(async (tx, emit) => {
          const queued: number[] = [];
          const done = await closeOnKeyword(tx, emit, ticket, clock.now(), queued);
          await emitQueuedMessages(tx, emit, ticket.id, queued);
          return done;
        });
        return closed ? 'handled' : undefined;
      }
      // A channel with a chatflow hands new tickets to the bot first: its queue routing
      // distributes and greets (through applyTicketChange) when the flow gets there. A ticket an
      // opening hook routed (a campaign answer in the campaign's queue) enters its queue here
      // whatever the channel's flow: the bot does not start on it.
      const routed = event.ticket.routed === true;
      if (event.ticket.created && event.ticket.queueId !== null && (automation.chatFlowId === null || routed)) {
        const entry = await deps.events.transaction(async (tx, emit) => {
          const queued: number[] = [];
          const result = await enterChannelQueue(tx, emit, ticket, automation, clock.now(), queued);
          await announceAutomatedMessages(tx, emit, ticket.id, queued, clock.now());
          return result;
        });
        if (entry.userId !== null) event.ticket.userId = entry.userId;
      }
      return undefined;
    },
  });
  pipeline.useHook({
    name: 'business-hours',
    order: BUSINESS_HOURS_HOOK_ORDER,
    run: async (event) => {
      if (event.ticket.isGroup) return;
      const now = clock.now();
      const hours = await businessHoursOf(deps.dataSource, event.tenantId, event.ticket.queueId);
      if (!hours.absenceMessage || isWithinBusinessHours(hours.week, now, hours.timeZone)) return;
      const outcome = await deps.events.transaction(async (tx, emit) => {
        const queued: number[] = [];
        const ticket = { id: event.ticket.id, tenantId: event.tenantId, queueId: event.ticket.queueId };
        const result = await sendAbsenceMessageIfClosed(tx, ticket, now, queued);
        await announceAutomatedMessages(tx, emit, ticket.id, queued, now);
        return result;
      });
      if (outcome !== 'sent' && outcome !== 'alreadySent') return undefined;
      if (event.ticket.chatFlowId !== null) return undefined;
      const automation = await channelAutomationOf(deps.dataSource, event.tenantId, event.channel.id);
      return automation?.chatFlowId ? undefined : 'handled';
    },
  });
  pipeline.useHook({
    name: 'auto-reply',
    order: AUTO_REPLY_HOOK_ORDER,
    run: (event) => runAutoReply(deps, event, clock.now()),
  });
}
