import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from './logger';
import type { Mailer } from './mailer';

/** SMTP through nodemailer when SMTP_URL is set; otherwise mails are written to the log. */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (!config.smtpUrl) {
    return {
      async send(message) {
        logger.info({ to: message.to, subject: message.subject, text: message.text }, 'mail (SMTP_URL unset: logged, not sent)');
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
  };
}
