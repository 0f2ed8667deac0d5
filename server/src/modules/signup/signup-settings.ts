import type { DataSource } from 'typeorm';
import type { Clock } from '../../core/clock';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import type { Queryable } from '../../core/tenant-catalog';
import { settingsCacheFor } from '../settings/settings.cache';

/**
 * The platform's sign-up switch: a row of the platform tenant's settings (key `allowSignup`,
 * 'enabled' or 'disabled'; no row reads as enabled). Not one of the per-tenant keys of
 * shared/settings.ts: only the super administrator changes it, through PUT /admin/signup-settings.
 */
export const ALLOW_SIGNUP_KEY = 'allowSignup';

export async function isSignupAllowed(db: Queryable): Promise<boolean> {
  const rows: { value: string }[] = await db.query(`SELECT value FROM settings WHERE "tenantId" = $1 AND key = $2`, [
    PLATFORM_TENANT_ID,
    ALLOW_SIGNUP_KEY,
  ]);
  return (rows[0]?.value ?? 'enabled') !== 'disabled';
}

export async function setSignupAllowed(dataSource: DataSource, clock: Clock, allowed: boolean): Promise<void> {
  await dataSource.query(
    `INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)
     ON CONFLICT ("tenantId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
    [PLATFORM_TENANT_ID, ALLOW_SIGNUP_KEY, allowed ? 'enabled' : 'disabled'],
  );
  // GET /settings of the platform tenant lists its rows through this cache.
  settingsCacheFor(dataSource, clock).invalidate(PLATFORM_TENANT_ID);
}
