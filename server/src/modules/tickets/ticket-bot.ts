import type { Queryable } from '../../core/tenant-catalog';

/**
 * The lifecycle of a ticket's chatbot state (table ticket_bot_states, one row per ticket the
 * bot is handling) as the tickets module sees it: handing a ticket to a flow writes the row at
 * the flow's start step, due now, and a `chatflow.run` job (the chatflow module's engine) runs
 * it; any change that gives the ticket to an agent or ends it removes the row (ticket-writes.ts).
 * Every write of the row happens under the ticket's row lock.
 */

/** Job the chatflow engine processes: run a ticket's due bot state now ({ ticketId }). */
export const CHATBOT_RUN_JOB = 'chatflow.run';

/** Variables key of a step left half-way (a delay, or a start not run yet): where to go on. */
export const BOT_RESUME_KEY = '$resume';

export interface BotResume {
  stepId: string;
  /** Index of the next interaction of the step to run. */
  index: number;
  /** Also send the flow's welcome message first (a start not run yet). */
  welcome?: boolean;
}

/** A flow of the tenant, with whether it is active and its start step; null when it is not the tenant's. */
export async function chatFlowOf(
  db: Queryable,
  tenantId: number,
  chatFlowId: number,
): Promise<{ id: number; active: boolean; startStepId: string } | null> {
  const [row] = (await db.query(
    `SELECT id, active, flow->>'startStepId' AS "startStepId" FROM chat_flows WHERE id = $1 AND "tenantId" = $2`,
    [chatFlowId, tenantId],
  )) as { id: number; active: boolean; startStepId: string }[];
  return row ?? null;
}

/**
 * The ticket enters the flow at its start step (replacing any state it had), due now: the engine
 * sends the welcome message and runs the start step when it picks the row up. Call it with the
 * ticket locked.
 */
export async function writeBotStart(
  tx: Queryable,
  ticket: { id: number; tenantId: number },
  flow: { id: number; startStepId: string },
  now: Date,
): Promise<void> {
  const resume: BotResume = { stepId: flow.startStepId, index: 0, welcome: true };
  await tx.query(
    `INSERT INTO ticket_bot_states ("ticketId", "tenantId", "chatFlowId", "stepId", attempts, variables, "dueAt", "updatedAt")
     VALUES ($1, $2, $3, $4, 0, $5, $6, clock_timestamp())
     ON CONFLICT ("ticketId") DO UPDATE
       SET "chatFlowId" = EXCLUDED."chatFlowId", "stepId" = EXCLUDED."stepId", attempts = 0,
           variables = EXCLUDED.variables, "dueAt" = EXCLUDED."dueAt", "updatedAt" = clock_timestamp()`,
    [ticket.id, ticket.tenantId, flow.id, flow.startStepId, JSON.stringify({ [BOT_RESUME_KEY]: resume }), now],
  );
}

/** The bot stops handling the ticket (its state row goes). */
export async function deleteBotState(tx: Queryable, ticketId: number): Promise<void> {
  await tx.query(`DELETE FROM ticket_bot_states WHERE "ticketId" = $1`, [ticketId]);
}
