import { z } from 'zod';
import { CAPTCHA_SOLUTION_MAX_LENGTH, CAPTCHA_TOKEN_MAX_LENGTH } from '../captcha';
import { isValidCpfOrCnpj, normalizeTaxId } from '../validation/cpf-cnpj';
import { isValidMobilePhone, phoneDigits } from '../validation/contact-fields';
import { passwordPolicySchema } from './auth';

/**
 * Self sign-up (spec section 3 "Sign-up" and section 5): one schema for the form (react-hook-form
 * with the zod resolver) and for POST /empresa/signup, so each rule and its text is written once.
 */

/** Spec section 5: any empty field of the sign-up form. */
export const SIGNUP_FILL_ALL_FIELDS = 'Preencha todos os campos!';
export const SIGNUP_INVALID_TAX_ID = 'CPF/CNPJ inválido';
export const SIGNUP_INVALID_EMAIL = 'E-mail inválido';
export const SIGNUP_INVALID_PHONE = 'Celular inválido';

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

// `abort`: an empty field gets this one message, not also the field's own rule.
const filled = () => z.string({ error: SIGNUP_FILL_ALL_FIELDS }).trim().min(1, { error: SIGNUP_FILL_ALL_FIELDS, abort: true });

export const signupSchema = z.object(
  {
    name: filled().max(120, 'O nome deve ter no máximo 120 caracteres'),
    /** CPF (11 digits) or CNPJ (14), typed with or without punctuation; stored as digits. */
    taxId: filled()
      .max(32, SIGNUP_INVALID_TAX_ID)
      .refine(isValidCpfOrCnpj, SIGNUP_INVALID_TAX_ID)
      .transform((value) => normalizeTaxId(value) ?? value),
    email: filled().toLowerCase().pipe(z.email(SIGNUP_INVALID_EMAIL).max(254, SIGNUP_INVALID_EMAIL)),
    phone: filled()
      .max(32, SIGNUP_INVALID_PHONE)
      .refine(isValidMobilePhone, SIGNUP_INVALID_PHONE)
      .transform((value) => phoneDigits(value) ?? value),
    password: z.string({ error: SIGNUP_FILL_ALL_FIELDS }).min(1, SIGNUP_FILL_ALL_FIELDS).pipe(passwordPolicySchema),
    planId: z.number({ error: SIGNUP_FILL_ALL_FIELDS }).int(SIGNUP_FILL_ALL_FIELDS).positive(SIGNUP_FILL_ALL_FIELDS).max(2147483647),
    // Optional here on purpose, as in the login: a missing answer is ERR_CAPTCHA, not a field error.
    captchaToken: z.string().max(CAPTCHA_TOKEN_MAX_LENGTH).optional().catch(undefined),
    captchaSolution: z.string().max(CAPTCHA_SOLUTION_MAX_LENGTH).optional().catch(undefined),
  },
  BODY_ERROR,
);
export type SignupRequest = z.infer<typeof signupSchema>;

/** What the form's fields hold before parsing (the plan is chosen from a list, null until then). */
export interface SignupFormValues {
  name: string;
  taxId: string;
  email: string;
  phone: string;
  password: string;
  planId: number | null;
}

export const SIGNUP_FORM_FIELDS = ['name', 'taxId', 'email', 'phone', 'password', 'planId'] as const;

/** POST /empresa/signup answer (201). `mailSent` false: the confirmation e-mail could not go out. */
export interface SignupResponse {
  message: string;
  email: string;
  mailSent: boolean;
}

/** GET /empresa/signup/status: whether the sign-up page may be used at all. */
export interface SignupStatusResponse {
  allowSignup: boolean;
}

/** POST /empresa/signup/confirm: the token of the e-mailed link. */
export const signupConfirmSchema = z.object(
  { token: z.string({ error: 'Token é obrigatório' }).trim().min(1, 'Token é obrigatório').max(512, 'Token inválido') },
  BODY_ERROR,
);
export type SignupConfirmInput = z.infer<typeof signupConfirmSchema>;

export interface SignupConfirmResponse {
  message: string;
  email: string;
}

/** GET /admin/signups item: a tenant created by sign-up whose e-mail is not confirmed yet. */
export interface PendingSignup {
  tenantId: number;
  tenantName: string;
  identity: string | null;
  adminName: string;
  email: string;
  phone: string;
  planId: number | null;
  planName: string | null;
  createdAt: string;
  /** When the e-mailed link stops working (the super administrator can still confirm). */
  linkExpiresAt: string;
}

/** GET / PUT /admin/signup-settings: the platform's sign-up switch (tenant 1's `allowSignup`). */
export const signupSettingsSchema = z.object({ allowSignup: z.boolean({ error: 'allowSignup deve ser verdadeiro ou falso' }) }, BODY_ERROR);
export type SignupSettings = z.infer<typeof signupSettingsSchema>;
