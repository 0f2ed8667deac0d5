import type { Profile } from '@shared/profiles';
import { AppError } from './app-error';
import type { AuthContext } from './auth-context';

/**
 * Profile gates shared by every module's policy. The first rule of every policy is "same
 * tenant": a row of another tenant is answered as not found (nothing leaks), never as forbidden.
 */
export function requireProfile(auth: AuthContext, allowed: readonly Profile[]): void {
  if (!allowed.includes(auth.profile)) throw new AppError('ERR_NO_PERMISSION');
}

export function assertSameTenant<T extends { tenantId: number }>(
  auth: AuthContext,
  row: T | null | undefined,
  notFound: ConstructorParameters<typeof AppError>[0],
): T {
  if (!row || row.tenantId !== auth.tenantId) throw new AppError(notFound);
  return row;
}

export const ADMIN_PROFILES = ['admin', 'superadmin'] as const satisfies readonly Profile[];
export const SUPERVISOR_PROFILES = ['super', 'admin', 'superadmin'] as const satisfies readonly Profile[];
export const SUPERADMIN_PROFILES = ['superadmin'] as const satisfies readonly Profile[];
