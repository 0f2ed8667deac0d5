import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tasks (/tarefas, issue #18).
 *
 * - tasks: stored status is pending or finished; "delayed" is derived (pending past
 *   "limitDate") and never stored. A recurring task (recurrenceDays > 0) with repetitions left
 *   makes its next occurrence when finished: that row points back with "parentTaskId", which is
 *   UNIQUE, so finishing twice (or two finishes at once) can never make two.
 *   "reminderSentAt" marks the owner's reminder as sent (or not wanted: a limit date already
 *   past when it was set); the sweep sets it in the same transaction that writes the
 *   notification, so a reminder goes once.
 * - task_comments: author, text, date; removed with their task.
 */
export class Tasks1763906000000 implements MigrationInterface {
  name = 'Tasks1763906000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tasks (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        "limitDate" timestamptz NOT NULL,
        "ownerId" integer REFERENCES users(id) ON DELETE SET NULL,
        "createdById" integer REFERENCES users(id) ON DELETE SET NULL,
        "recurrenceDays" smallint NOT NULL DEFAULT 0 CONSTRAINT tasks_recurrence_check CHECK ("recurrenceDays" IN (0, 7, 30, 45, 60, 75, 90)),
        repetitions integer NOT NULL DEFAULT 0 CONSTRAINT tasks_repetitions_check CHECK (repetitions >= 0),
        occurrence integer NOT NULL DEFAULT 1,
        "parentTaskId" integer CONSTRAINT tasks_parent_uq UNIQUE REFERENCES tasks(id) ON DELETE SET NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CONSTRAINT tasks_status_check CHECK (status IN ('pending', 'finished')),
        priority varchar(16) NOT NULL DEFAULT 'none' CONSTRAINT tasks_priority_check CHECK (priority IN ('high', 'medium', 'low', 'none')),
        "ticketId" integer REFERENCES tickets(id) ON DELETE SET NULL,
        "contactId" integer REFERENCES contacts(id) ON DELETE SET NULL,
        "finishedAt" timestamptz,
        "reminderSentAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tasks_tenant_limit_idx ON tasks ("tenantId", status, "limitDate", id)`);
    await q.query(`CREATE INDEX tasks_tenant_owner_idx ON tasks ("tenantId", "ownerId")`);
    await q.query(`CREATE INDEX tasks_tenant_creator_idx ON tasks ("tenantId", "createdById")`);
    await q.query(
      `CREATE INDEX tasks_reminder_due_idx ON tasks ("limitDate") WHERE status = 'pending' AND "reminderSentAt" IS NULL`,
    );
    await q.query(`
      CREATE TABLE task_comments (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "taskId" integer NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        text text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX task_comments_task_idx ON task_comments ("taskId", id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE task_comments`);
    await q.query(`DROP TABLE tasks`);
  }
}
