import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The super administrator's tenant administration (issue #17):
 * - tenants."limitsOverride": the tenant's maxUsers/maxConnections were set by hand; off, they
 *   follow the plan (a plan change or a plan edit copies the plan's limits);
 * - tenant_deletions: the background deletion of a tenant's data and files, with its progress
 *   (no foreign key: the row outlives the tenant it reports on);
 * - support_sessions: every time-limited support access of the super administrator to a tenant.
 */
export class TenantAdministration1763905000000 implements MigrationInterface {
  name = 'TenantAdministration1763905000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tenants ADD COLUMN "limitsOverride" boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE INDEX tenants_plan_idx ON tenants ("planId")`);
    await q.query(`
      CREATE TABLE tenant_deletions (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL,
        "tenantName" varchar NOT NULL,
        status varchar NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
        progress int NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        step varchar,
        forced boolean NOT NULL DEFAULT false,
        "requestedBy" int,
        error text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        "finishedAt" timestamptz
      )`);
    // One deletion at a time per tenant: a second DELETE while one is queued or running is refused.
    await q.query(
      `CREATE UNIQUE INDEX tenant_deletions_one_active_uq ON tenant_deletions ("tenantId") WHERE status IN ('queued','running')`,
    );
    await q.query(`
      CREATE TABLE support_sessions (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "superadminId" int REFERENCES users(id) ON DELETE SET NULL,
        "superadminName" varchar NOT NULL,
        "actingUserId" int REFERENCES users(id) ON DELETE SET NULL,
        "authSessionId" uuid NOT NULL,
        reason text NOT NULL,
        "startedAt" timestamptz NOT NULL,
        "expiresAt" timestamptz NOT NULL,
        "endedAt" timestamptz,
        "endReason" varchar
      )`);
    await q.query(`CREATE INDEX support_sessions_tenant_idx ON support_sessions ("tenantId", "startedAt" DESC)`);
    await q.query(`CREATE UNIQUE INDEX support_sessions_auth_uq ON support_sessions ("authSessionId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS support_sessions`);
    await q.query(`DROP TABLE IF EXISTS tenant_deletions`);
    await q.query(`DROP INDEX IF EXISTS tenants_plan_idx`);
    await q.query(`ALTER TABLE tenants DROP COLUMN IF EXISTS "limitsOverride"`);
  }
}
