import nodemailer, { type Transporter } from 'nodemailer';
import type { DataSource } from 'typeorm';
import type { Mailer } from '../../core/mailer';
import { readPlatformMailSettings, type StoredMailSettings } from './platform-mail.store';

/** An unreachable or silent SMTP server fails a send within this time, not nodemailer's two minutes. */
const SMTP_TIMEOUT_MS = 15_000;

export function smtpTransportFor(settings: StoredMailSettings): Transporter {
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS * 2,
  });
}

/**
 * The platform's mailer (sign-up confirmations, password resets): the SMTP settings the super
 * administrator stored (/configuracoesTenant/smtp-tenant), read at each send so a change applies
 * at once in every server process; without them, `fallback` (the SMTP_URL environment
 * configuration, or the log). Platform mails are rare, so one primary-key read per mail is cheap.
 */
export function createPlatformMailer(dataSource: DataSource, fallback: Mailer): Mailer {
  let cached: { key: string; transport: Transporter } | undefined;
  return {
    async send(message) {
      const settings = await readPlatformMailSettings(dataSource);
      if (!settings) return fallback.send(message);
      const key = JSON.stringify([settings.host, settings.port, settings.secure, settings.user, settings.password]);
      if (cached?.key !== key) {
        cached?.transport.close();
        cached = { key, transport: smtpTransportFor(settings) };
      }
      await cached.transport.sendMail({ from: settings.from, ...message });
    },
  };
}
