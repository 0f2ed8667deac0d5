import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { Profile } from '@shared/profiles';
import type { LoginResponse, RefreshTokenResponse } from '@shared/schemas/auth';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { hashPassword, verifyPassword } from '../../core/passwords';
import type { AppDeps } from '../../deps';
import { userStatusOf } from '../users/presence';
import { presentLogin, presentRefresh, type UserForLogin } from './auth.presenter';
import { signAccessToken } from './tokens';

export type AuthServiceDeps = Pick<AppDeps, 'config' | 'dataSource' | 'events' | 'mailer' | 'clock' | 'logger' | 'sessions'>;

/** A freshly issued refresh token (plain value, shown once) and when it stops working. */
export interface IssuedRefreshToken {
  value: string;
  expiresAt: Date;
}

export interface LoginResult {
  body: LoginResponse;
  refresh: IssuedRefreshToken;
}

export interface RefreshResult {
  body: RefreshTokenResponse;
  refresh: IssuedRefreshToken;
}

interface UserRow extends UserForLogin {
  passwordHash: string;
  tokenVersion: number;
  tenantStatus: string;
  /** The tenant came from sign-up and its e-mail is not confirmed yet. */
  emailPending: boolean;
}

interface RefreshRow {
  tokenId: string;
  usedAt: Date | null;
  tokenExpiresAt: Date;
  sessionId: string;
  revokedAt: Date | null;
  sessionVersion: number;
  userId: number;
  tenantId: number;
  name: string;
  email: string;
  profile: Profile;
  tokenVersion: number;
  tenantStatus: string;
}

type RefreshOutcome =
  | { kind: 'ok'; row: RefreshRow; refresh: IssuedRefreshToken }
  | { kind: 'invalid' }
  | { kind: 'replay'; sessionId: string }
  | { kind: 'tenant_inactive' };

/** Only the SHA-256 of refresh and reset tokens is stored: a leaked table opens no session. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

/**
 * Rows of an `UPDATE ... RETURNING` run inside a transaction. (`EntityManager.query` answers
 * UPDATE and DELETE with `[rows, rowCount]` on PostgreSQL, unlike SELECT and INSERT.)
 */
async function updateReturning<T = unknown>(tx: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  if (!tx.queryRunner) throw new Error('updateReturning() must run inside a transaction');
  const result = await tx.queryRunner.query(sql, params, true);
  return (result.records ?? []) as T[];
}

const USER_COLUMNS = `u.id, u."tenantId", u.name, u.email, u."passwordHash", u.profile, u.queues, u."allowedConnections",
  u."blockVoice", u.configs, u."tokenVersion", t.status AS "tenantStatus",
  EXISTS (SELECT 1 FROM signups s WHERE s."tenantId" = t.id AND s."confirmedAt" IS NULL) AS "emailPending"`;

/**
 * Login, refresh-token rotation, logout and password reset (spec sections 4, 5, 7 and 8).
 * Access tokens are short-lived JWTs bound to an auth session; the session is the family of
 * rotating refresh tokens, so revoking it ends both (require-auth.ts checks it per request).
 */
export class AuthService {
  /** Compared against when the e-mail is unknown, so both failures take about the same time. */
  private dummyHash?: Promise<string>;

  constructor(private readonly deps: AuthServiceDeps) {}

  async login(input: { email: string; password: string; userAgent: string | null; ip: string | null }): Promise<LoginResult> {
    const rows: UserRow[] = await this.deps.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users u JOIN tenants t ON t.id = u."tenantId" WHERE lower(u.email) = $1`,
      [input.email.toLowerCase()],
    );
    const user = rows[0];
    if (!user) {
      await verifyPassword(input.password, await this.getDummyHash());
      throw new AppError('ERR_INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(input.password, user.passwordHash))) throw new AppError('ERR_INVALID_CREDENTIALS');
    // After the password: the answer must not tell a stranger which e-mails await confirmation.
    if (user.emailPending && user.profile !== 'superadmin') throw new AppError('ERR_TENANT_EMAIL_NOT_CONFIRMED');
    if (user.tenantStatus !== 'active' && user.profile !== 'superadmin') throw new AppError('ERR_TENANT_INACTIVE');

    const now = this.deps.clock.now();
    const sessionId = randomUUID();
    const expiresAt = new Date(now.getTime() + this.deps.config.refreshTokenTtlSeconds * 1000);
    const refresh = await this.deps.events.transaction(async (tx, emit) => {
      await tx.query(
        `INSERT INTO auth_sessions (id, "tenantId", "userId", "tokenVersion", "userAgent", ip, "expiresAt", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [sessionId, user.tenantId, user.id, user.tokenVersion, input.userAgent?.slice(0, 512) ?? null, input.ip, expiresAt, now],
      );
      const issued = await this.issueRefreshToken(tx, sessionId, expiresAt, now);
      await tx.query(`UPDATE users SET "isOnline" = true, away = false, "lastOnline" = $2 WHERE id = $1`, [user.id, now]);
      await emit(user.tenantId, SOCKET_EVENTS.userStatus, userStatusOf(user.id, 'online'));
      return issued;
    });
    const token = this.signAccess({ userId: user.id, tenantId: user.tenantId, sessionId, profile: user.profile });
    return { body: presentLogin(user, token, refresh.value), refresh };
  }

  /**
   * Rotates a refresh token: the presented one is spent and a successor issued in the same
   * session, which slides to now + refresh ttl. Presenting a spent token again means it was
   * stolen or replayed: the whole session is revoked, so the thief and the owner both have to
   * log in again (and the owner's access token stops working at once).
   */
  async refresh(input: { refreshToken: string | undefined }): Promise<RefreshResult> {
    if (!input.refreshToken) throw new AppError('ERR_INVALID_TOKEN');
    const tokenHash = sha256(input.refreshToken);
    const now = this.deps.clock.now();
    const outcome = await this.deps.dataSource.transaction(async (tx): Promise<RefreshOutcome> => {
      const rows: RefreshRow[] = await tx.query(
        `SELECT r.id AS "tokenId", r."usedAt", r."expiresAt" AS "tokenExpiresAt", s.id AS "sessionId", s."revokedAt",
                s."tokenVersion" AS "sessionVersion", u.id AS "userId", u."tenantId", u.name, u.email, u.profile,
                u."tokenVersion", t.status AS "tenantStatus"
           FROM refresh_tokens r
           JOIN auth_sessions s ON s.id = r."sessionId"
           JOIN users u ON u.id = s."userId"
           JOIN tenants t ON t.id = u."tenantId"
          WHERE r."tokenHash" = $1`,
        [tokenHash],
      );
      const row = rows[0];
      if (!row || row.revokedAt || row.sessionVersion !== row.tokenVersion) return { kind: 'invalid' };
      if (row.usedAt) {
        await this.revokeSession(tx, row.sessionId, 'refresh_reuse', now);
        return { kind: 'replay', sessionId: row.sessionId };
      }
      if (new Date(row.tokenExpiresAt).getTime() <= now.getTime()) return { kind: 'invalid' };
      if (row.tenantStatus !== 'active' && row.profile !== 'superadmin') return { kind: 'tenant_inactive' };
      // The spend is the race guard: of two requests presenting the same token, one wins here and
      // the other sees a spent token, which is a replay.
      const spent = await updateReturning(
        tx,
        `UPDATE refresh_tokens SET "usedAt" = $2 WHERE id = $1 AND "usedAt" IS NULL RETURNING id`,
        [row.tokenId, now],
      );
      if (spent.length === 0) {
        await this.revokeSession(tx, row.sessionId, 'refresh_reuse', now);
        return { kind: 'replay', sessionId: row.sessionId };
      }
      const expiresAt = new Date(now.getTime() + this.deps.config.refreshTokenTtlSeconds * 1000);
      await tx.query(`UPDATE auth_sessions SET "expiresAt" = $2 WHERE id = $1`, [row.sessionId, expiresAt]);
      return { kind: 'ok', row, refresh: await this.issueRefreshToken(tx, row.sessionId, expiresAt, now) };
    });
    if (outcome.kind === 'replay') {
      this.deps.sessions.endSession(outcome.sessionId);
      this.deps.logger.warn({ tokenHash: tokenHash.slice(0, 12) }, 'refresh token replayed: session revoked');
      throw new AppError('ERR_INVALID_TOKEN');
    }
    if (outcome.kind === 'invalid') throw new AppError('ERR_INVALID_TOKEN');
    if (outcome.kind === 'tenant_inactive') throw new AppError('ERR_TENANT_INACTIVE');
    const { row, refresh } = outcome;
    const token = this.signAccess({ userId: row.userId, tenantId: row.tenantId, sessionId: row.sessionId, profile: row.profile });
    return { body: presentRefresh(row, token, refresh.value), refresh };
  }

  /** Ends the caller's session (its access and refresh tokens) and marks the user offline. */
  async logout(auth: AuthContext): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.events.transaction(async (tx, emit) => {
      await this.revokeSession(tx, auth.sessionId, 'logout', now);
      // The user's other apps, still connected, set their presence again when this session's sockets leave.
      await tx.query(`UPDATE users SET "isOnline" = false, away = false, "lastOnline" = $3 WHERE id = $1 AND "tenantId" = $2`, [
        auth.userId,
        auth.tenantId,
        now,
      ]);
      await emit(auth.tenantId, SOCKET_EVENTS.userStatus, userStatusOf(auth.userId, 'offline'));
    });
    this.deps.sessions.endSession(auth.sessionId);
  }

  /**
   * Sends a single-use reset link when the e-mail belongs to a user; the caller answers the same
   * whether it does or not. The mail goes out after the answer, so the answer's timing does not
   * tell either (a failed send is logged).
   */
  async requestPasswordReset(input: { email: string }): Promise<void> {
    const rows: { id: number; tenantId: number; name: string; email: string }[] = await this.deps.dataSource.query(
      `SELECT id, "tenantId", name, email FROM users WHERE lower(email) = $1`,
      [input.email.toLowerCase()],
    );
    const user = rows[0];
    if (!user) return;
    const token = newOpaqueToken();
    const now = this.deps.clock.now();
    const ttl = this.deps.config.passwordResetTtlSeconds;
    await this.deps.dataSource.transaction(async (tx) => {
      // Only the newest link works.
      await tx.query(`UPDATE password_resets SET "usedAt" = $2 WHERE "userId" = $1 AND "usedAt" IS NULL`, [user.id, now]);
      await tx.query(
        `INSERT INTO password_resets (id, "tenantId", "userId", "tokenHash", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), user.tenantId, user.id, sha256(token), new Date(now.getTime() + ttl * 1000), now],
      );
    });
    const link = `${this.deps.config.publicUrl.replace(/\/+$/, '')}/#/reset/${token}`;
    const minutes = Math.max(1, Math.round(ttl / 60));
    void this.deps.mailer
      .send({
        to: user.email,
        subject: 'Redefinição de senha',
        text: [
          `Olá, ${user.name}!`,
          '',
          'Recebemos um pedido para redefinir a senha da sua conta. Para criar uma nova senha, acesse o link abaixo:',
          '',
          link,
          '',
          `O link vale por ${minutes} minuto${minutes === 1 ? '' : 's'} e pode ser usado uma única vez.`,
          'Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.',
        ].join('\n'),
      })
      .catch((err: unknown) => this.deps.logger.error({ err, userId: user.id }, 'password reset mail not sent'));
  }

  /**
   * Sets a new password with a single-use, unexpired reset token. The user's token version is
   * bumped and every session revoked: whoever held the old password is logged out everywhere.
   */
  async resetPassword(input: { token: string; password: string }): Promise<void> {
    // Hashing is slow: done before the transaction so no connection waits on it.
    const passwordHash = await hashPassword(input.password);
    const now = this.deps.clock.now();
    const done = await this.deps.dataSource.transaction(async (tx) => {
      const spent = await updateReturning<{ userId: number }>(
        tx,
        `UPDATE password_resets SET "usedAt" = $2
          WHERE "tokenHash" = $1 AND "usedAt" IS NULL AND "expiresAt" > $2
          RETURNING "userId"`,
        [sha256(input.token), now],
      );
      const userId = spent[0]?.userId;
      if (userId === undefined) return false as const;
      await tx.query(
        `UPDATE users SET "passwordHash" = $2, "tokenVersion" = "tokenVersion" + 1, "updatedAt" = $3 WHERE id = $1`,
        [userId, passwordHash, now],
      );
      await tx.query(`UPDATE password_resets SET "usedAt" = $2 WHERE "userId" = $1 AND "usedAt" IS NULL`, [userId, now]);
      await tx.query(
        `UPDATE auth_sessions SET "revokedAt" = $2, "revokedReason" = 'password_reset' WHERE "userId" = $1 AND "revokedAt" IS NULL`,
        [userId, now],
      );
      return userId;
    });
    if (done === false) throw new AppError('ERR_INVALID_RESET_TOKEN');
    this.deps.sessions.endUserSessions(done);
  }

  private async issueRefreshToken(tx: EntityManager, sessionId: string, expiresAt: Date, now: Date): Promise<IssuedRefreshToken> {
    const value = newOpaqueToken();
    await tx.query(
      `INSERT INTO refresh_tokens (id, "sessionId", "tokenHash", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4, $5)`,
      [randomUUID(), sessionId, sha256(value), expiresAt, now],
    );
    return { value, expiresAt };
  }

  private async revokeSession(tx: EntityManager, sessionId: string, reason: string, now: Date): Promise<void> {
    await tx.query(`UPDATE auth_sessions SET "revokedAt" = $2, "revokedReason" = $3 WHERE id = $1 AND "revokedAt" IS NULL`, [
      sessionId,
      now,
      reason,
    ]);
  }

  private signAccess(s: { userId: number; tenantId: number; sessionId: string; profile: Profile }): string {
    return signAccessToken(
      this.deps.config.jwtSecret,
      { sub: String(s.userId), tid: s.tenantId, sid: s.sessionId, profile: s.profile },
      this.deps.config.accessTokenTtlSeconds,
    );
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hashPassword(newOpaqueToken());
    return this.dummyHash;
  }
}
