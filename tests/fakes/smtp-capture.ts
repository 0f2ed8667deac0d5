import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a loopback port (smtp-server) that keeps every delivered mail, decoded:
 * the platform's mails (sign-up confirmation, password reset, test mail) go through the real
 * nodemailer transport to it. Accepts any login (the settings under test may carry a user and a
 * password; `logins` records them), no STARTTLS.
 */
export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const text = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]));
  }
  return Buffer.from(bytes).toString('utf8');
}

function parseMail(raw: string, to: string[], from: string): CapturedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1] ?? '';
  const subject = header('Subject')
    .replace(/=\?utf-8\?q\?(.*?)\?=/gi, (_m, q: string) => decodeQuotedPrintable(q.replace(/_/g, ' ')))
    .replace(/\?=\s+=\?/g, '');
  const text = /quoted-printable/i.test(header('Content-Transfer-Encoding')) ? decodeQuotedPrintable(body) : body;
  return { to, from: header('From') || from, subject, text };
}

export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  readonly logins: { user: string; password: string }[] = [];
  private server?: SMTPServer;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        this.logins.push({ user: auth.username ?? '', password: auth.password ?? '' });
        callback(null, { user: auth.username });
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.mails.push(
            parseMail(
              Buffer.concat(chunks).toString('utf8'),
              session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            ),
          );
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** The first mail to `to` (lower case), waiting for it up to `timeoutMs`. */
  async waitForMail(to: string, timeoutMs = 10_000): Promise<CapturedMail> {
    const started = Date.now();
    for (;;) {
      const mail = this.mails.find((m) => m.to.includes(to.toLowerCase()));
      if (mail) return mail;
      if (Date.now() - started > timeoutMs) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
