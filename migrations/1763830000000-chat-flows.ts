import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #14, chatbot flows.
 * - `chat_flows`: a tenant's flows; `flow` is the definition of shared/schemas/chatflow.ts
 *   (steps, interactions, conditions, settings), validated by the server before it is stored.
 * - `ticket_bot_states`: one row per ticket the bot is handling (the step it waits in, the
 *   attempts, the variables, when it stops waiting). It is the source of truth of the bot, so a
 *   restart resumes every conversation where it was; the inactivity sweep reads `dueAt`.
 * - tickets."chatFlowId" and channels."chatFlowId" reference flows from now on (a deleted flow
 *   leaves them null).
 */
export class ChatFlows1763830000000 implements MigrationInterface {
  name = 'ChatFlows1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chat_flows (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        description text NOT NULL DEFAULT '',
        active boolean NOT NULL DEFAULT false,
        "testNumber" varchar NOT NULL DEFAULT '',
        flow jsonb NOT NULL,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX chat_flows_tenant_idx ON chat_flows ("tenantId", name)`);
    await q.query(`
      CREATE TABLE ticket_bot_states (
        "ticketId" int PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "chatFlowId" int NOT NULL REFERENCES chat_flows(id) ON DELETE CASCADE,
        "stepId" varchar NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        variables jsonb NOT NULL DEFAULT '{}'::jsonb,
        "dueAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ticket_bot_states_due_idx ON ticket_bot_states ("dueAt") WHERE "dueAt" IS NOT NULL`);
    await q.query(`CREATE INDEX ticket_bot_states_flow_idx ON ticket_bot_states ("chatFlowId")`);
    // Ids that name no flow (typed by hand in the old transfer dialog) are cleared.
    await q.query(`UPDATE tickets SET "chatFlowId" = NULL, "botActive" = false WHERE "chatFlowId" IS NOT NULL`);
    await q.query(`UPDATE channels SET "chatFlowId" = NULL WHERE "chatFlowId" IS NOT NULL`);
    await q.query(`ALTER TABLE tickets ADD CONSTRAINT tickets_chat_flow_fk FOREIGN KEY ("chatFlowId") REFERENCES chat_flows(id) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE channels ADD CONSTRAINT channels_chat_flow_fk FOREIGN KEY ("chatFlowId") REFERENCES chat_flows(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels DROP CONSTRAINT IF EXISTS channels_chat_flow_fk`);
    await q.query(`ALTER TABLE tickets DROP CONSTRAINT IF EXISTS tickets_chat_flow_fk`);
    await q.query(`DROP TABLE IF EXISTS ticket_bot_states`);
    await q.query(`DROP TABLE IF EXISTS chat_flows`);
  }
}
