import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the notes list across tickets (`GET /tickets/notes`, issue #14 item 9). Until now
 * notes were only read per ticket (ticket_notes_ticket_idx).
 * - a tenant's notes newest first (and within a period): one range walk of the tenant's notes in
 *   the list's order, stopping after the page;
 * - the note text search ("contains", accents and case ignored): trigrams of the folded text, the
 *   same expression the list compares (`lower(public.immutable_unaccent(note))`, migration
 *   1763760000000), so `LIKE '%x%'` over a large tenant's notes does not read every note.
 * The protocols list reads tickets by creation through tickets_created_stats_idx, as the reports do.
 */
export class TicketRecordsIndexes1763791400000 implements MigrationInterface {
  name = 'TicketRecordsIndexes1763791400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ticket_notes_tenant_created_idx ON ticket_notes ("tenantId", "createdAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX ticket_notes_search_idx ON ticket_notes USING gin ((lower(public.immutable_unaccent(note))) gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS ticket_notes_tenant_created_idx, ticket_notes_search_idx`);
  }
}
