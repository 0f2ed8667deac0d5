import type { Middleware } from 'koa';
import type { DataSource } from 'typeorm';
import type { Profile } from '@shared/profiles';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppState } from '../../http/context';
import { reachableWhileOverdue } from '../payments/overdue-block';
import { verifyAccessToken } from './tokens';

interface SessionRow {
  revokedAt: Date | null;
  sessionVersion: number;
  tokenVersion: number;
  profile: Profile;
  email: string;
  tenantId: number;
  tenantStatus: string;
  overdueBlocked: boolean;
  expiresAt: Date;
}

/**
 * Resolves a bearer access token into an AuthContext. One query per request checks that the
 * session is not revoked (logout, password change, refresh-token replay), reads the user's
 * current profile (role changes apply at once) and the tenant's status.
 */
export async function authenticate(dataSource: DataSource, secret: string, token: string | undefined): Promise<AuthContext> {
  return (await authenticateSession(dataSource, secret, token)).auth;
}

/** authenticate(), plus whether the caller's tenant is blocked for an overdue charge. */
async function authenticateSession(
  dataSource: DataSource,
  secret: string,
  token: string | undefined,
): Promise<{ auth: AuthContext; overdueBlocked: boolean }> {
  if (!token) throw new AppError('ERR_INVALID_TOKEN');
  const claims = verifyAccessToken(secret, token);
  const rows: SessionRow[] = await dataSource.query(
    `SELECT s."revokedAt", s."tokenVersion" AS "sessionVersion", u."tokenVersion", u.profile, u.email,
            u."tenantId", t.status AS "tenantStatus", t."overdueBlocked", s."expiresAt"
       FROM auth_sessions s
       JOIN users u ON u.id = s."userId"
       JOIN tenants t ON t.id = u."tenantId"
      WHERE s.id = $1 AND s."userId" = $2`,
    [claims.sid, Number(claims.sub)],
  );
  const row = rows[0];
  if (!row || row.revokedAt || row.sessionVersion !== row.tokenVersion) throw new AppError('ERR_INVALID_TOKEN');
  // A support access ends at its session's end whatever the token says (issue #17, part 10).
  if (claims.sup && new Date(row.expiresAt).getTime() <= Date.now()) throw new AppError('ERR_SESSION_EXPIRED');
  if (row.tenantStatus !== 'active' && row.profile !== 'superadmin') throw new AppError('ERR_TENANT_INACTIVE');
  return {
    auth: { tenantId: row.tenantId, userId: Number(claims.sub), profile: row.profile, email: row.email, sessionId: claims.sid },
    // The platform tenant (the super administrator's) is never blocked (payments/overdue.ts).
    overdueBlocked: row.overdueBlocked,
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

export function requireAuth(dataSource: DataSource, secret: string): Middleware<AppState> {
  return async (ctx, next) => {
    const { auth, overdueBlocked } = await authenticateSession(dataSource, secret, bearerToken(ctx.get('authorization')));
    // A tenant blocked for an overdue charge reaches only its blocked menu (payments/overdue-block.ts).
    if (overdueBlocked && !reachableWhileOverdue(ctx.method, ctx.path)) throw new AppError('ERR_ASAAS_OVERDUE');
    ctx.state.auth = auth;
    await next();
  };
}
