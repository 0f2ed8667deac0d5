import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A provider call in flight is recorded before it starts ("sendClaimedAt", cleared with its
 * outcome). A worker killed during the call leaves it set: once the lease is over the message is
 * not resent blindly (the customer may have it) but failed as "unconfirmed", for the agent to
 * resend (issue #12). Adding columns with constant defaults rewrites nothing.
 */
export class MessageSendClaim1763771000000 implements MigrationInterface {
  name = 'MessageSendClaim1763771000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN "sendClaimedAt" timestamptz, ADD COLUMN unconfirmed boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN "sendClaimedAt", DROP COLUMN unconfirmed`);
  }
}
