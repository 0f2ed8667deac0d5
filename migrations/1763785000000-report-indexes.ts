import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the reports (issue #13), measured by tests/bench/reports.ts (100,000 tickets and
 * 1,000,000 messages in one tenant). Tickets and contacts by creation are indexed by the recorded
 * metrics migration (tickets_created_stats_idx, contacts_tenant_created_idx), which the reports
 * use as they are.
 * - agents' messages per ticket: the per-user statistics read, for each ticket of the period,
 *   the agent messages (who, when) from the index alone, instead of every message;
 * - contacts by area code: the state report finds the numbers of the chosen area codes (the
 *   expressions are those of `contact-reports.ts`, so the planner matches them).
 */
export class ReportIndexes1763785000000 implements MigrationInterface {
  name = 'ReportIndexes1763785000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX messages_agent_reply_idx ON messages ("ticketId", "userId", "createdAt")
        WHERE "fromMe" AND NOT "isPrivate" AND "userId" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX contacts_tenant_area_code_idx ON contacts ("tenantId", (substring(number, 3, 2)), "createdAt")
        WHERE number LIKE '55%' AND length(number) IN (12, 13) AND NOT "isGroup"`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS messages_agent_reply_idx, contacts_tenant_area_code_idx`);
  }
}
