import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Internal chat (/chat-privado, issue #18): one-to-one conversations between users of a tenant and
 * team rooms.
 *
 * - chat_messages: `kind` 'user' (to a colleague, `toId` = the receiver) or 'team' (`toId` = the
 *   team). A one-to-one conversation is the unordered pair of its users, stored as
 *   ("userLow", "userHigh") so both directions are one range of one index: a page of history is
 *   an index-only backward scan of (pair, id) or ("toId", id) below the `before` cursor, whatever
 *   its depth (keyset, newest first). `fromUserId` keeps team history when a user is deleted
 *   (SET NULL); `clientId` is unique per sender, so a retried send stores the message once.
 *   Edits set "editedAt"; a delete is soft ("deletedAt", body '' and the file removed).
 *   Files are in the tenant's private upload folder (the ticket messages' store), `mediaPath`
 *   relative to it.
 * - chat_reads: how far each user read each of their conversations (`conversationId`: the other
 *   user for 'user', the team for 'team'); unread = the conversation's messages of others with
 *   an id above "lastReadId" (one index range from that id, never the whole history).
 * - A trigram index over the accent-folded, lower-cased body serves the search.
 */
export class InternalChat1763907000000 implements MigrationInterface {
  name = 'InternalChat1763907000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chat_messages (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        kind varchar(8) NOT NULL CONSTRAINT chat_messages_kind_check CHECK (kind IN ('user', 'team')),
        "toId" integer NOT NULL,
        "userLow" integer,
        "userHigh" integer,
        "fromUserId" integer REFERENCES users(id) ON DELETE SET NULL,
        body text NOT NULL DEFAULT '',
        "mediaPath" varchar(300),
        "mediaName" varchar(255),
        "mimeType" varchar(200),
        "mediaSize" bigint,
        "replyToId" integer REFERENCES chat_messages(id) ON DELETE SET NULL,
        "ticketId" integer REFERENCES tickets(id) ON DELETE SET NULL,
        "clientId" varchar(64),
        "editedAt" timestamptz,
        "deletedAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT chat_messages_pair_check CHECK (
          (kind = 'user' AND "userLow" IS NOT NULL AND "userHigh" IS NOT NULL AND "userLow" < "userHigh")
          OR (kind = 'team' AND "userLow" IS NULL AND "userHigh" IS NULL)
        )
      )`);
    await q.query(
      `CREATE INDEX chat_messages_pair_idx ON chat_messages ("userLow", "userHigh", id) INCLUDE ("fromUserId") WHERE kind = 'user'`,
    );
    await q.query(`CREATE INDEX chat_messages_team_idx ON chat_messages ("toId", id) INCLUDE ("fromUserId") WHERE kind = 'team'`);
    // The retry key, and the index the users foreign key needs (SET NULL on a user's deletion).
    await q.query(
      `CREATE UNIQUE INDEX chat_messages_client_uq ON chat_messages ("fromUserId", "clientId") WHERE "clientId" IS NOT NULL`,
    );
    await q.query(`CREATE INDEX chat_messages_from_idx ON chat_messages ("fromUserId")`);
    await q.query(`CREATE INDEX chat_messages_tenant_idx ON chat_messages ("tenantId")`);
    await q.query(`CREATE INDEX chat_messages_reply_idx ON chat_messages ("replyToId") WHERE "replyToId" IS NOT NULL`);
    await q.query(`CREATE INDEX chat_messages_ticket_idx ON chat_messages ("ticketId") WHERE "ticketId" IS NOT NULL`);
    await q.query(
      `CREATE INDEX chat_messages_search_idx ON chat_messages USING gin (lower(public.immutable_unaccent(body)) gin_trgm_ops)`,
    );
    await q.query(`
      CREATE TABLE chat_reads (
        "userId" integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind varchar(8) NOT NULL CONSTRAINT chat_reads_kind_check CHECK (kind IN ('user', 'team')),
        "conversationId" integer NOT NULL,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "lastReadId" integer NOT NULL DEFAULT 0,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("userId", kind, "conversationId")
      )`);
    await q.query(`CREATE INDEX chat_reads_conversation_idx ON chat_reads (kind, "conversationId")`);
    await q.query(`CREATE INDEX chat_reads_tenant_idx ON chat_reads ("tenantId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_reads`);
    await q.query(`DROP TABLE chat_messages`);
  }
}
