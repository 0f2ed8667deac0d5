import type { Clock } from '../../core/clock';

type SettingsValues = Record<string, string>;

/** How long another server process may keep serving a value changed elsewhere. */
export const SETTINGS_CACHE_TTL_MS = 30_000;

/**
 * Per-tenant settings kept in process memory: ticket visibility reads them on every list and
 * event, and they change rarely. A write invalidates its tenant at once in this process; other
 * processes drop their copy when they see the `settings:update` event (call `invalidate`), and
 * the TTL bounds the staleness if that event is missed.
 *
 * A load that started before an invalidation does not store its (possibly old) result: each
 * tenant has a generation number that an invalidation bumps.
 */
export class TenantSettingsCache {
  private readonly entries = new Map<number, { values: SettingsValues; expiresAt: number }>();
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = SETTINGS_CACHE_TTL_MS,
  ) {}

  async get(tenantId: number, load: () => Promise<SettingsValues>): Promise<SettingsValues> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(tenantId);
    if (hit && hit.expiresAt > now) return hit.values;
    const generation = this.generations.get(tenantId) ?? 0;
    const values = await load();
    if ((this.generations.get(tenantId) ?? 0) === generation) {
      this.entries.set(tenantId, { values, expiresAt: now + this.ttlMs });
    }
    return values;
  }

  invalidate(tenantId: number): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    this.entries.delete(tenantId);
  }
}

const caches = new WeakMap<object, TenantSettingsCache>();

/** One cache per app (keyed by its data source), shared by every module that reads settings. */
export function settingsCacheFor(owner: object, clock: Clock): TenantSettingsCache {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new TenantSettingsCache(clock);
    caches.set(owner, cache);
  }
  return cache;
}
