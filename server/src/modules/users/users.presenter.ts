import type { UserProfile } from '@shared/schemas/users';
import type { User } from '../../db/entities';

/** The one shape a user leaves the server in: never the password hash nor the token version. */
export function presentUser(user: User): UserProfile {
  const queues = (user.queues ?? []).map(Number);
  const allowedConnections = (user.allowedConnections ?? []).map(Number);
  const configs = (user.configs ?? {}) as User['configs'];
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    tenantId: user.tenantId,
    queues,
    allowedConnections,
    whatsappAllowed: allowedConnections,
    blockVoice: user.blockVoice,
    blockWavoip: user.blockVoice,
    isOnline: user.isOnline,
    lastOnline: user.lastOnline ? new Date(user.lastOnline).toISOString() : null,
    configs: {
      filtrosAtendimento: (configs.filtrosAtendimento as UserProfile['configs']['filtrosAtendimento']) ?? null,
      isDark: configs.isDark === true,
    },
  };
}
