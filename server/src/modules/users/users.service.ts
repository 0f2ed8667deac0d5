import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type {
  UpdateUserConfigsInput,
  UpdateUserOnlineInput,
  UserProfile,
  UserStatusPayload,
  UserUpdatePayload,
} from '@shared/schemas/users';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { UserEntity, type User } from '../../db/entities';
import type { AppDeps } from '../../deps';
import { authorizeUser } from './users.policy';
import { presentUser } from './users.presenter';

type UsersDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock'>;

/** Users: reading a profile, per-user UI configs and the online flag. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  async getProfile(auth: AuthContext, userId: number): Promise<UserProfile> {
    const user = await this.deps.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    return presentUser(authorizeUser(auth, 'read', user));
  }

  /**
   * Merges the given keys into users.configs in one statement (`||` on jsonb), so two devices
   * saving different keys at once do not overwrite each other. The user hears it on their room.
   */
  async updateConfigs(auth: AuthContext, userId: number, input: UpdateUserConfigsInput): Promise<UserProfile> {
    return this.deps.events.transaction(async (tx, emit) => {
      const target = authorizeUser(auth, 'updateConfigs', await tx.getRepository(UserEntity).findOneBy({ id: userId }));
      const patch: Record<string, unknown> = {};
      if (input.filtrosAtendimento !== undefined) patch.filtrosAtendimento = input.filtrosAtendimento;
      if (input.isDark !== undefined) patch.isDark = input.isDark;
      const updated = await this.updateOne(
        tx,
        target,
        { configs: () => `configs || CAST(:patch AS jsonb)` },
        { patch: JSON.stringify(patch) },
      );
      const user = presentUser(updated);
      const payload: UserUpdatePayload = { action: 'update', user };
      await emit(target.tenantId, SOCKET_EVENTS.userUpdate, payload, { scope: 'user', userId: target.id });
      return user;
    });
  }

  /** Sets the online flag and its time; the whole tenant sees the status change. */
  async updateOnlineStatus(auth: AuthContext, userId: number, input: UpdateUserOnlineInput): Promise<UserProfile> {
    return this.deps.events.transaction(async (tx, emit) => {
      const target = authorizeUser(auth, 'updateOnlineStatus', await tx.getRepository(UserEntity).findOneBy({ id: userId }));
      const updated = await this.updateOne(tx, target, { isOnline: input.isOnline, lastOnline: this.deps.clock.now() });
      const user = presentUser(updated);
      const payload: UserStatusPayload = { userId: user.id, isOnline: user.isOnline, lastOnline: user.lastOnline };
      await emit(target.tenantId, SOCKET_EVENTS.userStatus, payload, { scope: 'tenant' });
      return user;
    });
  }

  /** One UPDATE of the target row (still scoped by its tenant) answering the updated row. */
  private async updateOne(
    tx: EntityManager,
    target: User,
    changes: QueryDeepPartialEntity<User>,
    parameters: Record<string, unknown> = {},
  ): Promise<User> {
    const result = await tx
      .createQueryBuilder()
      .update(UserEntity)
      .set(changes)
      .setParameters(parameters)
      .where('id = :id AND "tenantId" = :tenantId', { id: target.id, tenantId: target.tenantId })
      .returning('*')
      .execute();
    const row = (result.raw as User[])[0];
    if (!row) throw new AppError('ERR_NO_USER_FOUND');
    return row;
  }
}
