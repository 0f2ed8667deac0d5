import { isIanaTimeZone } from '@shared/schemas/settings';
import { DEFAULT_SETTINGS } from '@shared/settings';
import type { Queryable } from '../../core/tenant-catalog';

/** The tenant's time zone from its `timeZone` setting: an IANA name this runtime knows, else America/Sao_Paulo. */
export function tenantTimeZone(value: string | null | undefined): string {
  const zone = value?.trim();
  return zone && isIanaTimeZone(zone) ? zone : DEFAULT_SETTINGS.timeZone;
}

/** Reads the setting (one indexed row) and answers the tenant's time zone. */
export async function timeZoneOfTenant(db: Queryable, tenantId: number): Promise<string> {
  const [row] = (await db.query(`SELECT value FROM settings WHERE "tenantId" = $1 AND key = 'timeZone'`, [tenantId])) as {
    value: string;
  }[];
  return tenantTimeZone(row?.value);
}
