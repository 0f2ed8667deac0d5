import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tickets, messages and channels (issue: tickets and messages on the server, the channel
 * interface, the WhatsApp Cloud API channel). Extends the first ticket/message slice of the CRM
 * base migration.
 */
export class TicketsMessagesChannels1763740000000 implements MigrationInterface {
  name = 'TicketsMessagesChannels1763740000000';

  async up(q: QueryRunner): Promise<void> {
    // Channels ("whatsapps" in the anchor: every channel type lives here).
    await q.query(`
      CREATE TABLE channels (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name varchar NOT NULL,
        type varchar NOT NULL CHECK (type IN ('waba','baileys','whatsapp','meow','evo','wuzapi','telegram','hub','instagram','messenger')),
        status varchar NOT NULL DEFAULT 'DISCONNECTED'
          CHECK (status IN ('qrcode','OPENING','CONNECTED','DISCONNECTED','TIMEOUT','CONNECTION_LOST')),
        qrcode text,
        "pairingCode" varchar,
        retries int NOT NULL DEFAULT 0,
        number varchar,
        "isDefault" boolean NOT NULL DEFAULT false,
        "queueId" int REFERENCES queues(id) ON DELETE SET NULL,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        "chatFlowId" int,
        "providerConfig" jsonb NOT NULL DEFAULT '{}'::jsonb,
        secrets jsonb NOT NULL DEFAULT '{}'::jsonb,
        proxy jsonb,
        "birthdayMessage" text,
        "birthdayHour" int CHECK ("birthdayHour" IS NULL OR "birthdayHour" BETWEEN 0 AND 23),
        "farewellMessage" text,
        "closingKeyword" varchar,
        "importSettings" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "autoDistribution" varchar NOT NULL DEFAULT 'none' CHECK ("autoDistribution" IN ('none','random','balanced')),
        integrations jsonb NOT NULL DEFAULT '{}'::jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX channels_tenant_idx ON channels ("tenantId")`);
    await q.query(`CREATE UNIQUE INDEX channels_one_default_uq ON channels ("tenantId") WHERE "isDefault"`);
    // Webhooks of the Cloud API name the phone number id, not our channel.
    await q.query(`CREATE INDEX channels_waba_phone_idx ON channels (("providerConfig"->>'wabaPhoneNumberId')) WHERE type = 'waba'`);

    // Every id a person has on a channel (phone number, WhatsApp LID, Telegram id, ...).
    await q.query(`
      CREATE TABLE contact_identities (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "contactId" int NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        kind varchar NOT NULL CHECK (kind IN ('phone','wa','lid','telegram','instagram','messenger','hub')),
        "externalId" varchar NOT NULL,
        "channelId" int REFERENCES channels(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("tenantId", kind, "externalId")
      )`);
    await q.query(`CREATE INDEX contact_identities_contact_idx ON contact_identities ("contactId")`);

    await q.query(`ALTER TABLE tickets
      ADD COLUMN "whatsappId" int REFERENCES channels(id) ON DELETE SET NULL,
      ADD COLUMN channel varchar,
      ADD COLUMN protocol varchar,
      ADD COLUMN "isGroup" boolean NOT NULL DEFAULT false,
      ADD COLUMN "unreadMessages" int NOT NULL DEFAULT 0,
      ADD COLUMN answered boolean NOT NULL DEFAULT false,
      ADD COLUMN "lastMessage" text,
      ADD COLUMN "lastMessageAt" timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN "kanbanId" int REFERENCES kanbans(id) ON DELETE SET NULL,
      ADD COLUMN "chatFlowId" int,
      ADD COLUMN "botActive" boolean NOT NULL DEFAULT false,
      ADD COLUMN "demandId" int REFERENCES demands(id) ON DELETE SET NULL,
      ADD COLUMN value numeric(14,2),
      ADD COLUMN "difyStatus" varchar,
      ADD COLUMN "lmStatus" varchar,
      ADD COLUMN "ollamaStatus" varchar,
      ADD COLUMN "n8nStatus" varchar,
      ADD COLUMN "typebotStatus" varchar,
      ADD COLUMN "dialogflowStatus" varchar,
      ADD COLUMN "chatgptStatus" varchar,
      ADD COLUMN "closeAt" timestamptz,
      ADD COLUMN "closeReason" varchar,
      ADD COLUMN "ratingRequestedAt" timestamptz,
      ADD COLUMN "closedAt" timestamptz,
      ADD COLUMN "startedAt" timestamptz`);
    await q.query(`ALTER TABLE tickets ADD CONSTRAINT tickets_status_chk CHECK (status IN ('open','pending','closed','schedule'))`);
    // One open-or-pending ticket per (contact, channel), guaranteed by the database: a burst of
    // inbound messages upserts into the same row instead of racing to create duplicates.
    await q.query(`CREATE UNIQUE INDEX tickets_one_active_uq ON tickets ("tenantId", "contactId", (COALESCE("whatsappId", 0)))
      WHERE status IN ('open','pending')`);
    await q.query(`CREATE UNIQUE INDEX tickets_tenant_protocol_uq ON tickets ("tenantId", protocol) WHERE protocol IS NOT NULL`);
    // Keyset paging of the ticket list by tenant/status/queue/user, newest activity first.
    await q.query(`CREATE INDEX tickets_list_idx ON tickets ("tenantId", status, "lastMessageAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX tickets_queue_list_idx ON tickets ("tenantId", "queueId", status, "lastMessageAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX tickets_user_list_idx ON tickets ("tenantId", "userId", status, "lastMessageAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX tickets_close_due_idx ON tickets ("closeAt") WHERE "closeAt" IS NOT NULL`);

    await q.query(`
      CREATE TABLE ticket_logs (
        id bigserial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "ticketId" int NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        type varchar NOT NULL,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ticket_logs_ticket_idx ON ticket_logs ("ticketId", id)`);
    await q.query(`
      CREATE TABLE ticket_notes (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "ticketId" int NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        note text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ticket_notes_ticket_idx ON ticket_notes ("ticketId")`);
    await q.query(`
      CREATE TABLE ticket_ratings (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "ticketId" int NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "userId" int REFERENCES users(id) ON DELETE SET NULL,
        rating int NOT NULL CHECK (rating BETWEEN 0 AND 5),
        attempts int NOT NULL DEFAULT 1,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("ticketId")
      )`);

    await q.query(`ALTER TABLE messages
      ADD COLUMN "messageId" varchar,
      ADD COLUMN "whatsappId" int REFERENCES channels(id) ON DELETE SET NULL,
      ADD COLUMN "userId" int REFERENCES users(id) ON DELETE SET NULL,
      ADD COLUMN "clientId" varchar,
      ADD COLUMN "fromMe" boolean NOT NULL DEFAULT false,
      ADD COLUMN "mediaType" varchar NOT NULL DEFAULT 'chat',
      ADD COLUMN "mediaPath" varchar,
      ADD COLUMN "mediaName" varchar,
      ADD COLUMN "mimeType" varchar,
      ADD COLUMN "quotedMsgId" bigint REFERENCES messages(id) ON DELETE SET NULL,
      ADD COLUMN status varchar NOT NULL DEFAULT 'received'
        CHECK (status IN ('pending','sent','delivered','read','received','failed','scheduled','canceled')),
      ADD COLUMN ack int NOT NULL DEFAULT 0,
      ADD COLUMN "isEdited" boolean NOT NULL DEFAULT false,
      ADD COLUMN "isDeleted" boolean NOT NULL DEFAULT false,
      ADD COLUMN "isSync" boolean NOT NULL DEFAULT false,
      ADD COLUMN "isPrivate" boolean NOT NULL DEFAULT false,
      ADD COLUMN "scheduleDate" timestamptz,
      ADD COLUMN "sendAttempts" int NOT NULL DEFAULT 0,
      ADD COLUMN "nextRetryAt" timestamptz,
      ADD COLUMN "lastError" text,
      ADD COLUMN reactions jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN "dataJson" jsonb,
      ADD COLUMN timestamp bigint,
      ADD COLUMN read boolean NOT NULL DEFAULT false,
      ADD COLUMN "updatedAt" timestamptz NOT NULL DEFAULT now()`);
    // Inbound messages are stored once per (channel, provider message id), however often the
    // provider delivers the webhook; outbound sends are idempotent on the client-generated id.
    await q.query(`CREATE UNIQUE INDEX messages_channel_provider_uq ON messages ("whatsappId", "messageId") WHERE "messageId" IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX messages_client_id_uq ON messages ("tenantId", "clientId") WHERE "clientId" IS NOT NULL`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (status, "nextRetryAt") WHERE status IN ('pending','scheduled')`);
    await q.query(`CREATE INDEX messages_schedule_idx ON messages ("tenantId", "scheduleDate") WHERE status = 'scheduled'`);
    // Full-text search of message bodies (never ILIKE '%x%' over every tenant's messages).
    await q.query(`CREATE INDEX messages_body_fts_idx ON messages USING gin (to_tsvector('portuguese', body))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS ticket_ratings, ticket_notes, ticket_logs, contact_identities CASCADE`);
    await q.query(`DROP INDEX IF EXISTS messages_channel_provider_uq, messages_client_id_uq, messages_due_idx, messages_schedule_idx, messages_body_fts_idx`);
    await q.query(`DROP INDEX IF EXISTS tickets_one_active_uq, tickets_tenant_protocol_uq, tickets_list_idx, tickets_queue_list_idx, tickets_user_list_idx, tickets_close_due_idx`);
    await q.query(`DROP TABLE IF EXISTS channels CASCADE`);
  }
}
