import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #14, item 3: the anchor's keyword bot (/auto-resposta).
 * - `auto_replies`: a tenant's bots; `action` 0 = runs on every new ticket (the anchor's only
 *   trigger); `testNumber` limits an active bot to one contact number while it is tried out.
 * - `auto_reply_steps`: the texts sent; one `initialStep` per bot (partial unique index).
 * - `auto_reply_actions`: what an answer to a step does: `words` is matched against the
 *   customer's reply; action 0 = next step, 1 = queue, 2 = user; `replyDefinition` is sent
 *   when it matches.
 * - tickets."autoReplyId" / "stepAutoReplyId": the step a ticket waits in (durable bot state,
 *   so a restart resumes every conversation). They RESTRICT deletes: the service answers 409
 *   ERR_AUTO_REPLY_RELATIONED_TICKET first; the constraint is the last guard.
 */
export class AutoReplies1763840000000 implements MigrationInterface {
  name = 'AutoReplies1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auto_replies (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        action int NOT NULL DEFAULT 0 CHECK (action IN (0)),
        active boolean NOT NULL DEFAULT true,
        "testNumber" varchar,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX auto_replies_tenant_idx ON auto_replies ("tenantId", action) WHERE active`);
    await q.query(`
      CREATE TABLE auto_reply_steps (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "autoReplyId" int NOT NULL REFERENCES auto_replies(id) ON DELETE CASCADE,
        reply text NOT NULL,
        "initialStep" boolean NOT NULL DEFAULT false,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX auto_reply_steps_reply_idx ON auto_reply_steps ("autoReplyId", id)`);
    await q.query(`CREATE UNIQUE INDEX auto_reply_steps_initial_uq ON auto_reply_steps ("autoReplyId") WHERE "initialStep"`);
    await q.query(`
      CREATE TABLE auto_reply_actions (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "stepId" int NOT NULL REFERENCES auto_reply_steps(id) ON DELETE CASCADE,
        words varchar NOT NULL,
        action int NOT NULL CHECK (action IN (0, 1, 2)),
        "nextStepId" int REFERENCES auto_reply_steps(id) ON DELETE SET NULL,
        "queueId" int REFERENCES queues(id) ON DELETE SET NULL,
        "userIdDestination" int REFERENCES users(id) ON DELETE SET NULL,
        "replyDefinition" text,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX auto_reply_actions_step_idx ON auto_reply_actions ("stepId", id)`);
    await q.query(`
      ALTER TABLE tickets
        ADD COLUMN "autoReplyId" int REFERENCES auto_replies(id) ON DELETE RESTRICT,
        ADD COLUMN "stepAutoReplyId" int REFERENCES auto_reply_steps(id) ON DELETE RESTRICT`);
    await q.query(`CREATE INDEX tickets_auto_reply_idx ON tickets ("autoReplyId") WHERE "autoReplyId" IS NOT NULL`);
    await q.query(`CREATE INDEX tickets_step_auto_reply_idx ON tickets ("stepAutoReplyId") WHERE "stepAutoReplyId" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets DROP COLUMN IF EXISTS "stepAutoReplyId", DROP COLUMN IF EXISTS "autoReplyId"`);
    await q.query(`DROP TABLE IF EXISTS auto_reply_actions`);
    await q.query(`DROP TABLE IF EXISTS auto_reply_steps`);
    await q.query(`DROP TABLE IF EXISTS auto_replies`);
  }
}
