import type { Profile } from '@shared/profiles';
import { USER_EMAIL_MAX, USER_NAME_MAX } from '@shared/schemas/users';
import { passwordPolicyFailures, type PasswordPolicyFailure } from '@shared/validation/password-policy';
import { isValidEmail } from '@shared/validation/contact-fields';

/**
 * The user form's rules (shared/schemas/users.ts CreateUserSchema / UpdateUserSchema, which the
 * server applies): name and e-mail required, the password policy of spec sections 5 and 9 for a
 * new password (required when creating; empty keeps the current one when editing).
 */
export type UserField = 'name' | 'email' | 'password' | 'profile';
export type UserFailure = 'required' | 'tooLong' | 'invalidEmail' | 'weakPassword' | 'invalidProfile';

/** The profiles a tenant administrator hands out (superadmin is the platform's own). */
export const ASSIGNABLE_PROFILES = ['user', 'super', 'admin'] as const satisfies readonly Profile[];

export interface UserDraft {
  name: string;
  email: string;
  password: string;
  profile: string;
}

export function validateUser(draft: UserDraft, mode: 'create' | 'edit'): Partial<Record<UserField, UserFailure>> {
  const failures: Partial<Record<UserField, UserFailure>> = {};
  const name = draft.name.trim();
  if (name === '') failures.name = 'required';
  else if (name.length > USER_NAME_MAX) failures.name = 'tooLong';

  const email = draft.email.trim();
  if (email === '') failures.email = 'required';
  else if (email.length > USER_EMAIL_MAX) failures.email = 'tooLong';
  else if (!isValidEmail(email)) failures.email = 'invalidEmail';

  if (draft.password === '') {
    if (mode === 'create') failures.password = 'required';
  } else if (passwordPolicyFailures(draft.password).length > 0) {
    failures.password = 'weakPassword';
  }

  if (
    !(ASSIGNABLE_PROFILES as readonly string[]).includes(draft.profile) &&
    !(mode === 'edit' && draft.profile === 'superadmin')
  ) {
    failures.profile = 'invalidProfile';
  }
  return failures;
}

/** The policy's rules as a checklist (each met or not), for the hint under the password field. */
export const PASSWORD_RULES: readonly PasswordPolicyFailure[] = [
  'tooShort',
  'missingLetter',
  'missingNumber',
  'missingSpecial',
  'tooLong',
];

export function passwordChecklist(password: string): { rule: PasswordPolicyFailure; met: boolean }[] {
  const failing = new Set(passwordPolicyFailures(password));
  // "Too long" is only worth showing when it happens.
  return PASSWORD_RULES.filter((rule) => rule !== 'tooLong' || failing.has(rule)).map((rule) => ({
    rule,
    met: !failing.has(rule),
  }));
}

/** Pages of a list of `count` rows, at least 1. */
export const pageCount = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize));
