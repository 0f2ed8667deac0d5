import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The super administrator's platform operations (issue #17):
 * - terminal_audit: every use of the diagnostic terminal (/terminal), allowed or refused: who
 *   (user and tenant at the time), which command, when, and the outcome.
 * - platform_updates: every update package (update_rapido.zip) received by /atualizar, with the
 *   steps run (signature, staging, migrations, file clean) and where it was staged.
 * - tenant_api_tokens: API tokens of a tenant (spec section 3 "Tenant API: id, API token"). Only
 *   the SHA-256 of a token is kept; the token itself is shown once, when it is created. A revoked
 *   token keeps its row (revokedAt) so the list shows when it stopped working.
 */
export class PlatformOps1763897400000 implements MigrationInterface {
  name = 'PlatformOps1763897400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE terminal_audit (
        id serial PRIMARY KEY,
        "tenantId" int REFERENCES tenants(id) ON DELETE SET NULL,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "userName" varchar(200) NOT NULL DEFAULT '',
        command varchar(64) NOT NULL,
        outcome varchar(16) NOT NULL CONSTRAINT terminal_audit_outcome_check CHECK (outcome IN ('ok', 'error', 'refused')),
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX terminal_audit_created_idx ON terminal_audit ("createdAt" DESC, id DESC)`);
    await q.query(`
      CREATE TABLE platform_updates (
        id serial PRIMARY KEY,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "fileName" varchar(255) NOT NULL,
        size bigint NOT NULL,
        sha256 char(64) NOT NULL,
        status varchar(16) NOT NULL CONSTRAINT platform_updates_status_check CHECK (status IN ('refused', 'applied', 'failed')),
        "stagedPath" text,
        steps jsonb NOT NULL DEFAULT '[]',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "finishedAt" timestamptz
      )`);
    await q.query(`CREATE INDEX platform_updates_created_idx ON platform_updates ("createdAt" DESC, id DESC)`);
    await q.query(`
      CREATE TABLE tenant_api_tokens (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        "tokenHash" char(64) NOT NULL CONSTRAINT tenant_api_tokens_hash_key UNIQUE,
        "tokenPrefix" varchar(16) NOT NULL,
        "createdBy" int REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "revokedAt" timestamptz
      )`);
    await q.query(`CREATE INDEX tenant_api_tokens_tenant_idx ON tenant_api_tokens ("tenantId", id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tenant_api_tokens`);
    await q.query(`DROP TABLE platform_updates`);
    await q.query(`DROP TABLE terminal_audit`);
  }
}
