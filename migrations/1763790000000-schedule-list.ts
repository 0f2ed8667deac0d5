import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The /agendamentos list (issue #14): every scheduled message of a tenant whatever its status now
 * (waiting, sent, failed, canceled) by its date. `messages_schedule_idx` covers only the waiting
 * ones; this one covers the rows that ever had a date.
 */
export class ScheduleList1763790000000 implements MigrationInterface {
  name = 'ScheduleList1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX messages_schedule_all_idx ON messages ("tenantId", "scheduleDate" DESC, id DESC) WHERE "scheduleDate" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS messages_schedule_all_idx`);
  }
}
