import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns (issue #16, screens /campanhas and /campanhas/{campanhaId}).
 * - `campaigns`: up to 3 messages, optional media, the channel that sends and the queue for the
 *   answers; `delay` is the spacing in seconds between two sends of the channel (see
 *   campaign.sender.ts for the jitter). `status` follows spec section 4.
 * - `campaign_contacts`: one row per linked contact, the source of truth of the sender: pending ->
 *   sending (claimed; `callStartedAt` right before the provider call) -> delivered | failed.
 *   Unique (campaignId, contactId).
 * - `campaign_senders`: one row per channel: the sender's lease (`lockedUntil`) and when its next
 *   send may go (`nextSendAt`), so every process and every job of a channel shares one throttle.
 * - contacts."campaignOptOut": the contact wrote an opt-out word (tenant setting
 *   campaignOptOutWords); later sends to it fail with a reason instead of going out.
 */
export class Campaigns1763890000000 implements MigrationInterface {
  name = 'Campaigns1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns (
        id serial PRIMARY KEY,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        start timestamptz NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending'
          CONSTRAINT campaigns_status_check CHECK (status IN ('pending', 'scheduled', 'processing', 'canceled', 'finished')),
        message1 text NOT NULL,
        message2 text,
        message3 text,
        "mediaPath" text,
        "mediaName" text,
        "mimeType" text,
        delay integer NOT NULL DEFAULT 20 CONSTRAINT campaigns_delay_check CHECK (delay >= 0),
        "channelId" integer REFERENCES channels(id) ON DELETE SET NULL,
        "queueId" integer REFERENCES queues(id) ON DELETE SET NULL,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "startedAt" timestamptz,
        "finishedAt" timestamptz,
        "canceledAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX campaigns_tenant_idx ON campaigns ("tenantId", id)`);
    // The sweep's reads: campaigns due to start, and the channels with a campaign running.
    await q.query(`CREATE INDEX campaigns_active_idx ON campaigns (status, start) WHERE status IN ('scheduled', 'processing')`);
    await q.query(`
      CREATE TABLE campaign_contacts (
        id serial PRIMARY KEY,
        "campaignId" integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        status varchar(16) NOT NULL DEFAULT 'pending'
          CONSTRAINT campaign_contacts_status_check CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
        "messageIndex" smallint,
        body text,
        "messageId" text,
        error text,
        attempts smallint NOT NULL DEFAULT 0,
        "claimedAt" timestamptz,
        "callStartedAt" timestamptz,
        "sentAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT campaign_contacts_key UNIQUE ("campaignId", "contactId")
      )`);
    await q.query(`CREATE INDEX campaign_contacts_status_idx ON campaign_contacts ("campaignId", status, id)`);
    await q.query(`CREATE INDEX campaign_contacts_tenant_idx ON campaign_contacts ("tenantId", "contactId")`);
    await q.query(`
      CREATE TABLE campaign_senders (
        "channelId" integer PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        "tenantId" integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "nextSendAt" timestamptz NOT NULL DEFAULT now(),
        "lockedUntil" timestamptz,
        "lockedBy" text
      )`);
    await q.query(`CREATE INDEX campaign_senders_tenant_idx ON campaign_senders ("tenantId")`);
    await q.query(`ALTER TABLE contacts ADD COLUMN "campaignOptOut" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE contacts ADD COLUMN "campaignOptOutAt" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contacts DROP COLUMN "campaignOptOutAt"`);
    await q.query(`ALTER TABLE contacts DROP COLUMN "campaignOptOut"`);
    await q.query(`DROP TABLE campaign_senders`);
    await q.query(`DROP TABLE campaign_contacts`);
    await q.query(`DROP TABLE campaigns`);
  }
}
