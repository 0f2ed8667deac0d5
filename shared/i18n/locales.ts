/** Locales of spec section 1. Codes are lower-case, matching the file names in ./locales. */
export const LOCALES = ['de', 'en-gb', 'en-us', 'es', 'es-419', 'fr', 'it', 'pl', 'pt', 'pt-br', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];

/** The interface is Portuguese by default with English as the fallback (spec section 1). */
export const DEFAULT_LOCALE: Locale = 'pt-br';
export const FALLBACK_LOCALE = 'en';

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * Where a missing translation is looked up next. Portuguese and Spanish variants fall back to
 * their sibling before English, so a Portugal user never sees English where pt-br has the text.
 */
export const FALLBACK_CHAIN: Record<string, string[]> = {
  pt: ['pt-br', FALLBACK_LOCALE],
  'es-419': ['es', FALLBACK_LOCALE],
  default: [FALLBACK_LOCALE],
};
