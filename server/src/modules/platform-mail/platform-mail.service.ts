import type { PlatformMailSettings, PlatformMailSettingsRequest } from '@shared/schemas/platform-mail';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { authorizePlatformMail } from './platform-mail.policy';
import { presentPlatformMail } from './platform-mail.presenter';
import { readPlatformMailSettings } from './platform-mail.store';

export type PlatformMailDeps = Pick<AppDeps, 'dataSource' | 'config' | 'mailer' | 'clock' | 'logger'>;

/** Longest part of an SMTP failure shown to the super administrator (the server's own words). */
const REASON_MAX = 300;

/**
 * The platform's SMTP settings (super administrator). The mailer reads them at each send
 * (platform-mailer.ts), so saving or removing them takes effect without a restart.
 */
export class PlatformMailService {
  constructor(private readonly deps: PlatformMailDeps) {}

  async get(auth: AuthContext): Promise<PlatformMailSettings> {
    authorizePlatformMail(auth);
    return presentPlatformMail(await readPlatformMailSettings(this.deps.dataSource), this.deps.config);
  }

  /** Saves the settings; an absent or empty password keeps the stored one, an empty user drops it. */
  async update(auth: AuthContext, input: PlatformMailSettingsRequest): Promise<PlatformMailSettings> {
    authorizePlatformMail(auth);
    // No user: no password. A user without a new password keeps the stored one.
    const keepPassword = input.user !== '' && !input.password;
    const password = input.user === '' || !input.password ? null : input.password;
    await this.deps.dataSource.query(
      `INSERT INTO platform_mail_settings (id, host, port, secure, "user", password, "from", "updatedAt")
       VALUES (1, $1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET
         host = EXCLUDED.host, port = EXCLUDED.port, secure = EXCLUDED.secure, "user" = EXCLUDED."user",
         password = CASE WHEN $8::boolean THEN platform_mail_settings.password ELSE EXCLUDED.password END,
         "from" = EXCLUDED."from", "updatedAt" = EXCLUDED."updatedAt"`,
      [input.host, input.port, input.secure, input.user, password, input.from, this.deps.clock.now(), keepPassword],
    );
    return this.get(auth);
  }

  /** Removes the stored settings: mails go through the server's SMTP_URL configuration again. */
  async reset(auth: AuthContext): Promise<PlatformMailSettings> {
    authorizePlatformMail(auth);
    await this.deps.dataSource.query(`DELETE FROM platform_mail_settings WHERE id = 1`);
    return this.get(auth);
  }

  /** Sends a short mail through the platform mailer, exactly as sign-up and password reset do. */
  async sendTest(auth: AuthContext, to: string): Promise<{ message: string }> {
    authorizePlatformMail(auth);
    const stored = await readPlatformMailSettings(this.deps.dataSource);
    if (!stored && !this.deps.config.smtpUrl) throw new AppError('ERR_SMTP_NOT_CONFIGURED');
    try {
      await this.deps.mailer.send({
        to,
        subject: 'E-mail de teste',
        text: [
          'Este é um e-mail de teste das configurações de e-mail da plataforma.',
          '',
          'Se você o recebeu, as confirmações de cadastro e a recuperação de senha serão enviadas por este servidor.',
        ].join('\n'),
      });
    } catch (err) {
      this.deps.logger.warn({ err }, 'platform test mail not sent');
      const reason = err instanceof Error ? err.message.replace(/\s+/g, ' ').slice(0, REASON_MAX) : '';
      throw new AppError('ERR_SMTP_TEST_FAILED', {
        message: reason ? `Não foi possível enviar o e-mail de teste: ${reason}` : undefined,
      });
    }
    return { message: `E-mail de teste enviado para ${to}.` };
  }
}
