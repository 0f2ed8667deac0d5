import { BlueprintProvider } from '@blueprintjs/core';
import type { i18n as I18n } from 'i18next';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { BrandingEffects } from '../features/white-label/branding-effects';
import { LoadingOverlay } from './feedback/loading-overlay';
import type { AppRouter } from './routing/router';
import { SessionEffects } from './session/session-effects';
import type { AppStore } from './store';

export function App({ store, router, i18n }: { store: AppStore; router: AppRouter; i18n: I18n }) {
  return (
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <BlueprintProvider>
            <SessionEffects />
            <BrandingEffects />
            <RouterProvider router={router} />
            <LoadingOverlay />
          </BlueprintProvider>
        </I18nextProvider>
      </Provider>
    </StrictMode>
  );
}
