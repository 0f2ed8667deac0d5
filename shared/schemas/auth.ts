import { z } from 'zod';
import type { Profile } from '../profiles';
import { CAPTCHA_SOLUTION_MAX_LENGTH, CAPTCHA_TOKEN_MAX_LENGTH } from '../captcha';
import { PASSWORD_MIN_LENGTH } from '../limits';

/**
 * Request schemas and response shapes of the auth calls (spec sections 5 and 7), shared by the
 * server (validation) and the React client (forms and RTK Query types).
 */

/** bcrypt reads at most 72 bytes of a password; longer ones would be silently truncated. */
const PASSWORD_MAX_BYTES = 72;

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

const requiredString = (label: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${label} é obrigatório` : `${label} deve ser um texto`) });

/** E-mail as typed by a person: surrounding spaces removed, compared in lower case. */
export const emailSchema = requiredString('E-mail').trim().toLowerCase().min(1, 'E-mail é obrigatório').email('E-mail inválido');

/**
 * Password policy of spec section 5 (sign-up), also used when a password is reset: at least 7
 * characters with letters, numbers and a special character.
 */
export const passwordPolicySchema = requiredString('Senha')
  .min(PASSWORD_MIN_LENGTH, `A senha deve ter no mínimo ${PASSWORD_MIN_LENGTH} caracteres`)
  .refine((value) => new TextEncoder().encode(value).length <= PASSWORD_MAX_BYTES, 'A senha é longa demais')
  .refine((value) => /\p{L}/u.test(value), 'A senha deve conter letras')
  .refine((value) => /\p{N}/u.test(value), 'A senha deve conter números')
  .refine((value) => /[^\p{L}\p{N}\s]/u.test(value), 'A senha deve conter um caractere especial');

/**
 * POST /auth/login/. The captcha fields are optional here on purpose: a login without a valid
 * answer is refused with the spec's captcha message (ERR_CAPTCHA), not a field error.
 */
export const loginSchema = z.object(
  {
    email: emailSchema,
    password: requiredString('Senha').min(1, 'Senha é obrigatório'),
    captchaToken: z.string().max(CAPTCHA_TOKEN_MAX_LENGTH).optional().catch(undefined),
    captchaSolution: z.string().max(CAPTCHA_SOLUTION_MAX_LENGTH).optional().catch(undefined),
  },
  BODY_ERROR,
);
export type LoginInput = z.infer<typeof loginSchema>;

/** POST /auth/refresh_token: the token comes from the `jrt` cookie, or from the body. */
export const refreshTokenSchema = z.object(
  { refreshToken: z.string('refreshToken deve ser um texto').min(1, 'refreshToken é obrigatório').max(512).optional() },
  BODY_ERROR,
);
export type RefreshTokenInput = z.infer<typeof refreshTokenSchema>;

/** POST /password-reset */
export const passwordResetRequestSchema = z.object({ email: emailSchema }, BODY_ERROR);
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** POST /reset-password. `newPassword` is accepted as another name for `password`. */
export const resetPasswordSchema = z.preprocess(
  (raw) => {
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      const body = raw as Record<string, unknown>;
      if (body.password === undefined && body.newPassword !== undefined) {
        // Renamed, not copied: the strict body check would name a leftover `newPassword` as unknown.
        const { newPassword, ...rest } = body;
        return { ...rest, password: newPassword };
      }
    }
    return raw;
  },
  z.object(
    {
      token: requiredString('Token').min(1, 'Token é obrigatório').max(512),
      password: passwordPolicySchema,
    },
    BODY_ERROR,
  ),
);
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The reset form of the client: the two passwords must match (spec section 5). */
export const resetPasswordFormSchema = z
  .object({ password: passwordPolicySchema, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { message: 'As senhas não coincidem.', path: ['confirmPassword'] });

/** Answer of POST /auth/login/ (spec section 3, "Login response"). */
export interface LoginResponse {
  /** Access token (JWT), sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Opaque refresh token; also set as the httpOnly cookie `jrt` (path /auth). */
  refreshToken: string;
  username: string;
  profile: Profile;
  userId: number;
  tenantId: number;
  email: string;
  /** Ids of the user's queues. */
  queues: number[];
  /** The user may not use voice calls. */
  blockWavoip: boolean;
  /** Ids of the channels (connections) the user may use. */
  whatsappAllowed: number[];
  configs: { filtrosAtendimento: unknown; isDark: boolean };
}

/** Answer of POST /auth/refresh_token. */
export interface RefreshTokenResponse {
  token: string;
  refreshToken: string;
  username: string;
  profile: Profile;
  userId: number;
  tenantId: number;
}

/** Answer of POST /password-reset and POST /reset-password. */
export interface AuthMessageResponse {
  message: string;
}
