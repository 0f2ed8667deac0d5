import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Foundation: tenants, plans, users, settings, domain events, sessions and tokens. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plans (
        id serial PRIMARY KEY,
        name varchar NOT NULL,
        value numeric(12,2) NOT NULL DEFAULT 0,
        "maxConnections" int NOT NULL DEFAULT 1,
        "maxUsers" int NOT NULL DEFAULT 1,
        trial boolean NOT NULL DEFAULT false,
        "trialDays" int NOT NULL DEFAULT 0,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE tenants (
        id serial PRIMARY KEY,
        name varchar NOT NULL,
        status varchar NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
        identity varchar,
        "maxUsers" int NOT NULL DEFAULT 10,
        "maxConnections" int NOT NULL DEFAULT 3,
        "planId" int REFERENCES plans(id) ON DELETE SET NULL,
        "hideUnofficial" boolean NOT NULL DEFAULT false,
        "paymentActive" boolean NOT NULL DEFAULT false,
        "paymentToken" varchar,
        "customerId" varchar,
        trial boolean NOT NULL DEFAULT false,
        "trialDays" int NOT NULL DEFAULT 0,
        "eventSeq" bigint NOT NULL DEFAULT 0,
        "businessHours" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "messageBusinessHours" text,
        "ratingSettings" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "systemColors" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE users (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        email varchar NOT NULL,
        "passwordHash" varchar NOT NULL,
        profile varchar NOT NULL DEFAULT 'user' CHECK (profile IN ('user','super','admin','superadmin')),
        queues jsonb NOT NULL DEFAULT '[]'::jsonb,
        "allowedConnections" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "blockVoice" boolean NOT NULL DEFAULT false,
        "isOnline" boolean NOT NULL DEFAULT false,
        "lastOnline" timestamptz,
        configs jsonb NOT NULL DEFAULT '{}'::jsonb,
        "tokenVersion" int NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // Login is by e-mail across tenants, so an e-mail is unique platform-wide (case-insensitive).
    await q.query(`CREATE UNIQUE INDEX users_email_lower_uq ON users (lower(email))`);
    await q.query(`CREATE INDEX users_tenant_idx ON users ("tenantId")`);
    await q.query(`
      CREATE TABLE user_tenants (
        id serial PRIMARY KEY,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("userId", "tenantId")
      )`);
    await q.query(`CREATE INDEX user_tenants_tenant_idx ON user_tenants ("tenantId")`);
    await q.query(`
      CREATE TABLE settings (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key varchar NOT NULL,
        value text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("tenantId", key)
      )`);
    await q.query(`
      CREATE TABLE domain_events (
        id bigserial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        name varchar NOT NULL,
        payload jsonb NOT NULL,
        audience jsonb NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("tenantId", seq)
      )`);
    await q.query(`
      CREATE TABLE auth_sessions (
        id uuid PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tokenVersion" int NOT NULL DEFAULT 0,
        "userAgent" varchar,
        ip varchar,
        "revokedAt" timestamptz,
        "revokedReason" varchar,
        "expiresAt" timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX auth_sessions_user_idx ON auth_sessions ("userId")`);
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        "sessionId" uuid NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
        "tokenHash" varchar NOT NULL UNIQUE,
        "usedAt" timestamptz,
        "expiresAt" timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_session_idx ON refresh_tokens ("sessionId")`);
    await q.query(`
      CREATE TABLE password_resets (
        id uuid PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tokenHash" varchar NOT NULL UNIQUE,
        "usedAt" timestamptz,
        "expiresAt" timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['password_resets', 'refresh_tokens', 'auth_sessions', 'domain_events', 'settings', 'user_tenants', 'users', 'tenants', 'plans']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
