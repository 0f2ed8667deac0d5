import './app/zod-without-eval';
import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { Classes } from '@blueprintjs/core';
import { IconNames, Icons, IconSize } from '@blueprintjs/icons';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE } from '@shared/i18n/locales';
import '@shared/schemas/zod-locale';
import { baseApi } from './api/base.api';
import { App } from './app/app';
import { installIconLoader } from './app/icon-loader';
import { disconnectRealtime } from './app/realtime/realtime-connection';
import { markAppStarted } from './app/early/early-requests';
import { deepLinkRoute } from './app/routing/deep-link-route';
import { openingRouteId } from './app/routing/opening-route';
import { preloadRouteScreen } from './app/routing/route-screens';
import { createAppRouter } from './app/routing/router';
import { appStorage } from './app/session/app-storage';
import { configureSessionController } from './app/session/session-controller';
import { createAppStore } from './app/store';
import { applyCssVariables, isCssColor, toCssVariables } from './app/theme/system-colors';
import { prefetchDashboard } from './features/dashboard/dashboard-prefetch';
import { createI18n } from './i18n/i18n';
import { setAppI18n } from './i18n/i18n-instance';

/**
 * The screen the app is opening starts loading now, beside the translations and icons, instead
 * of after the first render.
 */
function preloadOpeningScreen(): string | null {
  const routeId = openingRouteId();
  if (routeId) void preloadRouteScreen(routeId);
  return routeId;
}

/**
 * Lets the browser run other tasks (network answers, a paint) before going on: start-up is cut
 * into tasks of tens of milliseconds instead of one of 200+ (issue #13, no start-up task over
 * 200 ms).
 */
const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

async function start() {
  // Start-up marks (the console benchmark prints them): scripts evaluated, first render asked.
  performance.mark('app:start');
  markAppStarted();
  const openingRoute = preloadOpeningScreen();
  // The store, the router and the session controller need no translations: creating them first
  // lets the opening screen's calls leave beside the translations (issue #13, start-up).
  const store = createAppStore();
  await nextTask();
  // The dashboard's calls first (its period reads the tenant's time zone: the first use of a
  // time zone costs tens of milliseconds), then the router in a task of its own.
  if (openingRoute === 'home' && store.getState().session.token) prefetchDashboard(store.dispatch);
  await nextTask();
  const router = createAppRouter();
  // The desktop's `atende://` links (main holds them until this listener exists: a cold start
  // from a link lands on its screen).
  window.desktop?.onDeepLink((link) => {
    const to = deepLinkRoute(link);
    if (to) void router.navigate(to);
  });
  configureSessionController({
    dispatch: store.dispatch,
    navigate: (path) => void router.navigate(path),
    disconnectRealtime,
    resetApiCache: () => store.dispatch(baseApi.util.resetApiState()),
  });
  // The desktop's local cache, sync and outbox (issue #15): a chunk of its own, never loaded by the web app.
  const desktop = window.desktop;
  if (desktop)
    void import('./desktop-offline/install-desktop-offline')
      .then(({ installDesktopOffline }) => installDesktopOffline(store, desktop))
      .catch((error: unknown) => console.error(error));
  const language = appStorage.readLanguage() ?? DEFAULT_LOCALE;
  // Icons load beside the first render instead of before it: the first screen is built while
  // the icon paths (one chunk per size, 300 KB) and the opening screen's data are on the way (the
  // main thread used to sit idle for them), and each icon the screen shows loads itself and
  // fills in a few frames later. The rest of the standard size is registered when the browser is
  // idle (below), so later screens draw theirs at once.
  installIconLoader();
  const i18n = await createI18n(language, [initReactI18next]);
  setAppI18n(i18n);
  document.documentElement.lang = language;
  document.title = i18n.t('app.name');

  // Last known white-label colours and theme first, so the page does not flash the defaults.
  applyCssVariables(toCssVariables(appStorage.readStoredColors(), isCssColor), document.documentElement);
  const session = appStorage.readSession();
  document.body.classList.toggle(Classes.DARK, session?.isDark === true);

  // Rendered as a transition: React yields to the browser every few milliseconds while it builds
  // the first screen, so start-up has no long task of its own (issue #13, under 200 ms).
  performance.mark('app:render');
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => root.render(<App store={store} router={router} i18n={i18n} />));

  // Large icons of the full-page states (empty lists, errors): fetched once the first screen is
  // up, so their chunk does not compete with it.
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1500));
  idle(
    () => {
      void Icons.load(Object.values(IconNames), IconSize.STANDARD).catch((error: unknown) => console.error(error));
      void Icons.load(['build', 'search', 'error', 'warning-sign'], IconSize.LARGE).catch(() => undefined);
    },
    { timeout: 4000 },
  );
}

void start();
