import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexed contact search (issue #11, section 6). A search fragment is matched, accent- and
 * case-insensitively, anywhere in the name or the e-mail, and by its digits anywhere in the number.
 * `LIKE '%x%'` can only use an index through trigrams (pg_trgm, GIN).
 *
 * The searched text is kept in two generated columns rather than in expression indexes: a trigram
 * match is always rechecked on the row, and a page in name order filters rows one by one, so the
 * folded text must be a plain value to compare, not a function call per row (the SQL wrapper
 * below is not inlined and costs ~8 µs a call: a page scanning 20,000 rows spent 190 ms in it).
 * - "searchText": lower(unaccent(name)) and lower(unaccent(email)) on two lines (a fragment of
 *   one line cannot run into the other unless it holds a line break itself);
 * - "searchDigits": the digits of the number ("(11) 98765-4321" and "5511987654321" alike).
 * `unaccent()` is only STABLE (its dictionary could change), so a wrapper names the dictionary
 * and declares itself IMMUTABLE, as generated columns and indexes require; both are
 * schema-qualified so the expression means the same under any search_path.
 *
 * pg_trgm and unaccent ship with PostgreSQL's contrib (Debian: postgresql-contrib, part of the
 * server package) and are "trusted" extensions (a database owner may create them); the embedded
 * PGlite loads the same two (server/src/db/embedded-postgres.ts), so one migration set serves both.
 * Adding the columns rewrites the contacts table once (a lock for the time of the rewrite).
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
    await q.query(`
      ALTER TABLE contacts
        ADD COLUMN "searchText" text GENERATED ALWAYS AS (
          lower(public.immutable_unaccent(name)) || E'\\n' || lower(public.immutable_unaccent(coalesce(email, '')))
        ) STORED,
        ADD COLUMN "searchDigits" text GENERATED ALWAYS AS (regexp_replace(coalesce(number, ''), '\\D', '', 'g')) STORED`);
    // A finer histogram: the planner estimates LIKE '%x%' from it, for the plan and for the count
    // the contact list reports beyond CONTACT_COUNT_EXACT_MAX (100 buckets means steps of 1%).
    await q.query(
      `ALTER TABLE contacts ALTER COLUMN "searchText" SET STATISTICS 1000, ALTER COLUMN "searchDigits" SET STATISTICS 1000`,
    );
    await q.query(`CREATE INDEX contacts_search_text_idx ON contacts USING gin ("searchText" gin_trgm_ops)`);
    await q.query(`CREATE INDEX contacts_search_digits_idx ON contacts USING gin ("searchDigits" gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contacts DROP COLUMN IF EXISTS "searchText", DROP COLUMN IF EXISTS "searchDigits"`);
    await q.query(`DROP FUNCTION IF EXISTS public.immutable_unaccent(text)`);
    // The extensions stay: other objects of the database may have come to use them since.
  }
}
