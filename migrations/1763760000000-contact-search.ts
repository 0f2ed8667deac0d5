import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexed contact search (issue #11, section 6). A search fragment is matched, accent- and
 * case-insensitively, anywhere in the name or the e-mail, and by its digits anywhere in the number.
 * `LIKE '%x%'` can only use an index through trigrams (pg_trgm, GIN), and the indexed expression
 * must be IMMUTABLE: `unaccent()` is only STABLE (its dictionary could change), so a wrapper names
 * the dictionary explicitly and declares it immutable. Both objects are schema-qualified so the
 * expression means the same under any search_path (restores run with an empty one).
 *
 * pg_trgm and unaccent ship with PostgreSQL's contrib (Debian: postgresql-contrib, part of the
 * server package) and are "trusted" extensions (a database owner may create them); the embedded
 * PGlite loads the same two (server/src/db/embedded-postgres.ts), so one migration set serves both.
 */
export class ContactSearch1763760000000 implements MigrationInterface {
  name = 'ContactSearch1763760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent`);
    await q.query(`
      CREATE OR REPLACE FUNCTION public.immutable_unaccent(text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`);
    // The expressions must stay textually equal to the ones of contact-list.query.ts (SEARCH_*).
    await q.query(
      `CREATE INDEX contacts_name_search_idx ON contacts USING gin (lower(public.immutable_unaccent(name)) gin_trgm_ops)`,
    );
    await q.query(
      `CREATE INDEX contacts_email_search_idx ON contacts USING gin (lower(public.immutable_unaccent(email)) gin_trgm_ops)`,
    );
    await q.query(
      `CREATE INDEX contacts_number_search_idx ON contacts USING gin (regexp_replace(number, '\\D', '', 'g') gin_trgm_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS contacts_number_search_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_email_search_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_name_search_idx`);
    await q.query(`DROP FUNCTION IF EXISTS public.immutable_unaccent(text)`);
    // The extensions stay: other objects of the database may have come to use them since.
  }
}
