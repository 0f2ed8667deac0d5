import type { AppDeps } from '../../deps';
import { CHATBOT_HOOK_ORDER } from '../messaging/inbound/default-hooks';
import { CHATBOT_RUN_JOB } from '../tickets/ticket-bot';
import { ChatflowEngine } from './chatflow-engine';

export const CHATBOT_SWEEP_JOB = 'chatflow.sweep';
/** How often due bot states (no answer, the end of a delay, a start whose job was lost) are looked for. */
export const CHATBOT_SWEEP_INTERVAL_MS = 5_000;

const engines = new WeakMap<AppDeps, ChatflowEngine>();

/**
 * The chatflow engine of a server, built once per app and wired to:
 * - the inbound pipeline, as the `chatbot` hook (order CHATBOT_HOOK_ORDER: after ratings and
 *   business hours, before AI). It is registered here rather than in default-hooks.ts because it
 *   needs the job queue and the clock, which the channel registry is not built with;
 * - the `chatflow.run` job ({ ticketId }: a transfer to the chatbot, the end of a delay);
 * - the `chatflow.sweep` periodic task (claimed through PostgreSQL, once per interval across
 *   processes), the safety net that also routes tickets left without an answer.
 */
export function chatflowEngineOf(deps: AppDeps): ChatflowEngine {
  const existing = engines.get(deps);
  if (existing) return existing;
  const engine = new ChatflowEngine(deps);
  engines.set(deps, engine);
  deps.channels.inbound.useHook({ name: 'chatbot', order: CHATBOT_HOOK_ORDER, run: (event) => engine.onInbound(event) });
  deps.jobs.process<{ ticketId: number }>(CHATBOT_RUN_JOB, async (data) => {
    await engine.runDue(Number(data.ticketId));
  });
  deps.periodic.register({
    name: CHATBOT_SWEEP_JOB,
    intervalMs: CHATBOT_SWEEP_INTERVAL_MS,
    run: async () => {
      const handled = await engine.sweep();
      if (handled > 0) deps.logger.info({ handled }, 'chatbot sweep handled due tickets');
    },
  });
  return engine;
}
