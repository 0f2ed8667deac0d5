import type { AppDeps } from '../../../deps';
import { handleInboundForTicket } from '../../tickets/ticket-closing';
import { registerAutomationHooks } from './automation-hooks';
import type { InboundPipeline } from './inbound-pipeline';

/** Order of the rating hook: first, so a rating reply is not also a chatbot or AI input. */
export const RATING_HOOK_ORDER = 100;
/** Order of the chatbot hook (registered by modules/chatflow/chatflow-wiring.ts, which has the jobs and clock it needs). */
export const CHATBOT_HOOK_ORDER = 300;

/**
 * The hooks every server runs. Rating replies (spec section 4: "sending a rating request closes
 * the ticket automatically after the customer replies"): while a ticket waits for a rating, the
 * customer's reply goes to the tickets module, which records the rating (or asks again) and
 * closes the ticket; the reply is then handled and later hooks skip it. Then the automation hooks
 * (automation-hooks.ts): channel rules 150, business hours 200, auto-reply 250.
 */
export function registerDefaultInboundHooks(
  pipeline: InboundPipeline,
  deps: Pick<AppDeps, 'events' | 'dataSource'> & Partial<Pick<AppDeps, 'clock'>>,
): void {
  pipeline.useHook({
    name: 'rating',
    order: RATING_HOOK_ORDER,
    run: async (event) => {
      // Only tickets that asked for a rating: every other message costs nothing here.
      if (!event.ticket.ratingRequested) return;
      const outcome = await deps.events.transaction((tx, emit) =>
        handleInboundForTicket(tx, emit, { id: event.ticket.id, tenantId: event.tenantId }, event.inbound.body),
      );
      return outcome.handled === 'none' ? undefined : 'handled';
    },
  });
  registerAutomationHooks(pipeline, deps);
}
