export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Outgoing e-mail. SMTP (nodemailer) when SMTP_URL is set; otherwise the mail is logged. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
