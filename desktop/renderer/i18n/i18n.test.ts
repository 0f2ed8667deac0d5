import { describe, expect, it } from 'vitest';
import { bundlesFor, changeAppLanguage, createI18n } from './i18n';

/** Only the chosen language's translations are loaded, with the locales it falls back to. */
describe('locale loading', () => {
  it('loads pt-br alone, and any other language with its fallback chain', () => {
    expect(bundlesFor('pt-br')).toEqual(['pt-br']);
    expect(bundlesFor('pt')).toEqual(['pt', 'pt-br', 'en']);
    expect(bundlesFor('es-419')).toEqual(['es-419', 'es', 'en']);
    expect(bundlesFor('de')).toEqual(['de', 'en']);
    expect(bundlesFor('en-us')).toEqual(['en-us', 'en']);
  });

  it('starts with only the bundles of the language, and fetches a new one on a change', async () => {
    const i18n = await createI18n('pt-br');
    expect(i18n.hasResourceBundle('pt-br', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
    expect(i18n.t('auth.loginRequired')).toBe('Necessário realizar login');

    await changeAppLanguage(i18n, 'de');
    expect(i18n.language).toBe('de');
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(true);
    // A text German lacks comes from the English fallback, loaded with it.
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.t('menu.dashboard')).toBe('Übersicht');
    expect(i18n.t('menu.ticketPanel')).toBe('Ticket panel');

    await changeAppLanguage(i18n, 'pt-br');
    expect(i18n.t('auth.loginRequired')).toBe('Necessário realizar login');
  });

  it('shows a Portugal user the pt-br text where pt lacks one, never English', async () => {
    const i18n = await createI18n('pt');
    expect(i18n.t('auth.loginRequired')).toBe('É necessário iniciar sessão');
    expect(i18n.t('menu.ticketPanel')).toBe('Painel de atendimentos');
  });
});
