import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a channel session is in its state (e.g. the Graph API refusing the WABA token), kept with
 * the status so the connections screen can say it after a reload, not only in the live event.
 */
export class ChannelSessionReason1763741000000 implements MigrationInterface {
  name = 'ChannelSessionReason1763741000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels ADD COLUMN "statusReason" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels DROP COLUMN "statusReason"`);
  }
}
