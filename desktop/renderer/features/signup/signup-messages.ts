import {
  SIGNUP_FILL_ALL_FIELDS,
  SIGNUP_INVALID_EMAIL,
  SIGNUP_INVALID_PHONE,
  SIGNUP_INVALID_TAX_ID,
} from '@shared/schemas/signup';

/**
 * The shared schema's texts are Portuguese (they are also the server's 400 messages); the form
 * shows each in the reader's language through these keys. Password rules share one key that
 * states the whole policy; anything else is shown as the schema wrote it.
 */
const KEYS: Record<string, string> = {
  [SIGNUP_FILL_ALL_FIELDS]: 'signup.fillAllFields',
  [SIGNUP_INVALID_TAX_ID]: 'signup.invalidTaxId',
  [SIGNUP_INVALID_EMAIL]: 'validation.invalidEmail',
  [SIGNUP_INVALID_PHONE]: 'signup.invalidPhone',
};

export function signupMessageKey(message: string): string {
  if (KEYS[message]) return KEYS[message];
  if (message.startsWith('A senha ')) return 'validation.passwordPolicy';
  return message;
}
