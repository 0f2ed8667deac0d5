import { z } from 'zod';

/**
 * The platform licence (spec section 4 "licence is active or validating"; section 5 "Licence
 * e-mail is required"; section 9 "Licence activation rate limit: 1 minute"). The key is five
 * groups of five base32 characters; the last group is a checksum bound to the e-mail, checked
 * on the server (no call home).
 */

export const LICENCE_STATUSES = ['validating', 'active'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** Spec section 9: one activation per minute. */
export const LICENCE_ACTIVATION_INTERVAL_MS = 60_000;

export const LICENCE_KEY_PATTERN = /^[A-Z2-7]{5}(?:-[A-Z2-7]{5}){4}$/;
export const LICENCE_EMAIL_REQUIRED = 'O e-mail da licença é obrigatório.';

/** PUT /license: activates a licence (e-mail and key). */
export const ActivateLicenceSchema = z.object({
  email: z
    .string({ error: LICENCE_EMAIL_REQUIRED })
    .trim()
    .min(1, { error: LICENCE_EMAIL_REQUIRED })
    .max(254, { error: 'no máximo 254 caracteres' })
    .pipe(z.email({ error: 'E-mail inválido' })),
  key: z
    .string({ error: 'A chave da licença é obrigatória.' })
    .trim()
    .toUpperCase()
    .min(1, { error: 'A chave da licença é obrigatória.' })
    .regex(LICENCE_KEY_PATTERN, { error: 'deve ter o formato XXXXX-XXXXX-XXXXX-XXXXX-XXXXX' }),
});
export type ActivateLicenceInput = z.infer<typeof ActivateLicenceSchema>;

/** GET /license. The key is shown masked (its last group only). */
export interface Licence {
  email: string | null;
  keyHint: string | null;
  status: LicenceStatus | null;
  activatedAt: string | null;
  /** When the next activation is allowed (ISO), while the rate limit holds. */
  nextActivationAt: string | null;
}
