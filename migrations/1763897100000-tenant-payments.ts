import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenant payments (spec section 3 "Tenant payment", section 4 "Payment: pending, overdue, paid"):
 * - tenant_payments: one charge of the platform to a tenant, created at the payment provider
 *   (Asaas-compatible API). `providerId` is the provider's payment id (unique: a webhook finds
 *   its row by it). `paid` covers the provider's RECEIVED and CONFIRMED.
 * - payment_webhook_events: the provider's event ids already applied, so a replayed webhook
 *   changes nothing.
 * - tenants."overdueBlocked": the tenant has a charge overdue for longer than the grace days;
 *   set by the overdue sweep and the webhooks, read by the one authentication query.
 */
export class TenantPayments1763897100000 implements MigrationInterface {
  name = 'TenantPayments1763897100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenant_payments (
        id serial PRIMARY KEY,
        "tenantId" int NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        "providerId" varchar NOT NULL,
        value numeric(12,2) NOT NULL CHECK (value > 0),
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'overdue', 'paid')),
        "dueDate" date NOT NULL,
        description text,
        "bankSlipUrl" text,
        "invoiceUrl" text,
        "paidAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tenant_payments_provider_uq UNIQUE ("providerId")
      )`);
    await q.query(`CREATE INDEX tenant_payments_tenant_idx ON tenant_payments ("tenantId", "dueDate" DESC, id DESC)`);
    await q.query(`CREATE INDEX tenant_payments_status_idx ON tenant_payments (status, "dueDate")`);
    await q.query(`
      CREATE TABLE payment_webhook_events (
        id varchar PRIMARY KEY,
        event varchar NOT NULL,
        "providerPaymentId" varchar,
        "receivedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE tenants ADD COLUMN "overdueBlocked" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tenants DROP COLUMN "overdueBlocked"`);
    await q.query(`DROP TABLE payment_webhook_events`);
    await q.query(`DROP TABLE tenant_payments`);
  }
}
