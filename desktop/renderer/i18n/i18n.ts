import i18next, { type i18n as I18n, type Module, type Resource } from 'i18next';
import { ERROR_CODES } from '@shared/errors';
import { DEFAULT_LOCALE, FALLBACK_CHAIN, FALLBACK_LOCALE, LOCALES, type Locale } from '@shared/i18n/locales';
import ptBr from '@shared/i18n/locales/pt-br.json';

type Tree = { [key: string]: string | Tree };

/**
 * Only the chosen language's translations are loaded (issue #13, start-up): pt-br, the default,
 * is part of the main script; every other locale file is its own chunk, fetched with the
 * locales it falls back to before the first render, and on a change of language.
 */
const LOCALE_LOADERS: Record<Exclude<Locale, 'pt-br'>, () => Promise<{ default: Tree }>> = {
  de: () => import('@shared/i18n/locales/de.json'),
  'en-gb': () => import('@shared/i18n/locales/en-gb.json'),
  'en-us': () => import('@shared/i18n/locales/en-us.json'),
  es: () => import('@shared/i18n/locales/es.json'),
  'es-419': () => import('@shared/i18n/locales/es-419.json'),
  fr: () => import('@shared/i18n/locales/fr.json'),
  it: () => import('@shared/i18n/locales/it.json'),
  pl: () => import('@shared/i18n/locales/pl.json'),
  pt: () => import('@shared/i18n/locales/pt.json'),
  ru: () => import('@shared/i18n/locales/ru.json'),
};

/** i18next's name of a bundle: a locale, or the generic English fallback ('en', the en-us text). */
type Bundle = Locale | typeof FALLBACK_LOCALE;

/**
 * The Portuguese error texts are declared once, in shared/errors.ts, next to their codes; the
 * pt-br bundle takes them from there so the server's `message` and the client's toast agree.
 */
const PORTUGUESE_ERRORS: Tree = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { message }]) => [code, message]));

function merge(base: Tree, extra: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] = typeof value === 'object' && typeof current === 'object' ? merge(current, value) : value;
  }
  return out;
}

/**
 * The bundles a language needs: itself and the chain it falls back to ('pt' -> pt-br -> en;
 * 'de' -> en). pt-br is complete (i18n-keys.test.ts), so it needs nothing more; a key it lacks
 * would show as the key, which that test forbids.
 */
export function bundlesFor(language: Locale): Bundle[] {
  if (language === DEFAULT_LOCALE) return [DEFAULT_LOCALE];
  const chain = (FALLBACK_CHAIN[language] ?? FALLBACK_CHAIN.default) as Bundle[];
  return [language, ...chain.filter((bundle) => bundle !== language)];
}

async function loadBundle(bundle: Bundle): Promise<Tree> {
  if (bundle === 'pt-br') return merge({ errors: PORTUGUESE_ERRORS }, ptBr);
  // The generic English fallback is the en-us text.
  const locale: Exclude<Locale, 'pt-br'> = bundle === FALLBACK_LOCALE ? 'en-us' : bundle;
  return (await LOCALE_LOADERS[locale]()).default;
}

/** Resources of the given bundles (i18next's shape). */
export async function loadResources(bundles: readonly Bundle[]): Promise<Resource> {
  const trees = await Promise.all(bundles.map(loadBundle));
  return Object.fromEntries(bundles.map((bundle, index) => [bundle, { translation: trees[index] }]));
}

/** Every locale and the English fallback (tests of the texts). */
export function buildResources(): Promise<Resource> {
  return loadResources([...LOCALES, FALLBACK_LOCALE]);
}

/** A ready i18next instance with the language's bundles; the React app passes initReactI18next as a plugin. */
export async function createI18n(language: Locale = DEFAULT_LOCALE, plugins: Module[] = []): Promise<I18n> {
  const instance = i18next.createInstance();
  for (const plugin of plugins) instance.use(plugin);
  await instance.init({
    resources: await loadResources(bundlesFor(language)),
    lng: language,
    lowerCaseLng: true,
    fallbackLng: FALLBACK_CHAIN,
    supportedLngs: [...LOCALES, FALLBACK_LOCALE],
    interpolation: { escapeValue: false },
  });
  return instance;
}

/** Switches the interface language once its bundles (and its fallbacks') are loaded. */
export async function changeAppLanguage(instance: I18n, language: Locale): Promise<void> {
  const missing = bundlesFor(language).filter((bundle) => !instance.hasResourceBundle(bundle, 'translation'));
  const resources = await loadResources(missing);
  for (const [bundle, { translation }] of Object.entries(resources))
    instance.addResourceBundle(bundle, 'translation', translation, true, true);
  await instance.changeLanguage(language);
}
