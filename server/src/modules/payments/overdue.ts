import type { Clock } from '../../core/clock';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import { updateReturning, type Queryable } from '../../core/tenant-catalog';

/**
 * Overdue charges and the tenants they block. A pending charge whose due date has passed is
 * overdue (the sweep, or the provider's PAYMENT_OVERDUE webhook). A tenant with a charge overdue
 * for more than the grace days is blocked (`tenants."overdueBlocked"`): its calls answer
 * ERR_ASAAS_OVERDUE except those of the blocked menu (overdue-block.ts). Paying the charge
 * (webhook) unblocks it at once. Days are calendar days of the server clock in UTC.
 */

/** yyyy-MM-dd of `clock` now (UTC). */
export function todayOf(clock: Clock): string {
  return clock.now().toISOString().slice(0, 10);
}

/** Pending charges past their due date become overdue; answers the tenants touched. */
export async function markOverdue(db: Queryable, today: string): Promise<number[]> {
  const rows = await updateReturning<{ tenantId: number }>(
    db,
    `UPDATE tenant_payments SET status = 'overdue', "updatedAt" = now()
      WHERE status = 'pending' AND "dueDate" < $1::date
      RETURNING "tenantId"`,
    [today],
  );
  return [...new Set(rows.map((r) => r.tenantId))];
}

/**
 * Recomputes the block of the given tenants (all when omitted) from their overdue charges.
 * Answers the tenants whose block changed. The platform tenant is never blocked.
 */
export async function refreshBlocks(
  db: Queryable,
  opts: { today: string; graceDays: number; tenantIds?: number[] },
): Promise<{ tenantId: number; blocked: boolean }[]> {
  const params: unknown[] = [opts.graceDays, opts.today, PLATFORM_TENANT_ID];
  let only = '';
  if (opts.tenantIds) {
    params.push(opts.tenantIds);
    only = `AND t2.id = ANY($4)`;
  }
  const rows = await updateReturning<{ id: number; overdueBlocked: boolean }>(
    db,
    `UPDATE tenants t SET "overdueBlocked" = b.blocked
       FROM (SELECT t2.id,
                    EXISTS (SELECT 1 FROM tenant_payments p
                             WHERE p."tenantId" = t2.id AND p.status = 'overdue'
                               AND p."dueDate" + $1::int < $2::date) AS blocked
               FROM tenants t2
              WHERE t2.id <> $3 ${only}) b
      WHERE t.id = b.id AND t."overdueBlocked" IS DISTINCT FROM b.blocked
      RETURNING t.id, t."overdueBlocked"`,
    params,
  );
  return rows.map((r) => ({ tenantId: r.id, blocked: r.overdueBlocked }));
}
