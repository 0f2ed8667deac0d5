import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notes list across tickets (`GET /tickets/notes`, issue #14 item 9). Until now notes were
 * only read per ticket (ticket_notes_ticket_idx).
 * - a tenant's notes newest first (and within a period): one range walk of the tenant's notes in
 *   the list's order, stopping after the page; the count of a privileged viewer is index-only;
 * - the note text search ("contains", accents and case ignored) compares a generated column,
 *   "searchText" = lower(unaccent(note)) (the contacts' way, migration 1763760000000): a plain
 *   value per row instead of a function call per row (tests/bench/ticket-records.ts measured
 *   1.2 s for a search over 200,000 notes with the call, the column reads them in a fraction of
 *   that), and its trigram index finds rare fragments without reading every note. Notes are never
 *   updated, so the index costs one insert per note.
 * Adding the column rewrites ticket_notes once. The protocols list reads tickets by creation
 * through tickets_created_stats_idx, as the reports do.
 */
export class TicketRecordsIndexes1763820000000 implements MigrationInterface {
  name = 'TicketRecordsIndexes1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ticket_notes_tenant_created_idx ON ticket_notes ("tenantId", "createdAt" DESC, id DESC)`);
    await q.query(
      `ALTER TABLE ticket_notes ADD COLUMN "searchText" text GENERATED ALWAYS AS (lower(public.immutable_unaccent(note))) STORED`,
    );
    await q.query(`CREATE INDEX ticket_notes_search_idx ON ticket_notes USING gin ("searchText" gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS ticket_notes_tenant_created_idx`);
    await q.query(`ALTER TABLE ticket_notes DROP COLUMN IF EXISTS "searchText"`);
  }
}
