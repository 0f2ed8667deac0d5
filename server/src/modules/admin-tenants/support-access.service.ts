import { randomUUID } from 'node:crypto';
import {
  SUPPORT_ACCESS_MINUTES,
  type StartSupportInput,
  type SupportAccessResponse,
  type SupportSessionDto,
} from '@shared/schemas/admin-tenants';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import type { AppDeps } from '../../deps';
import { signAccessToken } from '../auth/tokens';
import { tenantAdminPolicy } from './admin-tenants.policy';

export const SUPPORT_EXPIRE_JOB = 'support-session-expire';

interface SupportRow {
  id: number;
  tenantId: number;
  tenantName: string;
  superadminId: number | null;
  superadminName: string;
  actingUserId: number | null;
  authSessionId: string;
  reason: string;
  startedAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: string | null;
}

const SUPPORT_SELECT = `
  SELECT s.id, s."tenantId", t.name AS "tenantName", s."superadminId", s."superadminName", s."actingUserId",
         s."authSessionId", s.reason, s."startedAt", s."expiresAt", s."endedAt", s."endReason"
    FROM support_sessions s JOIN tenants t ON t.id = s."tenantId"`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function present(row: SupportRow, now: Date): SupportSessionDto {
  // An access whose time ran out is shown as ended even before the expiry job has recorded it.
  const expired = !row.endedAt && new Date(row.expiresAt).getTime() <= now.getTime();
  return {
    id: row.id,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    superadminId: row.superadminId,
    superadminName: row.superadminName,
    actingUserId: row.actingUserId,
    reason: row.reason,
    startedAt: iso(row.startedAt)!,
    expiresAt: iso(row.expiresAt)!,
    endedAt: expired ? iso(row.expiresAt) : iso(row.endedAt),
    endReason: expired ? 'expired' : row.endReason,
  };
}

/**
 * Support access (issue #17, part 10): the platform super administrator enters a tenant as its
 * administrator for SUPPORT_ACCESS_MINUTES. The access is an auth session of the tenant's first
 * administrator that expires with it, a token carrying the `sup` marker (session and superadmin
 * ids), no refresh token (it cannot outlive its end), and a support_sessions row recording who,
 * which tenant, why, when it started and ended. Ending it (exit, expiry) revokes the session
 * and cuts its sockets.
 */
export class SupportAccessService {
  constructor(private readonly deps: AppDeps) {}

  async start(auth: AuthContext, tenantId: number, input: StartSupportInput, meta: { ip: string | null }): Promise<SupportAccessResponse> {
    tenantAdminPolicy.manage(auth);
    if (tenantId === PLATFORM_TENANT_ID) throw new AppError('ERR_SUPPORT_NOT_ALLOWED');
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SUPPORT_ACCESS_MINUTES * 60_000);
    const authSessionId = randomUUID();
    const { supportId, admin } = await this.deps.dataSource.transaction(async (tx) => {
      const tenants: { status: string }[] = await tx.query(`SELECT status FROM tenants WHERE id = $1`, [tenantId]);
      if (!tenants[0]) throw new AppError('ERR_NO_TENANT_FOUND');
      if (tenants[0].status !== 'active') throw new AppError('ERR_SUPPORT_NOT_ALLOWED');
      const admins: {
        id: number;
        name: string;
        email: string;
        tokenVersion: number;
        queues: number[];
        allowedConnections: number[];
        blockVoice: boolean;
        configs: Record<string, unknown>;
      }[] = await tx.query(
        `SELECT id, name, email, "tokenVersion", queues, "allowedConnections", "blockVoice", configs
           FROM users WHERE "tenantId" = $1 AND profile = 'admin' ORDER BY id LIMIT 1`,
        [tenantId],
      );
      const admin = admins[0];
      if (!admin) throw new AppError('ERR_SUPPORT_NO_ADMIN');
      const me: { name: string }[] = await tx.query(`SELECT name FROM users WHERE id = $1`, [auth.userId]);
      await tx.query(
        `INSERT INTO auth_sessions (id, "tenantId", "userId", "tokenVersion", "userAgent", ip, "expiresAt", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [authSessionId, tenantId, admin.id, admin.tokenVersion, `support:${auth.userId}`, meta.ip, expiresAt, now],
      );
      const [row]: { id: number }[] = await tx.query(
        `INSERT INTO support_sessions ("tenantId", "superadminId", "superadminName", "actingUserId", "authSessionId", reason, "startedAt", "expiresAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [tenantId, auth.userId, me[0]?.name ?? auth.email, admin.id, authSessionId, input.reason, now, expiresAt],
      );
      return { supportId: row!.id, admin };
    });
    await this.deps.jobs.enqueue(
      SUPPORT_EXPIRE_JOB,
      { supportId },
      { delay: expiresAt.getTime() - now.getTime(), jobId: `support-expire-${supportId}`, attempts: 5, backoff: { type: 'exponential', delay: 5000 } },
    );
    const token = signAccessToken(
      this.deps.config.jwtSecret,
      { sub: String(admin.id), tid: tenantId, sid: authSessionId, profile: 'admin', sup: { id: supportId, by: auth.userId } },
      SUPPORT_ACCESS_MINUTES * 60,
    );
    const configs = admin.configs ?? {};
    return {
      token,
      username: admin.name,
      profile: 'admin',
      userId: admin.id,
      tenantId,
      email: admin.email,
      queues: admin.queues ?? [],
      blockWavoip: admin.blockVoice,
      whatsappAllowed: admin.allowedConnections ?? [],
      configs: { filtrosAtendimento: configs.filtrosAtendimento ?? null, isDark: Boolean(configs.isDark) },
      support: await this.getById(supportId),
    };
  }

  /** GET /support-sessions/current: the banner's data, for a caller signed in through a support access. */
  async current(auth: AuthContext): Promise<SupportSessionDto> {
    const rows: SupportRow[] = await this.deps.dataSource.query(`${SUPPORT_SELECT} WHERE s."authSessionId" = $1`, [auth.sessionId]);
    if (!rows[0]) throw new AppError('ERR_NO_SUPPORT_SESSION');
    return present(rows[0], this.deps.clock.now());
  }

  /** DELETE /support-sessions/current: the banner's exit button. */
  async endCurrent(auth: AuthContext): Promise<SupportSessionDto> {
    const rows: { id: number }[] = await this.deps.dataSource.query(`SELECT id FROM support_sessions WHERE "authSessionId" = $1`, [
      auth.sessionId,
    ]);
    if (!rows[0]) throw new AppError('ERR_NO_SUPPORT_SESSION');
    return this.end(rows[0].id, 'ended');
  }

  /** DELETE /admin/support-sessions/:id: the super administrator ends one from the tenant's detail. */
  async endById(auth: AuthContext, id: number): Promise<SupportSessionDto> {
    tenantAdminPolicy.manage(auth);
    return this.end(id, 'ended');
  }

  /** GET /admin/tenants/:tenantId/support-sessions: every support access to a tenant, newest first. */
  async listForTenant(auth: AuthContext, tenantId: number): Promise<SupportSessionDto[]> {
    tenantAdminPolicy.manage(auth);
    const rows: SupportRow[] = await this.deps.dataSource.query(
      `${SUPPORT_SELECT} WHERE s."tenantId" = $1 ORDER BY s."startedAt" DESC, s.id DESC LIMIT 200`,
      [tenantId],
    );
    const now = this.deps.clock.now();
    return rows.map((r) => present(r, now));
  }

  /** The expiry job: records the end and cuts what is still connected. */
  async expire(supportId: number): Promise<void> {
    await this.end(supportId, 'expired');
  }

  private async end(id: number, reason: 'ended' | 'expired'): Promise<SupportSessionDto> {
    const now = this.deps.clock.now();
    const sid = await this.deps.dataSource.transaction(async (tx) => {
      const rows: { authSessionId: string }[] = await tx.query(
        `SELECT "authSessionId" FROM support_sessions WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!rows[0]) throw new AppError('ERR_NO_SUPPORT_SESSION');
      await tx.query(`UPDATE support_sessions SET "endedAt" = $2, "endReason" = $3 WHERE id = $1 AND "endedAt" IS NULL`, [
        id,
        now,
        reason,
      ]);
      await tx.query(
        `UPDATE auth_sessions SET "revokedAt" = $2, "revokedReason" = $3 WHERE id = $1 AND "revokedAt" IS NULL`,
        [rows[0].authSessionId, now, `support_${reason}`],
      );
      return rows[0].authSessionId;
    });
    this.deps.sessions.endSession(sid);
    return this.getById(id);
  }

  private async getById(id: number): Promise<SupportSessionDto> {
    const rows: SupportRow[] = await this.deps.dataSource.query(`${SUPPORT_SELECT} WHERE s.id = $1`, [id]);
    if (!rows[0]) throw new AppError('ERR_NO_SUPPORT_SESSION');
    return present(rows[0], this.deps.clock.now());
  }
}
