import { Spinner } from '@blueprintjs/core';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { loadingOverlay } from './loading-overlay.store';

/**
 * The loading overlay (spec section 7). It dims the page and shows a spinner but lets clicks
 * through: a slow call should be visible, not lock the user out of the screen.
 */
export function LoadingOverlay() {
  const { t } = useTranslation();
  const visible = useSyncExternalStore(loadingOverlay.subscribe, loadingOverlay.isVisible);
  if (!visible) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="polite" data-testid="loading-overlay">
      <Spinner size={40} aria-label={t('common.loading')} />
    </div>
  );
}
