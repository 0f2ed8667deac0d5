import type { EntityManager } from 'typeorm';
import type {
  CreateUserTenantInput,
  DeleteUserTenantInput,
  UpdateUserTenantInput,
  UserTenantDto,
  UserTenantListQuery,
  UserTenantListResponse,
} from '@shared/schemas/users';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { uniqueViolationOf } from '../../db/pg-errors';
import type { AppDeps } from '../../deps';
import { assertNotHomeLink, authorizeUserTenantWrite, userTenantListScope } from './user-tenants.policy';
import { presentUserTenant, type UserTenantRow } from './users.presenter';

/** A link with its user (and that user's own tenant) and its tenant, as the presenter wants it. */
const LINK_SELECT = `
  SELECT ut.id, ut."userId", ut."tenantId", ut."createdAt", u."tenantId" AS "homeTenantId",
         u.name AS "userName", u.email AS "userEmail", u.profile AS "userProfile", t.name AS "tenantName"
    FROM user_tenants ut
    JOIN users u ON u.id = ut."userId"
    JOIN tenants t ON t.id = ut."tenantId"`;

/**
 * User-tenant links: which tenants a user belongs to. Every user has the link to their own
 * tenant (written with the user); the platform super administrator links users to more tenants.
 */
export class UserTenantsService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource'>) {}

  async list(auth: AuthContext, query: UserTenantListQuery): Promise<UserTenantListResponse> {
    const scope = userTenantListScope(auth, query.tenantId);
    if (scope.empty) return { userTenants: [], count: 0, hasMore: false };
    const params: unknown[] = [];
    const where: string[] = [];
    if (scope.tenantId !== undefined) {
      params.push(scope.tenantId);
      where.push(`ut."tenantId" = $${params.length}`);
    }
    if (query.userId !== undefined) {
      params.push(query.userId);
      where.push(`ut."userId" = $${params.length}`);
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const offset = (query.pageNumber - 1) * query.pageSize;
    const ds = this.deps.dataSource;
    const [rows, counted] = await Promise.all([
      ds.query(`${LINK_SELECT} ${whereSql} ORDER BY ut.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
        ...params,
        query.pageSize,
        offset,
      ]) as Promise<UserTenantRow[]>,
      ds.query(`SELECT count(*)::int AS n FROM user_tenants ut ${whereSql}`, params) as Promise<{ n: number }[]>,
    ]);
    const count = counted[0]?.n ?? 0;
    return { userTenants: rows.map(presentUserTenant), count, hasMore: offset + rows.length < count };
  }

  /** POST /userTenants: links an existing user to another existing tenant. */
  async create(auth: AuthContext, input: CreateUserTenantInput): Promise<UserTenantDto> {
    authorizeUserTenantWrite(auth);
    return this.deps.dataSource.transaction(async (tx) => {
      const users: { id: number }[] = await tx.query(`SELECT id FROM users WHERE id = $1`, [input.userId]);
      if (!users[0]) throw new AppError('ERR_NO_USER_FOUND');
      await assertTenantExists(tx, input.tenantId);
      const inserted: { id: number }[] = await tx.query(
        `INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2) ON CONFLICT ("userId", "tenantId") DO NOTHING RETURNING id`,
        [input.userId, input.tenantId],
      );
      if (!inserted[0]) throw new AppError('ERR_USER_TENANT_EXISTS');
      return presentUserTenant(await loadLink(tx, inserted[0].id));
    });
  }

  /** PUT /userTenants/{id}: moves a link (never the user's own-tenant link) to another tenant. */
  async update(auth: AuthContext, id: number, input: UpdateUserTenantInput): Promise<UserTenantDto> {
    authorizeUserTenantWrite(auth);
    try {
      return await this.deps.dataSource.transaction(async (tx) => {
        const link = await loadLink(tx, id);
        assertNotHomeLink(link);
        if (link.tenantId === input.tenantId) return presentUserTenant(link);
        await assertTenantExists(tx, input.tenantId);
        await tx.query(`UPDATE user_tenants SET "tenantId" = $2 WHERE id = $1`, [id, input.tenantId]);
        return presentUserTenant(await loadLink(tx, id));
      });
    } catch (err) {
      // The user is already linked to that tenant (UNIQUE ("userId", "tenantId")).
      if (uniqueViolationOf(err) !== undefined) throw new AppError('ERR_USER_TENANT_EXISTS');
      throw err;
    }
  }

  /**
   * DELETE /userTenants/{id}: the body names the link's tenant, so a stale screen cannot remove
   * a link that was meanwhile moved elsewhere; a mismatch is "not found".
   */
  async remove(auth: AuthContext, id: number, input: DeleteUserTenantInput): Promise<void> {
    authorizeUserTenantWrite(auth);
    await this.deps.dataSource.transaction(async (tx) => {
      const link = await loadLink(tx, id);
      if (link.tenantId !== input.tenantId) throw new AppError('ERR_NO_USER_TENANT_FOUND');
      assertNotHomeLink(link);
      await tx.query(`DELETE FROM user_tenants WHERE id = $1 AND "tenantId" = $2`, [id, input.tenantId]);
    });
  }
}

async function loadLink(tx: EntityManager, id: number): Promise<UserTenantRow> {
  const rows: UserTenantRow[] = await tx.query(`${LINK_SELECT} WHERE ut.id = $1 FOR UPDATE OF ut`, [id]);
  if (!rows[0]) throw new AppError('ERR_NO_USER_TENANT_FOUND');
  return rows[0];
}

async function assertTenantExists(tx: EntityManager, tenantId: number): Promise<void> {
  const rows: { id: number }[] = await tx.query(`SELECT id FROM tenants WHERE id = $1`, [tenantId]);
  if (!rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
}
