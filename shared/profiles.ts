/** Profiles of spec section 6. */
export const PROFILES = ['user', 'super', 'admin', 'superadmin'] as const;
export type Profile = (typeof PROFILES)[number];

/** Admin status is true for the admin profile or a support user (e-mail with the marker). */
export const SUPPORT_EMAIL_MARKER = '+';
export const isSupportEmail = (email: string): boolean => email.split('@')[0]?.includes(SUPPORT_EMAIL_MARKER) ?? false;
export const isAdminProfile = (profile: Profile, email = ''): boolean =>
  profile === 'admin' || profile === 'superadmin' || isSupportEmail(email);
