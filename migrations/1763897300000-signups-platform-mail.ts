import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self sign-up and the platform's e-mail settings (issue #17):
 * - signups: one row per tenant created by sign-up. Until "confirmedAt" is set the tenant is
 *   pending: created inactive, and its users' login answers ERR_TENANT_EMAIL_NOT_CONFIRMED.
 *   Only the SHA-256 of the e-mailed link's token is kept; the link works once, until "expiresAt".
 *   "confirmedBy" says whether the link or the super administrator confirmed it.
 * - platform_mail_settings: the SMTP server of the platform's own mails (one row, id 1); without
 *   it the server's SMTP_URL applies. The password is never sent back by the API.
 */
export class SignupsPlatformMail1763897300000 implements MigrationInterface {
  name = 'SignupsPlatformMail1763897300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signups (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL UNIQUE REFERENCES tenants(id) ON DELETE CASCADE,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone varchar(32) NOT NULL,
        "tokenHash" varchar(64) NOT NULL UNIQUE,
        "expiresAt" timestamptz NOT NULL,
        "confirmedAt" timestamptz,
        "confirmedBy" varchar(16) CHECK ("confirmedBy" IN ('link', 'superadmin')),
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX signups_pending_idx ON signups ("createdAt") WHERE "confirmedAt" IS NULL`);
    await q.query(`
      CREATE TABLE platform_mail_settings (
        id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        host varchar(253) NOT NULL,
        port int NOT NULL CHECK (port BETWEEN 1 AND 65535),
        secure boolean NOT NULL DEFAULT false,
        "user" varchar(254) NOT NULL DEFAULT '',
        password varchar(512),
        "from" varchar(320) NOT NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS platform_mail_settings`);
    await q.query(`DROP TABLE IF EXISTS signups`);
  }
}
