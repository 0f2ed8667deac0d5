import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WhatsApp groups of QR (Baileys) channels, issue #16 parts 5 and 6:
 * - wa_groups / wa_group_participants: the groups a channel's phone takes part in and their
 *   members, as last synced (POST /groups/sync) or reported by the session's group events;
 *   a group the phone left stays (isMember false) so the rules that name it keep their target.
 * - group_bans: numbers removed when they join (a null groupId: every group of the channel).
 * - group_texts: forbidden words (kind 'word', stored lowercase, with what happens to the
 *   sender: 'warn' or 'remove'), greeting and farewell messages (kind 'greeting' / 'farewell').
 * - group_operations: mass operations (/grupo/massagrupos, massagrupos2, massausuarios) with
 *   their progress and per-item results, which the screens poll.
 * - channel_phone_contacts: the phone's contacts a QR session was told about (provider table,
 *   written by the Baileys provider like channel_auth_state), read by POST /contacts/sync.
 */
export class WhatsappGroups1763895000000 implements MigrationInterface {
  name = 'WhatsappGroups1763895000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wa_groups (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        jid text NOT NULL,
        subject text NOT NULL DEFAULT '',
        description text,
        owner text,
        announce boolean NOT NULL DEFAULT false,
        restrict boolean NOT NULL DEFAULT false,
        size integer NOT NULL DEFAULT 0,
        "isMember" boolean NOT NULL DEFAULT true,
        "syncedAt" timestamptz NOT NULL DEFAULT now(),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT wa_groups_channel_jid UNIQUE ("channelId", jid)
      )`);
    await q.query(`CREATE INDEX wa_groups_tenant ON wa_groups ("tenantId", "channelId", subject)`);
    await q.query(`
      CREATE TABLE wa_group_participants (
        "groupId" integer NOT NULL REFERENCES wa_groups(id) ON DELETE CASCADE,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        jid text NOT NULL,
        phone text,
        admin text,
        PRIMARY KEY ("groupId", jid)
      )`);
    await q.query(`
      CREATE TABLE group_bans (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "groupId" integer REFERENCES wa_groups(id) ON DELETE CASCADE,
        number text NOT NULL,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX group_bans_key ON group_bans ("channelId", COALESCE("groupId", 0), number)`);
    await q.query(`CREATE INDEX group_bans_tenant ON group_bans ("tenantId", "channelId")`);
    await q.query(`
      CREATE TABLE group_texts (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "groupId" integer REFERENCES wa_groups(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('word', 'greeting', 'farewell')),
        text text NOT NULL,
        action text CHECK (action IN ('warn', 'remove')),
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX group_texts_channel ON group_texts ("tenantId", "channelId", kind)`);
    await q.query(`
      CREATE TABLE group_operations (
        id uuid PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        kind text NOT NULL,
        status text NOT NULL DEFAULT 'running',
        total integer NOT NULL DEFAULT 0,
        done integer NOT NULL DEFAULT 0,
        results jsonb NOT NULL DEFAULT '[]'::jsonb,
        error text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "finishedAt" timestamptz
      )`);
    await q.query(`CREATE INDEX group_operations_tenant ON group_operations ("tenantId", "createdAt")`);
    await q.query(`
      CREATE TABLE channel_phone_contacts (
        "channelId" integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        jid text NOT NULL,
        phone text,
        name text,
        notify text,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("channelId", jid)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE channel_phone_contacts`);
    await q.query(`DROP TABLE group_operations`);
    await q.query(`DROP TABLE group_texts`);
    await q.query(`DROP TABLE group_bans`);
    await q.query(`DROP TABLE wa_group_participants`);
    await q.query(`DROP TABLE wa_groups`);
  }
}
