import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #14, items 4 and 5.
 * - queues."businessHours": the queue's own week (shared/schemas/tenant-settings.ts shape);
 *   null means the tenant's hours apply.
 * - tickets."absenceMessageAt": when the business-hours absence message last went to this
 *   ticket. It is the durable "once per conversation window" mark: the hook claims it with one
 *   conditional UPDATE, so two workers or a restart never send it twice in a window.
 */
export class BusinessHoursAutomation1763850000000 implements MigrationInterface {
  name = 'BusinessHoursAutomation1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE queues ADD COLUMN "businessHours" jsonb`);
    await q.query(`ALTER TABLE tickets ADD COLUMN "absenceMessageAt" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets DROP COLUMN IF EXISTS "absenceMessageAt"`);
    await q.query(`ALTER TABLE queues DROP COLUMN IF EXISTS "businessHours"`);
  }
}
