import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #13, the per-user report's medians (estatisticas-atendimentos-usuarios): the resolution
 * and first-response facts of a tenant in (user, value) order. The report groups them by user
 * without a sort and each user's values reach percentile_cont already in order, so a year of
 * facts (about 94,000 resolutions and 97,000 first replies on the benchmark's tenant) costs one
 * index read instead of a sort by user plus a sort per user. Partial: only the two kinds with
 * medians, only facts with an agent; the other kinds keep their one period index.
 */
export class ReportMedianIndex1763860000000 implements MigrationInterface {
  name = 'ReportMedianIndex1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX ticket_metric_events_user_value_idx ON ticket_metric_events ("tenantId", kind, "userId", value)
        INCLUDE (at, "queueId") WHERE kind IN ('resolved', 'firstReply') AND "userId" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS ticket_metric_events_user_value_idx`);
  }
}
