import type { ErrorCode } from '@shared/errors';
import { PROFILES, type Profile } from '@shared/profiles';
import type { AuthContext } from './auth-context';
import { assertSameTenant, requireProfile } from './policy';

export type CatalogListAction = 'list' | 'create' | 'reorder';
export type CatalogRowAction = 'read' | 'update' | 'delete';

/**
 * Who may do what with one kind of tenant-owned catalog row (queues, tags, teams ...), declared
 * once per model in its `<domain>.policy.ts`. `authorizeRow` runs right after the load: a row
 * of another tenant is "not found" before any profile rule (nothing leaks), then the profile.
 */
export interface CatalogPolicy {
  readonly notFound: ErrorCode;
  authorize(auth: AuthContext, action: CatalogListAction): void;
  authorizeRow<T extends { tenantId: number }>(auth: AuthContext, action: CatalogRowAction, row: T | null | undefined): T;
}

export function catalogPolicy(rules: {
  notFound: ErrorCode;
  readers: readonly Profile[];
  writers: readonly Profile[];
}): CatalogPolicy {
  return {
    notFound: rules.notFound,
    authorize(auth, action) {
      requireProfile(auth, action === 'list' ? rules.readers : rules.writers);
    },
    authorizeRow(auth, action, row) {
      const target = assertSameTenant(auth, row, rules.notFound);
      requireProfile(auth, action === 'read' ? rules.readers : rules.writers);
      return target;
    },
  };
}

/** Every profile of the tenant. */
export const ALL_PROFILES: readonly Profile[] = PROFILES;
