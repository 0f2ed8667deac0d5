import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import type {
  ChatUser,
  ChatUsersQuery,
  CreateUserInput,
  DesktopPurgePayload,
  DesktopPurgeResponse,
  UpdateUserConfigsInput,
  UpdateUserInput,
  UpdateUserOnlineInput,
  UserDeletePayload,
  UserListQuery,
  UserListResponse,
  UserProfile,
  UserStatusPayload,
  UserUpdatePayload,
} from '@shared/schemas/users';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { hashPassword } from '../../core/passwords';
import { SUPERVISOR_PROFILES } from '../../core/policy';
import { UserEntity, type EventAudience, type User } from '../../db/entities';
import { foreignKeyViolationOf, uniqueViolationOf } from '../../db/pg-errors';
import type { AppDeps } from '../../deps';
import {
  TENANT_ADMIN_PROFILES,
  authorizeUser,
  authorizeUserCreate,
  authorizeUserList,
  authorizeUserUpdate,
} from './users.policy';
import { presenceColumns, userStatusOf } from './presence';
import { USER_ROW_COLUMNS, presentChatUser, presentUser, type UserRow } from './users.presenter';

type UsersDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'sessions'>;

/** Administrative user events carry queues and settings: admins and supervisors only. */
const STAFF_PROFILES: readonly Profile[] = SUPERVISOR_PROFILES;
const STAFF_AUDIENCE: EventAudience = { scope: 'profiles', profiles: [...STAFF_PROFILES] };

/** Ticket statuses that keep a user from being deleted: someone is still being attended. */
const ACTIVE_TICKET_STATUSES = ['open', 'pending'];

const isTenantAdmin = (profile: Profile): boolean => TENANT_ADMIN_PROFILES.includes(profile);

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * Users: the tenant's list, creation within the plan's limit, administrative changes, deletion,
 * the internal-chat list, a profile, per-user UI configs and the online flag.
 *
 * Creation, update and deletion count users under the tenant row lock (SELECT ... FOR UPDATE),
 * so the plan's `maxUsers` and the "at least one administrator" rule hold under concurrent
 * requests; recording the domain event takes the same lock anyway. Update and deletion lock the
 * user row before the tenant row, the order every other writer of a user row follows (login,
 * online flag: row, then the event's tenant lock), so the two cannot deadlock.
 */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  /** GET /users: one page of the caller's tenant, in name order, with the total. */
  async list(auth: AuthContext, query: UserListQuery): Promise<UserListResponse> {
    authorizeUserList(auth);
    const params: unknown[] = [auth.tenantId];
    const where = [`"tenantId" = $1`];
    if (query.searchParam) {
      params.push(`%${escapeLike(query.searchParam)}%`);
      where.push(`(name ILIKE $${params.length} OR email ILIKE $${params.length})`);
    }
    const whereSql = where.join(' AND ');
    const offset = (query.pageNumber - 1) * query.pageSize;
    const ds = this.deps.dataSource;
    const [rows, counted] = await Promise.all([
      ds.query(
        `SELECT ${USER_ROW_COLUMNS} FROM users WHERE ${whereSql} ORDER BY lower(name), id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.pageSize, offset],
      ) as Promise<UserRow[]>,
      ds.query(`SELECT count(*)::int AS n FROM users WHERE ${whereSql}`, params) as Promise<{ n: number }[]>,
    ]);
    const count = counted[0]?.n ?? 0;
    return { users: rows.map(presentUser), count, hasMore: offset + rows.length < count };
  }

  /** GET /users/chat-privado: every colleague of the caller's tenant (not the caller), any profile. */
  async listForChat(auth: AuthContext, query: ChatUsersQuery): Promise<ChatUser[]> {
    const params: unknown[] = [auth.tenantId, auth.userId];
    let search = '';
    if (query.searchParam) {
      params.push(`%${escapeLike(query.searchParam)}%`);
      search = ` AND (name ILIKE $3 OR email ILIKE $3)`;
    }
    const rows: UserRow[] = await this.deps.dataSource.query(
      `SELECT id, name, email, profile, "isOnline", away, "lastOnline" FROM users
        WHERE "tenantId" = $1 AND id <> $2${search} ORDER BY lower(name), id`,
      params,
    );
    return rows.map(presentChatUser);
  }

  /**
   * POST /users: a user of the caller's tenant, with its user_tenants link, refused with
   * ERR_USER_LIMIT once the tenant has `maxUsers` users. The count runs under the tenant row
   * lock, so concurrent creations cannot overshoot the plan.
   */
  async create(auth: AuthContext, input: CreateUserInput): Promise<UserProfile> {
    authorizeUserCreate(auth, input.profile);
    // Hashing is slow: done before the transaction so no connection (nor the tenant lock) waits on it.
    const passwordHash = await hashPassword(input.password);
    return this.mapConstraintErrors(() =>
      this.deps.events.transaction(async (tx, emit) => {
        const tenant = await lockTenant(tx, auth.tenantId);
        await assertTenantOwns(tx, auth.tenantId, { queues: input.queues, allowedConnections: input.allowedConnections });
        const counted: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1`, [
          auth.tenantId,
        ]);
        if ((counted[0]?.n ?? 0) >= tenant.maxUsers) throw new AppError('ERR_USER_LIMIT');
        const inserted: UserRow[] = await tx.query(
          `INSERT INTO users ("tenantId", name, email, "passwordHash", profile, queues, "allowedConnections", "blockVoice")
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)
           RETURNING ${USER_ROW_COLUMNS}`,
          [
            auth.tenantId,
            input.name,
            input.email,
            passwordHash,
            input.profile,
            JSON.stringify(input.queues ?? []),
            JSON.stringify(input.allowedConnections ?? []),
            input.blockVoice ?? false,
          ],
        );
        const row = inserted[0]!;
        await tx.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [row.id, auth.tenantId]);
        const user = presentUser(row);
        const payload: UserUpdatePayload = { action: 'create', user };
        await emit(auth.tenantId, SOCKET_EVENTS.userUpdate, payload, STAFF_AUDIENCE);
        return user;
      }),
    );
  }

  /**
   * PUT /users/{id}. A new password or profile bumps the token version and revokes every session
   * of the user (their sockets are ended after the commit): a changed role must not keep acting
   * on the old one, and whoever knew the old password is out. The tenant keeps an administrator.
   */
  async update(auth: AuthContext, userId: number, input: UpdateUserInput): Promise<UserProfile> {
    // Checked once before hashing, so a caller without the right spends no bcrypt work;
    // checked again under the lock below, which is the check that counts.
    authorizeUserUpdate(auth, await this.findUser(this.deps.dataSource.manager, userId), input);
    const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
    const result = await this.mapConstraintErrors(() =>
      this.deps.events.transaction(async (tx, emit) => {
        const locked = await lockUser(tx, userId, 'FOR NO KEY UPDATE');
        await lockTenant(tx, auth.tenantId);
        const target = authorizeUserUpdate(auth, locked, input);
        await assertTenantOwns(tx, target.tenantId, { queues: input.queues, allowedConnections: input.allowedConnections });
        const profileChanged = input.profile !== undefined && input.profile !== target.profile;
        if (profileChanged && isTenantAdmin(target.profile) && !isTenantAdmin(input.profile!)) {
          await assertAnotherAdmin(tx, target);
        }
        const revoke = passwordHash !== undefined || profileChanged;
        const changes: QueryDeepPartialEntity<User> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.email !== undefined) changes.email = input.email;
        if (passwordHash !== undefined) changes.passwordHash = passwordHash;
        if (input.profile !== undefined) changes.profile = input.profile;
        if (input.queues !== undefined) changes.queues = input.queues;
        if (input.allowedConnections !== undefined) changes.allowedConnections = input.allowedConnections;
        if (input.blockVoice !== undefined) changes.blockVoice = input.blockVoice;
        if (revoke) changes.tokenVersion = () => '"tokenVersion" + 1';
        const updated = await this.updateOne(tx, target, changes);
        if (revoke) {
          await tx.query(
            `UPDATE auth_sessions SET "revokedAt" = $2, "revokedReason" = $3 WHERE "userId" = $1 AND "revokedAt" IS NULL`,
            [target.id, this.deps.clock.now(), passwordHash !== undefined ? 'password_change' : 'profile_change'],
          );
        }
        const user = presentUser(updated);
        const payload: UserUpdatePayload = { action: 'update', user };
        await emit(target.tenantId, SOCKET_EVENTS.userUpdate, payload, STAFF_AUDIENCE);
        // The user hears about their own row too, unless the staff audience already includes them.
        if (!STAFF_PROFILES.includes(updated.profile)) {
          await emit(target.tenantId, SOCKET_EVENTS.userUpdate, payload, { scope: 'user', userId: target.id });
        }
        return { user, revoke };
      }),
    );
    if (result.revoke) this.deps.sessions.endUserSessions(userId);
    return result.user;
  }

  /**
   * DELETE /users/{id}: refused while the user has open or pending tickets (someone is being
   * attended by them). Team memberships, wallets and sessions go with the row (ON DELETE
   * CASCADE); closed tickets, messages and notes keep their history with no user (SET NULL).
   */
  async remove(auth: AuthContext, userId: number): Promise<void> {
    await this.deps.events
      .transaction(async (tx, emit) => {
        // Refused callers take no lock at all.
        authorizeUser(auth, 'delete', await this.findUser(tx, userId));
        // FOR UPDATE waits for, then blocks, transactions assigning tickets to this user (their
        // foreign key takes a share lock on the row), so the ticket count below cannot miss one.
        const locked = await lockUser(tx, userId, 'FOR UPDATE');
        await lockTenant(tx, auth.tenantId);
        const target = authorizeUser(auth, 'delete', locked);
        if (isTenantAdmin(target.profile)) await assertAnotherAdmin(tx, target);
        const active: { n: number }[] = await tx.query(
          `SELECT count(*)::int AS n FROM tickets WHERE "tenantId" = $1 AND "userId" = $2 AND status = ANY($3::varchar[])`,
          [target.tenantId, target.id, ACTIVE_TICKET_STATUSES],
        );
        const openTickets = active[0]?.n ?? 0;
        if (openTickets > 0) {
          const count =
            openTickets === 1 ? '1 atendimento aberto ou pendente' : `${openTickets} atendimentos abertos ou pendentes`;
          throw new AppError('ERR_USER_DELETE', { message: `Não é possível deletar o usuário: ele possui ${count}.` });
        }
        await tx.query(`DELETE FROM users WHERE id = $1 AND "tenantId" = $2`, [target.id, target.tenantId]);
        const payload: UserDeletePayload = { action: 'delete', id: target.id };
        await emit(target.tenantId, SOCKET_EVENTS.userDelete, payload, { scope: 'tenant' });
      })
      .catch((err: unknown) => {
        // A table added later that references users without CASCADE / SET NULL: refuse, don't 500.
        if (foreignKeyViolationOf(err) !== undefined) throw new AppError('ERR_USER_DELETE');
        throw err;
      });
    this.deps.sessions.endUserSessions(userId);
  }

  /**
   * POST /users/{id}/desktop-purge: records `desktop:purge` for that user only. Their desktop
   * consoles wipe the local cache when they apply it: live on the socket, or from GET /sync when
   * they come back online (issue #15). Nothing of the user's row changes; the answer carries the
   * event's seq (read under the tenant row lock the event took, so it is this event's).
   */
  async purgeDesktop(auth: AuthContext, userId: number): Promise<DesktopPurgeResponse> {
    return this.deps.events.transaction(async (tx, emit) => {
      const target = authorizeUser(auth, 'desktopPurge', await this.findUser(tx, userId));
      const payload: DesktopPurgePayload = { userId: target.id, reason: target.id === auth.userId ? 'self' : 'admin' };
      await emit(target.tenantId, SOCKET_EVENTS.desktopPurge, payload, { scope: 'user', userId: target.id });
      const rows: { seq: string }[] = await tx.query(`SELECT "eventSeq" AS seq FROM tenants WHERE id = $1`, [target.tenantId]);
      return { purged: true, seq: Number(rows[0]!.seq) };
    });
  }

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

  /**
   * Sets the online flag (online, not away; or offline) and its time; the whole tenant sees the
   * status. The sockets' own presence (realtime/presence.ts) takes over at their next report.
   */
  async updateOnlineStatus(auth: AuthContext, userId: number, input: UpdateUserOnlineInput): Promise<UserProfile> {
    return this.deps.events.transaction(async (tx, emit) => {
      const target = authorizeUser(auth, 'updateOnlineStatus', await tx.getRepository(UserEntity).findOneBy({ id: userId }));
      const updated = await this.updateOne(tx, target, {
        ...presenceColumns(input.isOnline ? 'online' : 'offline'),
        lastOnline: this.deps.clock.now(),
      });
      const user = presentUser(updated);
      const payload: UserStatusPayload = userStatusOf(user.id, user.presence, user.lastOnline);
      await emit(target.tenantId, SOCKET_EVENTS.userStatus, payload, { scope: 'tenant' });
      return user;
    });
  }

  private async findUser(manager: EntityManager, userId: number): Promise<User | null> {
    return manager.getRepository(UserEntity).findOneBy({ id: userId });
  }

  /**
   * Constraint failures become this module's answers, so a race between two writers ends like
   * the checked path: a taken e-mail is 409 (the unique index decides, not a prior SELECT), and
   * a deleted row that something still references is ERR_USER_DELETE.
   */
  private async mapConstraintErrors<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (uniqueViolationOf(err) === 'users_email_lower_uq') {
        throw new AppError('ERR_EMAIL_ALREADY_EXISTS', {
          fields: [{ path: 'email', message: 'já existe um usuário com este e-mail' }],
        });
      }
      throw err;
    }
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

/** Loads a user row and locks it (see UsersService for the lock order); null when it is gone. */
async function lockUser(tx: EntityManager, userId: number, mode: 'FOR UPDATE' | 'FOR NO KEY UPDATE'): Promise<User | null> {
  const rows: User[] = await tx.query(`SELECT * FROM users WHERE id = $1 ${mode}`, [userId]);
  return rows[0] ?? null;
}

/** Takes the tenant row lock (see UsersService) and answers the tenant's plan limit. */
async function lockTenant(tx: EntityManager, tenantId: number): Promise<{ maxUsers: number }> {
  const rows: { maxUsers: number }[] = await tx.query(`SELECT "maxUsers" FROM tenants WHERE id = $1 FOR UPDATE`, [tenantId]);
  if (!rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
  return rows[0];
}

/** Refuses leaving the tenant without an administrator (call with the tenant row locked). */
async function assertAnotherAdmin(tx: EntityManager, target: Pick<User, 'id' | 'tenantId'>): Promise<void> {
  const rows: { n: number }[] = await tx.query(
    `SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1 AND id <> $2 AND profile = ANY($3::varchar[])`,
    [target.tenantId, target.id, TENANT_ADMIN_PROFILES],
  );
  if ((rows[0]?.n ?? 0) === 0) throw new AppError('ERR_LAST_ADMIN');
}

const OWNED_ID_TABLES = {
  queues: { table: 'queues', label: 'filas não encontradas nesta empresa' },
  allowedConnections: { table: 'channels', label: 'conexões não encontradas nesta empresa' },
} as const;

/**
 * Every queue / channel id must be one of the tenant's. An unknown id and another tenant's id
 * get the same answer, so nothing is learnt about other tenants.
 */
async function assertTenantOwns(
  tx: EntityManager,
  tenantId: number,
  lists: Partial<Record<keyof typeof OWNED_ID_TABLES, number[]>>,
): Promise<void> {
  const fields: { path: string; message: string }[] = [];
  for (const [field, ids] of Object.entries(lists) as [keyof typeof OWNED_ID_TABLES, number[] | undefined][]) {
    if (!ids?.length) continue;
    const { table, label } = OWNED_ID_TABLES[field];
    const found: { id: number }[] = await tx.query(`SELECT id FROM ${table} WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [
      tenantId,
      ids,
    ]);
    const known = new Set(found.map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) fields.push({ path: field, message: `${label}: ${missing.join(', ')}` });
  }
  if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
}
