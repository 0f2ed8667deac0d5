import type { PlatformMailSettings } from '@shared/schemas/platform-mail';
import type { StoredMailSettings } from './platform-mail.store';

/** Default port shown while nothing is stored (submission with STARTTLS). */
const DEFAULT_PORT = 587;

/** The settings as the screen shows them: never the password, only whether one is stored. */
export function presentPlatformMail(
  stored: StoredMailSettings | null,
  env: { smtpUrl?: string; mailFrom: string },
): PlatformMailSettings {
  if (!stored) {
    return {
      host: '',
      port: DEFAULT_PORT,
      secure: false,
      user: '',
      from: env.mailFrom,
      passwordSet: false,
      source: env.smtpUrl ? 'env' : 'none',
    };
  }
  return {
    host: stored.host,
    port: stored.port,
    secure: stored.secure,
    user: stored.user,
    from: stored.from,
    passwordSet: Boolean(stored.password),
    source: 'stored',
  };
}
