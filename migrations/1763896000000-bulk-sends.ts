import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Template campaigns and bulk sends (screens /massa/*), both sent by the campaign sender
 * (campaign.sender.ts; docs/architecture.md "Bulk sends"):
 * - campaigns.kind: 'campaign' (/campanhas) or 'bulk' (a bulk send of /massa: created running,
 *   never listed or reachable under /campaigns). `bulkKind` is the screen it came from.
 * - campaigns."templateName" / "templateLanguage" / "templateVariables": a WABA template sent
 *   instead of free text; `templateVariables` holds one text per body variable ({{1}}, {{2}}
 *   ...), each of which may use the message variables ({{name}} ...) and the destination's own
 *   values ({{1}} ... of its line).
 * - campaigns."delayMax": with it the spacing is uniform between `delay` and `delayMax` seconds
 *   (bulk sends: min and max seconds); without it the campaign's own jitter applies.
 * - campaigns."invalidLines": destination lines of a bulk send that were not sent (line, text,
 *   reason), kept for its result list.
 * - campaign_contacts.variables: the values of the destination's line (var1, var2 ...).
 */
export class BulkSends1763896000000 implements MigrationInterface {
  name = 'BulkSends1763896000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaigns
        ADD COLUMN kind varchar(16) NOT NULL DEFAULT 'campaign' CONSTRAINT campaigns_kind_check CHECK (kind IN ('campaign', 'bulk')),
        ADD COLUMN "bulkKind" varchar(24),
        ADD COLUMN "templateName" text,
        ADD COLUMN "templateLanguage" text,
        ADD COLUMN "templateVariables" jsonb,
        ADD COLUMN "delayMax" integer CONSTRAINT campaigns_delay_max_check CHECK ("delayMax" IS NULL OR "delayMax" >= delay),
        ADD COLUMN "invalidLines" jsonb`);
    await q.query(`DROP INDEX campaigns_tenant_idx`);
    await q.query(`CREATE INDEX campaigns_tenant_idx ON campaigns ("tenantId", kind, id)`);
    await q.query(`ALTER TABLE campaign_contacts ADD COLUMN variables jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts DROP COLUMN variables`);
    await q.query(`DROP INDEX campaigns_tenant_idx`);
    await q.query(`CREATE INDEX campaigns_tenant_idx ON campaigns ("tenantId", id)`);
    await q.query(`
      ALTER TABLE campaigns DROP COLUMN kind, DROP COLUMN "bulkKind", DROP COLUMN "templateName", DROP COLUMN "templateLanguage",
        DROP COLUMN "templateVariables", DROP COLUMN "delayMax", DROP COLUMN "invalidLines"`);
  }
}
