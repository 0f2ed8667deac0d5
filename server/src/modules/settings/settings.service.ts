import { SOCKET_EVENTS } from '@shared/events';
import { DEFAULT_SETTINGS, isSettingKey, type SettingKey } from '@shared/settings';
import { AppError } from '../../core/app-error';
import { PLATFORM_PRIVATE_SETTING_PREFIX } from '../../core/platform-settings';
import type { AuthContext } from '../../core/auth-context';
import { lockTenant, type Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { settingsCacheFor, type TenantSettingsCache } from './settings.cache';
import { authorizeSettings } from './settings.policy';
import { SETTING_VALUE_SCHEMAS, findSettingsConflict, type SettingEntry, type SettingsUpdatePayload } from './settings.schema';

/** Every known key with the tenant's value (or its default), plus rows of keys kept for older clients. */
export type TenantSettings = Record<SettingKey, string> & Record<string, string>;

/**
 * Tenant settings (general tab): a key/value list per tenant. A key without a row reads as its
 * default, so keys added later need no data migration. Reads go through a per-tenant cache.
 */
export class SettingsService {
  private readonly cache: TenantSettingsCache;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.cache = settingsCacheFor(deps.dataSource, deps.clock);
  }

  /** GET /settings: sorted by key. */
  async list(auth: AuthContext): Promise<SettingEntry[]> {
    authorizeSettings(auth, 'read');
    const values = await this.valuesOfTenant(auth.tenantId);
    return Object.keys(values)
      .sort()
      .map((key) => ({ key, value: values[key] }));
  }

  /** The caller's tenant settings as a map, for other modules' rules (ticket visibility ...). */
  values(auth: AuthContext): Promise<TenantSettings> {
    return this.valuesOfTenant(auth.tenantId);
  }

  /** For work that runs without a user (e.g. the auto-close sweep), by tenant id. */
  valuesOfTenant(tenantId: number): Promise<TenantSettings> {
    return this.cache.get(tenantId, () => readSettings(this.deps.dataSource, tenantId)) as Promise<TenantSettings>;
  }

  /** Drops the cached copy; for a `settings:update` event written by another server process. */
  invalidate(tenantId: number): void {
    this.cache.invalidate(tenantId);
  }

  /**
   * PUT /settings/:settingKey. Unknown key: 404. Each key's value rule, then the rule between
   * keys, checked on the stored values under the tenant lock so two admins enabling the last
   * two conflicting options at once cannot both succeed.
   */
  async update(auth: AuthContext, key: string, rawValue: string): Promise<SettingEntry> {
    authorizeSettings(auth, 'update');
    if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
    const parsed = SETTING_VALUE_SCHEMAS[key].safeParse(rawValue);
    if (!parsed.success) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'value', message: parsed.error.issues[0]?.message ?? 'valor inválido' }],
      });
    }
    const value = parsed.data;
    if (key === 'timeZone') await this.assertDatabaseKnowsZone(value);
    const entry = await this.deps.events.transaction(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const next = { ...(await readSettings(tx, auth.tenantId)), [key]: value };
      const conflict = findSettingsConflict(next);
      if (conflict && conflict.keys.includes(key)) throw new AppError('ERR_SETTINGS_CONFLICT', { message: conflict.message });
      await tx.query(
        `INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)
         ON CONFLICT ("tenantId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
        [auth.tenantId, key, value],
      );
      const setting: SettingEntry = { key, value };
      const payload: SettingsUpdatePayload = { action: 'update', setting };
      await emit(auth.tenantId, SOCKET_EVENTS.settingsUpdate, payload);
      return setting;
    });
    // After the commit: a read between the write and the commit must not re-cache the old value.
    this.cache.invalidate(auth.tenantId);
    return entry;
  }

  /**
   * Days and hours are bucketed by the database (`AT TIME ZONE`): a zone the runtime knows but
   * the database's time zone files do not would fail every statistics call later.
   */
  private async assertDatabaseKnowsZone(zone: string): Promise<void> {
    try {
      await this.deps.dataSource.query(`SELECT now() AT TIME ZONE $1`, [zone]);
    } catch {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'value', message: 'fuso horário desconhecido pelo banco de dados' }] });
    }
  }
}

async function readSettings(db: Queryable, tenantId: number): Promise<TenantSettings> {
  // Platform-private rows (payment provider keys, licence) are never part of the tenant list.
  const rows: { key: string; value: string }[] = await db.query(
    `SELECT key, value FROM settings WHERE "tenantId" = $1 AND NOT starts_with(key, $2)`,
    [tenantId, PLATFORM_PRIVATE_SETTING_PREFIX],
  );
  const values: Record<string, string> = { ...DEFAULT_SETTINGS };
  for (const row of rows) values[row.key] = row.value;
  return values as TenantSettings;
}
