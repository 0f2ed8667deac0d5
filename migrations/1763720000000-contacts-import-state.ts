import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contacts import as durable, resumable work:
 * - "updatedAt" is the worker's heartbeat (written with every batch), so a sweep can tell a
 *   stalled import (worker died) from a running one and requeue it; `attempts` stops a file that
 *   keeps killing its worker from being retried forever; `percent` is the share of the file read.
 * - Rejected rows go to their own table instead of the jsonb `errors` array: appending to a jsonb
 *   value rewrites it whole on every batch, which is quadratic for a large file full of bad rows.
 *   The answer of GET /contacts/upload/:importId keeps its `errors: [{line, reason}]` shape.
 */
export class ContactsImportState1763720000000 implements MigrationInterface {
  name = 'ContactsImportState1763720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE contact_imports
        ADD COLUMN "updatedAt" timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN attempts int NOT NULL DEFAULT 0,
        ADD COLUMN percent smallint NOT NULL DEFAULT 0,
        DROP COLUMN errors`);
    await q.query(
      `CREATE INDEX contact_imports_pending_idx ON contact_imports (status, "updatedAt") WHERE status IN ('queued', 'processing')`,
    );
    await q.query(`
      CREATE TABLE contact_import_errors (
        id bigserial PRIMARY KEY,
        "importId" uuid NOT NULL REFERENCES contact_imports(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        line int NOT NULL,
        reason text NOT NULL
      )`);
    await q.query(`CREATE INDEX contact_import_errors_import_idx ON contact_import_errors ("importId", line)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS contact_import_errors`);
    await q.query(`DROP INDEX IF EXISTS contact_imports_pending_idx`);
    await q.query(`
      ALTER TABLE contact_imports
        DROP COLUMN "updatedAt",
        DROP COLUMN attempts,
        DROP COLUMN percent,
        ADD COLUMN errors jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }
}
