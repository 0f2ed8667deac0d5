import type { Profile } from '@shared/profiles';
import { useAppSelector } from '../store-hooks';

/**
 * Who may write what (docs/api.md, CRM catalogues; spec section 6): every profile reads the
 * catalogs; supervisors and administrators write them; settings and users are for
 * administrators. The UI only hides what would be refused: the server still decides.
 */
export function canWriteCatalogs(profile: Profile | null): boolean {
  return profile === 'super' || profile === 'admin' || profile === 'superadmin';
}

export function canAdministrate(profile: Profile | null): boolean {
  return profile === 'admin' || profile === 'superadmin';
}

export function useWriteAccess(): { canWrite: boolean; canAdmin: boolean } {
  const profile = useAppSelector((state) => state.session.profile);
  return { canWrite: canWriteCatalogs(profile), canAdmin: canAdministrate(profile) };
}
