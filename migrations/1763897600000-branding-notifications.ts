import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * White-label branding and notifications (issue #17).
 *
 * - platform_branding: one row (id 1) with the platform's application name, logo and favicon.
 *   The images are small (BRANDING_IMAGE_MAX_BYTES) and live in the database, so every server
 *   process of a deployment serves the same ones without a shared disk. Their content type is
 *   the one detected from the bytes at upload, and `*Hash` versions their public URL.
 * - notifications: one row per sent notification, whatever the number of recipients. A
 *   broadcast names its tenants (`tenantIds`, null: every tenant) and profiles (null: every
 *   profile); a notification for one user (tasks, mentions ... of issue #18) has `userId` and its
 *   single tenant. `kind` and `link` let those features share the bell.
 * - notification_reads: a row when a user reads a notification; unread = visible and no row.
 *   A send to a tenant of 1,000 users writes one row, not 1,000.
 */
export class BrandingNotifications1763897600000 implements MigrationInterface {
  name = 'BrandingNotifications1763897600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_branding (
        id smallint PRIMARY KEY DEFAULT 1 CONSTRAINT platform_branding_single_row CHECK (id = 1),
        "appName" varchar(60),
        logo bytea,
        "logoType" varchar(40),
        "logoHash" varchar(64),
        favicon bytea,
        "faviconType" varchar(40),
        "faviconHash" varchar(64),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO platform_branding (id) VALUES (1)`);
    await q.query(`
      CREATE TABLE notifications (
        id serial PRIMARY KEY,
        kind varchar(32) NOT NULL DEFAULT 'broadcast',
        message text NOT NULL,
        link varchar(500),
        "tenantIds" integer[],
        profiles varchar(16)[],
        "userId" integer REFERENCES users(id) ON DELETE CASCADE,
        "createdById" integer REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notifications_user_tenant_check CHECK ("userId" IS NULL OR cardinality("tenantIds") = 1)
      )`);
    await q.query(`CREATE INDEX notifications_user_idx ON notifications ("userId", id) WHERE "userId" IS NOT NULL`);
    await q.query(`CREATE INDEX notifications_tenants_idx ON notifications USING gin ("tenantIds")`);
    await q.query(`
      CREATE TABLE notification_reads (
        "userId" integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "notificationId" integer NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
        "readAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("userId", "notificationId")
      )`);
    await q.query(`CREATE INDEX notification_reads_notification_idx ON notification_reads ("notificationId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification_reads`);
    await q.query(`DROP TABLE notifications`);
    await q.query(`DROP TABLE platform_branding`);
  }
}
