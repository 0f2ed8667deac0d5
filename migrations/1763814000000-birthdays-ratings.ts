import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #14, birthday messages and the ratings list.
 * - `birthday_greetings`: one row per contact and year once its birthday message is written, in
 *   the same transaction; its primary key is what makes "once per contact per year" hold across
 *   restarts, concurrent runs and several server processes. Back-filled from the birthday
 *   messages sent before (client id `birthday:<contact>:<yyyy-MM-dd>`).
 * - ratings of a tenant by time: the ratings list and its averages read a period of them.
 */
export class BirthdaysRatings1763814000000 implements MigrationInterface {
  name = 'BirthdaysRatings1763814000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE birthday_greetings (
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "contactId" int NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        year int NOT NULL,
        "channelId" int REFERENCES channels(id) ON DELETE SET NULL,
        "messageId" bigint,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenantId", "contactId", year)
      )`);
    await q.query(`
      INSERT INTO birthday_greetings ("tenantId", "contactId", year, "channelId", "messageId", "createdAt")
      SELECT DISTINCT ON (m."tenantId", m."contactId", substring(m."clientId" from '(\\d{4})-\\d{2}-\\d{2}$')::int)
             m."tenantId", m."contactId", substring(m."clientId" from '(\\d{4})-\\d{2}-\\d{2}$')::int, m."whatsappId", m.id, m."createdAt"
        FROM messages m
       WHERE m."clientId" ~ '^birthday:\\d+:\\d{4}-\\d{2}-\\d{2}$' AND m."contactId" IS NOT NULL
       ORDER BY m."tenantId", m."contactId", substring(m."clientId" from '(\\d{4})-\\d{2}-\\d{2}$')::int, m.id
      ON CONFLICT DO NOTHING`);
    await q.query(`CREATE INDEX ticket_ratings_tenant_created_idx ON ticket_ratings ("tenantId", "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS ticket_ratings_tenant_created_idx`);
    await q.query(`DROP TABLE IF EXISTS birthday_greetings`);
  }
}
