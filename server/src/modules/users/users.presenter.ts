import type { Profile } from '@shared/profiles';
import type { ChatUser, UserProfile, UserTenantDto } from '@shared/schemas/users';
import type { User } from '../../db/entities';
import { presenceOf } from './presence';

/** A user row as the presenter needs it; queries select exactly these columns (no secrets). */
export type UserRow = Omit<User, 'passwordHash' | 'tokenVersion'>;

/** The columns of UserRow, for raw SQL: the password hash and token version are never read. */
export const USER_ROW_COLUMNS = `id, "tenantId", name, email, profile, queues, "allowedConnections", "blockVoice", "isOnline",
  away, "lastOnline", configs, "createdAt", "updatedAt"`;

const isoOrNull = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/** The one shape a user leaves the server in: never the password hash nor the token version. */
export function presentUser(user: UserRow): UserProfile {
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
    presence: presenceOf(user),
    lastOnline: isoOrNull(user.lastOnline),
    configs: {
      filtrosAtendimento: (configs.filtrosAtendimento as UserProfile['configs']['filtrosAtendimento']) ?? null,
      isDark: configs.isDark === true,
    },
  };
}

/** What the internal chat shows of a colleague: no queues, channels or settings. */
export function presentChatUser(user: Pick<User, 'id' | 'name' | 'email' | 'profile' | 'isOnline' | 'away' | 'lastOnline'>): ChatUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    isOnline: user.isOnline,
    presence: presenceOf(user),
    lastOnline: isoOrNull(user.lastOnline),
  };
}

/** A user_tenants row joined with its user and tenant (see user-tenants.service.ts). */
export interface UserTenantRow {
  id: number;
  userId: number;
  tenantId: number;
  createdAt: Date;
  homeTenantId: number;
  userName: string;
  userEmail: string;
  userProfile: Profile;
  tenantName: string;
}

export function presentUserTenant(row: UserTenantRow): UserTenantDto {
  return {
    id: row.id,
    userId: row.userId,
    tenantId: row.tenantId,
    home: row.homeTenantId === row.tenantId,
    createdAt: new Date(row.createdAt).toISOString(),
    user: { id: row.userId, name: row.userName, email: row.userEmail, profile: row.userProfile },
    tenant: { id: row.tenantId, name: row.tenantName },
  };
}
