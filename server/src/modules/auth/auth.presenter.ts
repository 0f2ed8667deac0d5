import type { Profile } from '@shared/profiles';
import type { LoginResponse, RefreshTokenResponse } from '@shared/schemas/auth';
import type { User } from '../../db/entities';

export type UserForLogin = Pick<
  User,
  'id' | 'tenantId' | 'name' | 'email' | 'profile' | 'queues' | 'allowedConnections' | 'blockVoice' | 'configs'
>;

/** The login answer of spec section 3, field for field (the client stores it as `usuario`). */
export function presentLogin(user: UserForLogin, token: string, refreshToken: string): LoginResponse {
  const configs = user.configs ?? {};
  return {
    token,
    refreshToken,
    username: user.name,
    profile: user.profile,
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    queues: user.queues ?? [],
    blockWavoip: user.blockVoice,
    whatsappAllowed: user.allowedConnections ?? [],
    configs: { filtrosAtendimento: configs.filtrosAtendimento ?? null, isDark: configs.isDark ?? false },
  };
}

export function presentRefresh(
  user: { userId: number; tenantId: number; name: string; profile: Profile },
  token: string,
  refreshToken: string,
): RefreshTokenResponse {
  return { token, refreshToken, username: user.name, profile: user.profile, userId: user.userId, tenantId: user.tenantId };
}
