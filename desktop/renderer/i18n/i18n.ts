import i18next, { type i18n as I18n, type Module, type Resource } from 'i18next';
import { ERROR_CODES } from '@shared/errors';
import { DEFAULT_LOCALE, FALLBACK_CHAIN, FALLBACK_LOCALE, LOCALES, type Locale } from '@shared/i18n/locales';
import de from '@shared/i18n/locales/de.json';
import enGb from '@shared/i18n/locales/en-gb.json';
import enUs from '@shared/i18n/locales/en-us.json';
import es from '@shared/i18n/locales/es.json';
import es419 from '@shared/i18n/locales/es-419.json';
import fr from '@shared/i18n/locales/fr.json';
import it from '@shared/i18n/locales/it.json';
import pl from '@shared/i18n/locales/pl.json';
import pt from '@shared/i18n/locales/pt.json';
import ptBr from '@shared/i18n/locales/pt-br.json';
import ru from '@shared/i18n/locales/ru.json';

type Tree = { [key: string]: string | Tree };

const LOCALE_FILES: Record<Locale, Tree> = {
  de,
  'en-gb': enGb,
  'en-us': enUs,
  es,
  'es-419': es419,
  fr,
  it,
  pl,
  pt,
  'pt-br': ptBr,
  ru,
};

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

export function buildResources(): Resource {
  const resources: Resource = {};
  for (const locale of LOCALES) resources[locale] = { translation: LOCALE_FILES[locale] };
  resources['pt-br'] = { translation: merge({ errors: PORTUGUESE_ERRORS }, ptBr) };
  // The generic English fallback is the en-us text.
  resources[FALLBACK_LOCALE] = { translation: enUs };
  return resources;
}

/** A ready i18next instance; the React app passes initReactI18next as a plugin. */
export async function createI18n(language: Locale = DEFAULT_LOCALE, plugins: Module[] = []): Promise<I18n> {
  const instance = i18next.createInstance();
  for (const plugin of plugins) instance.use(plugin);
  await instance.init({
    resources: buildResources(),
    lng: language,
    lowerCaseLng: true,
    fallbackLng: FALLBACK_CHAIN,
    supportedLngs: [...LOCALES, FALLBACK_LOCALE],
    interpolation: { escapeValue: false },
  });
  return instance;
}
