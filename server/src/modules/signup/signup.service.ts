import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type {
  PendingSignup,
  SignupConfirmResponse,
  SignupRequest,
  SignupResponse,
  SignupSettings,
} from '@shared/schemas/signup';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { hashPassword } from '../../core/passwords';
import { uniqueViolationOf } from '../../db/pg-errors';
import type { AppDeps } from '../../deps';
import { provisionTenant } from '../tenants/tenant-provisioning';
import { signupConfirmationLink, signupConfirmationMail } from './signup.mail';
import { authorizeSignupAdministration } from './signup.policy';
import { presentPendingSignup, type PendingSignupRow } from './signup.presenter';
import { isSignupAllowed, setSignupAllowed } from './signup-settings';

export type SignupDeps = Pick<AppDeps, 'dataSource' | 'config' | 'mailer' | 'clock' | 'logger'>;

/** How long the e-mailed confirmation link works. */
export const SIGNUP_CONFIRMATION_TTL_HOURS = 48;

export const SIGNUP_DONE_MESSAGE = 'Cadastro realizado! Enviamos um link de confirmação para o seu e-mail.';
export const SIGNUP_MAIL_FAILED_MESSAGE =
  'Cadastro realizado, mas não foi possível enviar o e-mail de confirmação. Solicite ao Super Administrador a validação do email.';
export const SIGNUP_CONFIRMED_MESSAGE = 'E-mail confirmado! A sua empresa está ativa: entre com o seu e-mail e senha.';

/** Only the SHA-256 of the link's token is stored: a leaked table confirms nothing. */
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * Self sign-up (spec sections 3, 5 and 8): a tenant on the chosen plan with its administrator,
 * made by the same provisionTenant as the super administrator's tenant creation, but pending:
 * inactive, and its login refused with ERR_TENANT_EMAIL_NOT_CONFIRMED until the e-mailed link is
 * followed (or the super administrator confirms it), which activates the tenant.
 */
export class SignupService {
  constructor(private readonly deps: SignupDeps) {}

  async allowed(): Promise<boolean> {
    return isSignupAllowed(this.deps.dataSource);
  }

  async signUp(input: SignupRequest): Promise<SignupResponse> {
    if (!(await this.allowed())) throw new AppError('ERR_USER_CREATION_DISABLED');
    const plans: { id: number }[] = await this.deps.dataSource.query(`SELECT id FROM plans WHERE id = $1 AND active`, [input.planId]);
    if (!plans[0]) throw new AppError('ERR_NO_PLAN_FOUND', { fields: [{ path: 'planId', message: 'plano não encontrado' }] });
    const taken: unknown[] = await this.deps.dataSource.query(`SELECT 1 FROM users WHERE lower(email) = $1`, [input.email]);
    if (taken.length > 0) throw emailTaken();
    // Hashing is slow: done before the transaction so no connection waits on it.
    const passwordHash = await hashPassword(input.password);
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SIGNUP_CONFIRMATION_TTL_HOURS * 3600_000);
    try {
      await this.deps.dataSource.transaction(async (tx) => {
        const { tenantId, adminUserId } = await provisionTenant(tx, {
          name: input.name,
          planId: input.planId,
          identity: input.taxId,
          status: 'inactive',
          admin: { name: input.name, email: input.email, passwordHash },
        });
        await tx.query(
          `INSERT INTO signups ("tenantId", "userId", phone, "tokenHash", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)`,
          [tenantId, adminUserId, input.phone, sha256(token), expiresAt, now],
        );
      });
    } catch (err) {
      // Two sign-ups with one e-mail at once: the unique index decides, like the checked path.
      if (uniqueViolationOf(err) === 'users_email_lower_uq') throw emailTaken();
      throw err;
    }
    const mail = signupConfirmationMail({
      to: input.email,
      name: input.name,
      link: signupConfirmationLink(this.deps.config.publicUrl, token),
      ttlHours: SIGNUP_CONFIRMATION_TTL_HOURS,
    });
    try {
      await this.deps.mailer.send(mail);
    } catch (err) {
      // The tenant stays pending: the super administrator can confirm it (GET /admin/signups).
      this.deps.logger.error({ err }, 'sign-up confirmation mail not sent');
      return { message: SIGNUP_MAIL_FAILED_MESSAGE, email: input.email, mailSent: false };
    }
    return { message: SIGNUP_DONE_MESSAGE, email: input.email, mailSent: true };
  }

  /** Follows the e-mailed link: once, before it expires. */
  async confirmByToken(token: string): Promise<SignupConfirmResponse> {
    const now = this.deps.clock.now();
    const confirmed = await this.deps.dataSource.transaction(async (tx) => {
      const rows: { tenantId: number; userId: number }[] = await tx.query(
        `WITH spent AS (
           UPDATE signups SET "confirmedAt" = $2, "confirmedBy" = 'link'
            WHERE "tokenHash" = $1 AND "confirmedAt" IS NULL AND "expiresAt" > $2
            RETURNING "tenantId", "userId")
         SELECT "tenantId", "userId" FROM spent`,
        [sha256(token), now],
      );
      if (!rows[0]) return null;
      return this.activate(tx, rows[0], now);
    });
    if (!confirmed) throw new AppError('ERR_INVALID_SIGNUP_TOKEN');
    return { message: SIGNUP_CONFIRMED_MESSAGE, email: confirmed.email };
  }

  /** GET /admin/signups: tenants whose e-mail is not confirmed yet, newest first. */
  async listPending(auth: AuthContext): Promise<PendingSignup[]> {
    authorizeSignupAdministration(auth);
    const rows: PendingSignupRow[] = await this.deps.dataSource.query(
      `SELECT s."tenantId", t.name AS "tenantName", t.identity, u.name AS "adminName", u.email, s.phone,
              t."planId", p.name AS "planName", s."createdAt", s."expiresAt"
         FROM signups s
         JOIN tenants t ON t.id = s."tenantId"
         JOIN users u ON u.id = s."userId"
         LEFT JOIN plans p ON p.id = t."planId"
        WHERE s."confirmedAt" IS NULL
        ORDER BY s."createdAt" DESC, s.id DESC`,
    );
    return rows.map(presentPendingSignup);
  }

  /** POST /admin/signups/:tenantId/confirm: the super administrator validates the e-mail. */
  async confirmBySuperadmin(auth: AuthContext, tenantId: number): Promise<SignupConfirmResponse> {
    authorizeSignupAdministration(auth);
    const now = this.deps.clock.now();
    const confirmed = await this.deps.dataSource.transaction(async (tx) => {
      const rows: { tenantId: number; userId: number }[] = await tx.query(
        `WITH spent AS (
           UPDATE signups SET "confirmedAt" = $2, "confirmedBy" = 'superadmin'
            WHERE "tenantId" = $1 AND "confirmedAt" IS NULL
            RETURNING "tenantId", "userId")
         SELECT "tenantId", "userId" FROM spent`,
        [tenantId, now],
      );
      if (!rows[0]) return null;
      return this.activate(tx, rows[0], now);
    });
    if (!confirmed) throw new AppError('ERR_NO_SIGNUP_FOUND');
    return { message: SIGNUP_CONFIRMED_MESSAGE, email: confirmed.email };
  }

  async settings(auth: AuthContext): Promise<SignupSettings> {
    authorizeSignupAdministration(auth);
    return { allowSignup: await this.allowed() };
  }

  async updateSettings(auth: AuthContext, input: SignupSettings): Promise<SignupSettings> {
    authorizeSignupAdministration(auth);
    await setSignupAllowed(this.deps.dataSource, this.deps.clock, input.allowSignup);
    return { allowSignup: await this.allowed() };
  }

  private async activate(tx: EntityManager, row: { tenantId: number; userId: number }, now: Date): Promise<{ email: string }> {
    await tx.query(`UPDATE tenants SET status = 'active', "updatedAt" = $2 WHERE id = $1`, [row.tenantId, now]);
    const [user]: { email: string }[] = await tx.query(`SELECT email FROM users WHERE id = $1`, [row.userId]);
    return { email: user?.email ?? '' };
  }
}

const emailTaken = () =>
  new AppError('ERR_EMAIL_ALREADY_EXISTS', { fields: [{ path: 'email', message: 'já existe um usuário com este e-mail' }] });
