import { HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale } from '@shared/i18n/locales';
import { appStorage } from '../../app/session/app-storage';
import { changeAppLanguage } from '../../i18n/i18n';

/** Language choice among the 11 locales, kept in localStorage `language` (spec section 1). */
export function LanguageSelect({ minimal = false }: { minimal?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = LOCALES.find((locale) => locale === i18n.resolvedLanguage || locale === i18n.language) ?? 'pt-br';
  return (
    <HTMLSelect
      minimal={minimal}
      aria-label={t('preferences.language')}
      value={current}
      data-testid="language-select"
      onChange={(event) => {
        const locale = event.currentTarget.value;
        if (!isLocale(locale)) return;
        appStorage.writeLanguage(locale);
        document.documentElement.lang = locale;
        // The locale's translations are a chunk of their own, fetched on first use.
        void changeAppLanguage(i18n, locale);
      }}
      options={LOCALES.map((locale) => ({ value: locale, label: t(`languages.${locale}`) }))}
    />
  );
}
