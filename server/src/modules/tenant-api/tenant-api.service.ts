import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type {
  CreatedTenantApiTokenView,
  CreateTenantApiTokenInput,
  TenantApiTokenView,
  TenantOptionView,
} from '@shared/schemas/platform-ops';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';

/** Tokens start with this tag, so a leaked one is recognisable (secret scanners, logs). */
export const TENANT_API_TOKEN_TAG = 'atk_';
/** Characters of a token kept in clear to tell tokens apart on the list. */
const PREFIX_LENGTH = TENANT_API_TOKEN_TAG.length + 8;

export const hashApiToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

const SELECT = `SELECT k.id, k."tenantId", t.name AS "tenantName", k.name, k."tokenPrefix", k."createdAt", k."revokedAt"
                  FROM tenant_api_tokens k JOIN tenants t ON t.id = k."tenantId"`;

function present(row: any): TenantApiTokenView {
  return {
    id: row.id,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    name: row.name,
    tokenPrefix: row.tokenPrefix,
    createdAt: new Date(row.createdAt).toISOString(),
    revokedAt: row.revokedAt ? new Date(row.revokedAt).toISOString() : null,
  };
}

/**
 * The tenant whose API a bearer token opens, or null (unknown or revoked). Only the token's
 * SHA-256 is stored, so the lookup hashes what the caller sent; for the external API.
 */
export async function tenantOfApiToken(
  dataSource: DataSource,
  token: string,
): Promise<{ tenantId: number; tokenId: number } | null> {
  if (!token.startsWith(TENANT_API_TOKEN_TAG)) return null;
  const [row] = await dataSource.query(
    `SELECT id, "tenantId" FROM tenant_api_tokens WHERE "tokenHash" = $1 AND "revokedAt" IS NULL`,
    [hashApiToken(token)],
  );
  return row ? { tenantId: row.tenantId, tokenId: row.id } : null;
}

/**
 * /tenantApi: the super administrator lists, creates (for a tenant) and revokes the API tokens
 * of every tenant (spec section 3 "Tenant API: id, API token"). A token is shown once, in the
 * answer to its creation; the database keeps its hash and a short prefix.
 */
export class TenantApiService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'logger'>) {}

  async list(filter: { tenantId?: number }): Promise<TenantApiTokenView[]> {
    const rows = await this.deps.dataSource.query(
      `${SELECT} WHERE ($1::int IS NULL OR k."tenantId" = $1) ORDER BY k."revokedAt" IS NOT NULL, k.id DESC`,
      [filter.tenantId ?? null],
    );
    return rows.map(present);
  }

  async tenants(): Promise<TenantOptionView[]> {
    return this.deps.dataSource.query(`SELECT id, name FROM tenants ORDER BY name, id`);
  }

  async create(auth: AuthContext, input: CreateTenantApiTokenInput): Promise<CreatedTenantApiTokenView> {
    const token = `${TENANT_API_TOKEN_TAG}${randomBytes(32).toString('base64url')}`;
    const [inserted] = await this.deps.dataSource.query(
      `INSERT INTO tenant_api_tokens ("tenantId", name, "tokenHash", "tokenPrefix", "createdBy")
       SELECT t.id, $2, $3, $4, $5 FROM tenants t WHERE t.id = $1 RETURNING id`,
      [input.tenantId, input.name, hashApiToken(token), token.slice(0, PREFIX_LENGTH), auth.userId],
    );
    if (!inserted) throw new AppError('ERR_NO_TENANT_FOUND');
    this.deps.logger.info({ tokenId: inserted.id, tenantId: input.tenantId, by: auth.userId }, 'tenant API token created');
    return { ...(await this.get(inserted.id)), token };
  }

  /** Revoking twice answers the same revoked token (the first revocation's time). */
  async revoke(auth: AuthContext, id: number): Promise<TenantApiTokenView> {
    const [row] = await this.deps.dataSource.query(
      `UPDATE tenant_api_tokens SET "revokedAt" = COALESCE("revokedAt", now()) WHERE id = $1 RETURNING id`,
      [id],
    );
    if (!row) throw new AppError('ERR_NO_API_CONFIG');
    this.deps.logger.info({ tokenId: id, by: auth.userId }, 'tenant API token revoked');
    return this.get(id);
  }

  private async get(id: number): Promise<TenantApiTokenView> {
    const [row] = await this.deps.dataSource.query(`${SELECT} WHERE k.id = $1`, [id]);
    if (!row) throw new AppError('ERR_NO_API_CONFIG');
    return present(row);
  }
}
