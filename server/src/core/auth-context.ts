import type { Profile } from '@shared/profiles';

/** Who is calling. Every service method takes it first (ARCHITECTURE: Tenancy). */
export interface AuthContext {
  tenantId: number;
  userId: number;
  profile: Profile;
  email: string;
  sessionId: string;
}
