import type { EntityManager } from 'typeorm';
import type { Profile } from '@shared/profiles';
import { AppError } from '../../core/app-error';
import { seedTenantSettings } from '../../seed/seed';

export interface ProvisionTenantInput {
  name: string;
  /** The plan whose limits and trial the tenant starts with (must exist). */
  planId: number;
  /** CPF/CNPJ (digits only) or another national id; null when not given. */
  identity?: string | null;
  status?: 'active' | 'inactive';
  /** Limits overriding the plan's; the plan's when absent. */
  maxUsers?: number;
  maxConnections?: number;
  /** Trial on/off and its length in days; the plan's when absent. */
  trial?: boolean;
  trialDays?: number;
  /** The tenant's first user (an admin), with a password already hashed by the caller. */
  admin: { name: string; email: string; passwordHash: string; profile?: Extract<Profile, 'admin'> };
}

export interface ProvisionedTenant {
  tenantId: number;
  adminUserId: number;
}

/**
 * Creates a tenant inside the caller's transaction: the tenant row with its plan's limits (or the
 * given overrides), its default settings, and its first administrator with the user_tenants link.
 * Used by the super administrator's tenant creation and by sign-up, so both make the same tenant.
 * Hash the password before the transaction (bcrypt is slow and must not hold a connection).
 * Throws ERR_NO_PLAN_FOUND for an unknown plan; a taken e-mail surfaces as the unique violation
 * on users_email_lower_uq, which the caller maps to its own error.
 */
export async function provisionTenant(tx: EntityManager, input: ProvisionTenantInput): Promise<ProvisionedTenant> {
  const plans: { id: number; maxUsers: number; maxConnections: number; trial: boolean; trialDays: number }[] = await tx.query(
    `SELECT id, "maxUsers", "maxConnections", trial, "trialDays" FROM plans WHERE id = $1`,
    [input.planId],
  );
  const plan = plans[0];
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  const [tenant]: { id: number }[] = await tx.query(
    `INSERT INTO tenants (name, status, identity, "planId", "maxUsers", "maxConnections", trial, "trialDays")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      input.name,
      input.status ?? 'active',
      input.identity ?? null,
      plan.id,
      input.maxUsers ?? plan.maxUsers,
      input.maxConnections ?? plan.maxConnections,
      input.trial ?? plan.trial,
      input.trialDays ?? plan.trialDays,
    ],
  );
  await seedTenantSettings(tx, tenant!.id);
  const [user]: { id: number }[] = await tx.query(
    `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, $2, lower($3), $4, $5) RETURNING id`,
    [tenant!.id, input.admin.name, input.admin.email, input.admin.passwordHash, input.admin.profile ?? 'admin'],
  );
  await tx.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user!.id, tenant!.id]);
  return { tenantId: tenant!.id, adminUserId: user!.id };
}
