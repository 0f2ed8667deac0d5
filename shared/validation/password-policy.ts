import { PASSWORD_MIN_LENGTH } from '../limits';

/**
 * Password policy of spec sections 5 (sign-up) and 9 (minimum 7), for forms: the same rules as
 * the server's passwordPolicySchema (shared/schemas/auth.ts), returned as a list so a form can
 * say what is still missing.
 */
export type PasswordPolicyFailure = 'tooShort' | 'tooLong' | 'missingLetter' | 'missingNumber' | 'missingSpecial';

/** bcrypt reads at most 72 bytes; the server refuses longer passwords rather than truncate them. */
export const PASSWORD_MAX_BYTES = 72;

export function passwordPolicyFailures(password: string): PasswordPolicyFailure[] {
  const failures: PasswordPolicyFailure[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) failures.push('tooShort');
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) failures.push('tooLong');
  if (!/\p{L}/u.test(password)) failures.push('missingLetter');
  if (!/\p{N}/u.test(password)) failures.push('missingNumber');
  // Anything that is neither a letter, a number nor whitespace counts as special (!, @, #, _, ...).
  if (!/[^\p{L}\p{N}\s]/u.test(password)) failures.push('missingSpecial');
  return failures;
}

export const isStrongPassword = (password: string): boolean => passwordPolicyFailures(password).length === 0;
