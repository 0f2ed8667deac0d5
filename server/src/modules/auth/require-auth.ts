import type { Middleware } from 'koa';
import type { DataSource } from 'typeorm';
import type { Profile } from '@shared/profiles';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppState } from '../../http/context';
import { verifyAccessToken } from './tokens';

interface SessionRow {
  revokedAt: Date | null;
  sessionVersion: number;
  tokenVersion: number;
  profile: Profile;
  email: string;
  tenantId: number;
  tenantStatus: string;
}

/**
 * Resolves a bearer access token into an AuthContext. One query per request checks that the
 * session is not revoked (logout, password change, refresh-token replay), reads the user's
 * current profile (role changes apply at once) and the tenant's status.
 */
export async function authenticate(dataSource: DataSource, secret: string, token: string | undefined): Promise<AuthContext> {
  if (!token) throw new AppError('ERR_INVALID_TOKEN');
  const claims = verifyAccessToken(secret, token);
  const rows: SessionRow[] = await dataSource.query(
    `SELECT s."revokedAt", s."tokenVersion" AS "sessionVersion", u."tokenVersion", u.profile, u.email,
            u."tenantId", t.status AS "tenantStatus"
       FROM auth_sessions s
       JOIN users u ON u.id = s."userId"
       JOIN tenants t ON t.id = u."tenantId"
      WHERE s.id = $1 AND s."userId" = $2`,
    [claims.sid, Number(claims.sub)],
  );
  const row = rows[0];
  if (!row || row.revokedAt || row.sessionVersion !== row.tokenVersion) throw new AppError('ERR_INVALID_TOKEN');
  if (row.tenantStatus !== 'active' && row.profile !== 'superadmin') throw new AppError('ERR_TENANT_INACTIVE');
  return { tenantId: row.tenantId, userId: Number(claims.sub), profile: row.profile, email: row.email, sessionId: claims.sid };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

export function requireAuth(dataSource: DataSource, secret: string): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.auth = await authenticate(dataSource, secret, bearerToken(ctx.get('authorization')));
    await next();
  };
}
