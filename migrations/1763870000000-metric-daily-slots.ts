import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ticket_metric_daily without one hot row per tenant and day. Every message of a tenant added 1 to
 * the same day row (messageIn, autoMessage), and the row stayed locked until its transaction
 * committed: under load the chatbot's writes queued behind each other on it (Lock:transactionid
 * on nearly every sampled active bot write at 450 msg/s). A day's count is now spread over up to
 * DAILY_SLOTS (16) rows, the writer's connection choosing its slot (backend pid modulo), and readers
 * add them up as they already did (sum(n) over the day rows). Existing rows keep slot 0.
 */
export class MetricDailySlots1763870000000 implements MigrationInterface {
  name = 'MetricDailySlots1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ticket_metric_daily ADD COLUMN slot smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE ticket_metric_daily DROP CONSTRAINT ticket_metric_daily_key`);
    await q.query(`ALTER TABLE ticket_metric_daily
      ADD CONSTRAINT ticket_metric_daily_key UNIQUE NULLS NOT DISTINCT ("tenantId", kind, day, "queueId", "userId", slot)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TEMP TABLE daily_merged AS
        SELECT "tenantId", kind, day, "queueId", "userId", sum(n)::int AS n FROM ticket_metric_daily GROUP BY 1, 2, 3, 4, 5`);
    await q.query(`DELETE FROM ticket_metric_daily`);
    await q.query(`ALTER TABLE ticket_metric_daily DROP CONSTRAINT ticket_metric_daily_key`);
    await q.query(`ALTER TABLE ticket_metric_daily DROP COLUMN slot`);
    await q.query(`INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", n) SELECT * FROM daily_merged`);
    await q.query(`DROP TABLE daily_merged`);
    await q.query(`ALTER TABLE ticket_metric_daily
      ADD CONSTRAINT ticket_metric_daily_key UNIQUE NULLS NOT DISTINCT ("tenantId", kind, day, "queueId", "userId")`);
  }
}
