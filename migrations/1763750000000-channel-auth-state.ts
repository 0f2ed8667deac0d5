import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Login state of QR-paired sessions (Baileys): the credentials and the Signal keys of each
 * channel, one row per key, serialised with Baileys' BufferJSON. Kept in PostgreSQL (not in
 * files) so a restart or another server process resumes the session; removed with the channel.
 */
export class ChannelAuthState1763750000000 implements MigrationInterface {
  name = 'ChannelAuthState1763750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channel_auth_state (
        "channelId" int NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("channelId", key)
      )`);
    await q.query(`CREATE INDEX channel_auth_state_tenant_idx ON channel_auth_state ("tenantId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE channel_auth_state`);
  }
}
