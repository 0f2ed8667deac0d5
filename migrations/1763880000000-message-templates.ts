import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WhatsApp message templates of a WABA channel, as last synced from the business account
 * (POST /whatsapp/{id}/templates/sync). One row per channel, name and language (Meta's own key
 * for a template translation); a sync updates the rows it finds and removes the ones Meta no
 * longer lists. Sends read the stored components to check and fill the variables.
 */
export class MessageTemplates1763880000000 implements MigrationInterface {
  name = 'MessageTemplates1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE message_templates (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "providerId" text NOT NULL,
        name text NOT NULL,
        language text NOT NULL,
        status text NOT NULL,
        category text,
        components jsonb NOT NULL DEFAULT '[]'::jsonb,
        "syncedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT message_templates_key UNIQUE ("channelId", name, language)
      )`);
    await q.query(`CREATE INDEX message_templates_tenant ON message_templates ("tenantId", "channelId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_templates`);
  }
}
