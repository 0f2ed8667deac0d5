import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns and bulk sends take a template's header and button variables as well as its body's:
 * campaigns."templateVariables" (jsonb) becomes `{header: [], body: [], buttons: []}` (the parts
 * of the composer's template send). Rows written before held the body's list only: they become
 * `{header: [], body: <the list>, buttons: []}`. The readers accept both forms anyway
 * (normalizeTemplateVariables), so a process still running the older code is not broken by it.
 */
export class TemplateVariableParts1763897000000 implements MigrationInterface {
  name = 'TemplateVariableParts1763897000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE campaigns
         SET "templateVariables" = jsonb_build_object('header', '[]'::jsonb, 'body', "templateVariables", 'buttons', '[]'::jsonb)
       WHERE jsonb_typeof("templateVariables") = 'array'`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Header and button values have no place in the older form: they are dropped.
    await q.query(`
      UPDATE campaigns SET "templateVariables" = COALESCE("templateVariables" -> 'body', '[]'::jsonb)
       WHERE jsonb_typeof("templateVariables") = 'object'`);
  }
}
