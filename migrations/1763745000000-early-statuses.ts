import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery statuses that arrive before the send that they are about has recorded its provider
 * message id (a provider may post "delivered" before its own send call has answered). They wait
 * here and are applied when the id is recorded (or by the outbound sweep); a day later they are
 * dropped.
 */
export class EarlyStatuses1763745000000 implements MigrationInterface {
  name = 'EarlyStatuses1763745000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE message_status_early (
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "whatsappId" int NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "messageId" varchar NOT NULL,
        status varchar(16) NOT NULL,
        ack int NOT NULL,
        error text,
        "receivedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("whatsappId", "messageId", status)
      )`);
    await q.query(`CREATE INDEX message_status_early_received_idx ON message_status_early ("receivedAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_status_early`);
  }
}
