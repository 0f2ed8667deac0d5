import type { Queryable } from './tenant-catalog';
import { PLATFORM_TENANT_ID } from './platform';

/**
 * Platform-wide values the super administrator configures (payment provider, licence), kept in
 * the platform tenant's settings rows under keys starting with this prefix. Such rows are
 * private: the tenant settings list (GET /settings) never includes them, so an API key or a
 * webhook token is never read back through it.
 */
export const PLATFORM_PRIVATE_SETTING_PREFIX = 'platform:';

export type PlatformSettingKey = `${typeof PLATFORM_PRIVATE_SETTING_PREFIX}${string}`;

export async function readPlatformSettings<K extends PlatformSettingKey>(db: Queryable, keys: readonly K[]): Promise<Partial<Record<K, string>>> {
  const rows: { key: K; value: string }[] = await db.query(`SELECT key, value FROM settings WHERE "tenantId" = $1 AND key = ANY($2)`, [
    PLATFORM_TENANT_ID,
    keys,
  ]);
  return Object.fromEntries(rows.map((r) => [r.key, r.value])) as Partial<Record<K, string>>;
}

export async function writePlatformSettings(db: Queryable, values: Partial<Record<PlatformSettingKey, string>>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    await db.query(
      `INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)
       ON CONFLICT ("tenantId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
      [PLATFORM_TENANT_ID, key, value],
    );
  }
}
