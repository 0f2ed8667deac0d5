import {
  DEFAULT_SYSTEM_COLORS,
  withDefaultRating,
  withDefaultWeek,
  type BusinessHoursResponse,
  type RatingSettings,
  type SystemColors,
} from '@shared/schemas/tenant-settings';
import type { Tenant } from '../../db/entities';

/** A tenant's hours as clients use them: always the 7 days (defaults for days never saved). */
export function presentBusinessHours(tenant: Pick<Tenant, 'businessHours' | 'messageBusinessHours'>): BusinessHoursResponse {
  return { businessHours: withDefaultWeek(tenant.businessHours), messageBusinessHours: tenant.messageBusinessHours ?? null };
}

export function presentRating(tenant: Pick<Tenant, 'ratingSettings'>): RatingSettings {
  return withDefaultRating(tenant.ratingSettings as Partial<RatingSettings>);
}

/** Only the colours: the public call must not carry any other field of tenant 1. */
export function presentSystemColors(tenant: Pick<Tenant, 'systemColors'> | null): SystemColors {
  const stored = tenant?.systemColors;
  return Array.isArray(stored) && stored.length > 0
    ? stored.map((entry) => ({ ...entry }))
    : DEFAULT_SYSTEM_COLORS.map((entry) => ({ ...entry }));
}
