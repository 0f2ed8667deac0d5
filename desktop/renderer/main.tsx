import './app/zod-without-eval';
import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { Classes } from '@blueprintjs/core';
import { IconNames, Icons, IconSize } from '@blueprintjs/icons';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE } from '@shared/i18n/locales';
import '@shared/schemas/zod-locale';
import { baseApi } from './api/base.api';
import { App } from './app/app';
import { disconnectRealtime } from './app/realtime/realtime-connection';
import { createAppRouter } from './app/routing/router';
import { appStorage } from './app/session/app-storage';
import { configureSessionController } from './app/session/session-controller';
import { createAppStore } from './app/store';
import { applyCssVariables, isCssColor, toCssVariables } from './app/theme/system-colors';
import { createI18n } from './i18n/i18n';
import { setAppI18n } from './i18n/i18n-instance';

async function start() {
  const language = appStorage.readLanguage() ?? DEFAULT_LOCALE;
  // The standard-size icon paths (one chunk) arrive with the translations, so the first screen
  // draws its menu and buttons complete; large icons load when first shown.
  // Large icons of the full-page states, fetched early but not waited for.
  void Icons.load(['build', 'search', 'error', 'warning-sign'], IconSize.LARGE).catch(() => undefined);
  const [i18n] = await Promise.all([
    createI18n(language, [initReactI18next]),
    Icons.load(Object.values(IconNames), IconSize.STANDARD).catch((error: unknown) => console.error(error)),
  ]);
  setAppI18n(i18n);
  document.documentElement.lang = language;
  document.title = i18n.t('app.name');

  // Last known white-label colours and theme first, so the page does not flash the defaults.
  applyCssVariables(toCssVariables(appStorage.readStoredColors(), isCssColor), document.documentElement);
  const session = appStorage.readSession();
  document.body.classList.toggle(Classes.DARK, session?.isDark === true);

  const store = createAppStore();
  const router = createAppRouter();
  configureSessionController({
    dispatch: store.dispatch,
    navigate: (path) => void router.navigate(path),
    disconnectRealtime,
    resetApiCache: () => store.dispatch(baseApi.util.resetApiState()),
  });

  createRoot(document.getElementById('root')!).render(<App store={store} router={router} i18n={i18n} />);
}

void start();
