import type { AdminUserDto, AdminUserListQuery, AdminUserListResponse } from '@shared/schemas/admin-tenants';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { tenantAdminPolicy } from './admin-tenants.policy';

const PAGE_SIZE = 50;

/**
 * GET /admin/users (anchor path): the users of every tenant for the super administrator's
 * /usuariotenants screen, filtered by tenant (home tenant or a linked one) and by name/e-mail,
 * each with the tenants it is linked to (linking and unlinking go through /userTenants).
 */
export class AdminUsersService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource'>) {}

  async list(auth: AuthContext, query: AdminUserListQuery): Promise<AdminUserListResponse> {
    tenantAdminPolicy.manage(auth);
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.tenantId) {
      params.push(query.tenantId);
      where.push(`(u."tenantId" = $${params.length} OR EXISTS (SELECT 1 FROM user_tenants x WHERE x."userId" = u.id AND x."tenantId" = $${params.length}))`);
    }
    if (query.searchParam) {
      params.push(`%${query.searchParam.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(lower(u.name) LIKE $${params.length} OR lower(u.email) LIKE $${params.length})`);
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const offset = (query.pageNumber - 1) * PAGE_SIZE;
    const [rows, counted] = await Promise.all([
      this.deps.dataSource.query(
        `SELECT u.id, u.name, u.email, u.profile, u."tenantId", t.name AS "tenantName",
                COALESCE((SELECT json_agg(json_build_object('linkId', ut.id, 'tenantId', ut."tenantId", 'tenantName', lt.name) ORDER BY ut."tenantId")
                            FROM user_tenants ut JOIN tenants lt ON lt.id = ut."tenantId" WHERE ut."userId" = u.id), '[]'::json) AS "linkedTenants"
           FROM users u JOIN tenants t ON t.id = u."tenantId"
           ${whereSql}
          ORDER BY lower(u.name), u.id LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
        params,
      ) as Promise<AdminUserDto[]>,
      this.deps.dataSource.query(`SELECT count(*)::int AS n FROM users u ${whereSql}`, params) as Promise<{ n: number }[]>,
    ]);
    const count = counted[0]?.n ?? 0;
    return { users: rows, count, hasMore: offset + rows.length < count };
  }
}
