import { z } from 'zod';

/**
 * The platform's outgoing e-mail (super administrator, /configuracoesTenant/smtp-tenant): the SMTP
 * server that sign-up confirmations and password resets go through. Unset, the server's SMTP_URL
 * environment configuration is used.
 */

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]{2,}$/;
/** `no-reply@example.com` or `Empresa <no-reply@example.com>`. */
const isSender = (value: string): boolean => {
  const named = /^([^<>"\r\n]*)<\s*([^<>\s]+)\s*>$/.exec(value);
  return named ? ADDRESS.test(named[2]) : ADDRESS.test(value);
};

/** Host name or IP literal: no spaces, no scheme, no path. */
const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/;

export const platformMailSettingsSchema = z.object(
  {
    host: z
      .string({ error: 'Servidor é obrigatório' })
      .trim()
      .min(1, 'Servidor é obrigatório')
      .max(253, 'Servidor inválido')
      .regex(HOST, 'Servidor inválido (informe só o nome, sem smtp:// nem porta)'),
    port: z.coerce
      .number({ error: 'Porta inválida' })
      .int('Porta inválida')
      .min(1, 'Porta inválida')
      .max(65535, 'Porta inválida'),
    /** TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when offered. */
    secure: z.boolean({ error: 'secure deve ser verdadeiro ou falso' }),
    /** Empty: the server accepts mail without authentication. */
    user: z.string({ error: 'Usuário deve ser um texto' }).trim().max(254, 'Usuário muito longo').default(''),
    /** Write-only: absent or empty keeps the stored password (an empty user clears it). */
    password: z.string({ error: 'Senha deve ser um texto' }).max(512, 'Senha muito longa').optional(),
    from: z
      .string({ error: 'Remetente é obrigatório' })
      .trim()
      .min(1, 'Remetente é obrigatório')
      .max(320, 'Remetente inválido')
      .refine(isSender, 'Remetente inválido (ex.: Empresa <no-reply@empresa.com>)'),
  },
  BODY_ERROR,
);
export type PlatformMailSettingsInput = z.input<typeof platformMailSettingsSchema>;
export type PlatformMailSettingsRequest = z.infer<typeof platformMailSettingsSchema>;

/** GET /admin/platform-mail. The password is never sent back; `passwordSet` says whether one is stored. */
export interface PlatformMailSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  from: string;
  passwordSet: boolean;
  /** Which configuration mails use now: these stored settings, the server's SMTP_URL, or none (mails are only logged). */
  source: 'stored' | 'env' | 'none';
}

/** POST /admin/platform-mail/test */
export const platformMailTestSchema = z.object(
  {
    to: z
      .string({ error: 'Destinatário é obrigatório' })
      .trim()
      .toLowerCase()
      .min(1, 'Destinatário é obrigatório')
      .pipe(z.email('E-mail inválido').max(254, 'E-mail inválido')),
  },
  BODY_ERROR,
);
export type PlatformMailTestInput = z.infer<typeof platformMailTestSchema>;
