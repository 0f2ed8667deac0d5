import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CRM base (issue: contacts, queues, tags, teams, wallets, kanban, lanes, demands, quick
 * messages, contact imports) and the first slice of tickets/messages that contacts and queues
 * must know about (delete refusals, duplicate merge). The tickets issue extends these tables.
 */
export class CrmBase1763710000000 implements MigrationInterface {
  name = 'CrmBase1763710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE queues (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        color varchar NOT NULL DEFAULT '#5C7CFA',
        "greetingMessage" text,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX queues_tenant_name_uq ON queues ("tenantId", lower(name))`);
    await q.query(`
      CREATE TABLE tags (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        color varchar NOT NULL DEFAULT '#5C7CFA',
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX tags_tenant_name_uq ON tags ("tenantId", lower(name))`);
    await q.query(`
      CREATE TABLE kanbans (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        color varchar NOT NULL DEFAULT '#5C7CFA',
        position int NOT NULL DEFAULT 0,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX kanbans_tenant_pos_idx ON kanbans ("tenantId", position)`);
    await q.query(`
      CREATE TABLE lanes (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        color varchar NOT NULL DEFAULT '#5C7CFA',
        position int NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX lanes_tenant_pos_idx ON lanes ("tenantId", position)`);
    await q.query(`
      CREATE TABLE demands (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX demands_tenant_name_uq ON demands ("tenantId", lower(name))`);
    await q.query(`
      CREATE TABLE teams (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX teams_tenant_name_uq ON teams ("tenantId", lower(name))`);
    await q.query(`
      CREATE TABLE team_users (
        "teamId" int NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        PRIMARY KEY ("teamId", "userId")
      )`);
    await q.query(`
      CREATE TABLE contacts (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        number varchar,
        email varchar,
        "cpfCnpj" varchar,
        birthday date,
        "firstName" varchar,
        "lastName" varchar,
        "businessName" varchar,
        "messengerId" varchar,
        "instagramId" varchar,
        "hubWhatsappId" varchar,
        "telegramId" varchar,
        "profilePicUrl" varchar,
        "isGroup" boolean NOT NULL DEFAULT false,
        "kanbanId" int REFERENCES kanbans(id) ON DELETE SET NULL,
        "extraInfo" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "blockContact" boolean NOT NULL DEFAULT false,
        "blockChatbot" boolean NOT NULL DEFAULT false,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // One person, one contact: the normalised number is unique per tenant.
    await q.query(`CREATE UNIQUE INDEX contacts_tenant_number_uq ON contacts ("tenantId", number) WHERE number IS NOT NULL`);
    await q.query(`CREATE INDEX contacts_tenant_name_idx ON contacts ("tenantId", lower(name), id)`);
    await q.query(`CREATE INDEX contacts_tenant_kanban_idx ON contacts ("tenantId", "kanbanId")`);
    await q.query(`
      CREATE TABLE contact_tags (
        "contactId" int NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        "tagId" int NOT NULL REFERENCES tags(id) ON DELETE RESTRICT,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        PRIMARY KEY ("contactId", "tagId")
      )`);
    await q.query(`CREATE INDEX contact_tags_tag_idx ON contact_tags ("tagId")`);
    await q.query(`
      CREATE TABLE contact_wallets (
        "contactId" int NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        "userId" int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        PRIMARY KEY ("contactId", "userId")
      )`);
    await q.query(`CREATE INDEX contact_wallets_user_idx ON contact_wallets ("userId")`);
    await q.query(`
      CREATE TABLE fast_replies (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        key varchar NOT NULL,
        message text NOT NULL DEFAULT '',
        "mediaPath" varchar,
        "mediaName" varchar,
        "mediaType" varchar,
        "sendAsVoice" boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX fast_replies_tenant_key_uq ON fast_replies ("tenantId", lower(key))`);
    await q.query(`
      CREATE TABLE contact_imports (
        id uuid PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        status varchar NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','processing','done','failed')),
        "fileName" varchar NOT NULL,
        "filePath" varchar NOT NULL,
        "dateFormat" varchar NOT NULL DEFAULT 'dd/MM/yyyy',
        total int NOT NULL DEFAULT 0,
        processed int NOT NULL DEFAULT 0,
        created int NOT NULL DEFAULT 0,
        updated int NOT NULL DEFAULT 0,
        duplicates int NOT NULL DEFAULT 0,
        rejected int NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]'::jsonb,
        "failureReason" text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "finishedAt" timestamptz
      )`);
    await q.query(`CREATE INDEX contact_imports_tenant_idx ON contact_imports ("tenantId", "createdAt" DESC)`);
    await q.query(`
      CREATE TABLE tickets (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "contactId" int NOT NULL REFERENCES contacts(id) ON DELETE RESTRICT,
        "queueId" int REFERENCES queues(id) ON DELETE RESTRICT,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        status varchar NOT NULL DEFAULT 'pending',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tickets_contact_idx ON tickets ("contactId")`);
    await q.query(`CREATE INDEX tickets_queue_idx ON tickets ("queueId")`);
    await q.query(`
      CREATE TABLE messages (
        id bigserial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "ticketId" int NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "contactId" int REFERENCES contacts(id) ON DELETE SET NULL,
        body text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX messages_ticket_idx ON messages ("ticketId", id)`);
    await q.query(`CREATE INDEX messages_contact_idx ON messages ("contactId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['messages', 'tickets', 'contact_imports', 'fast_replies', 'contact_wallets', 'contact_tags', 'contacts', 'team_users', 'teams', 'demands', 'lanes', 'kanbans', 'tags', 'queues']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
