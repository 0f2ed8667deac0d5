import { Button, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** Unknown paths (spec section 2): a not-found page with a back button. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // React Router numbers history entries; at the first entry there is nothing to go back to.
  const canGoBack = typeof window !== 'undefined' && ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <div className="page page-centered" data-testid="not-found">
      <NonIdealState
        icon="search"
        title={t('notFound.title')}
        description={t('notFound.description')}
        action={
          <Button
            intent="primary"
            icon="arrow-left"
            text={t('notFound.back')}
            onClick={() => (canGoBack ? navigate(-1) : navigate('/', { replace: true }))}
            data-testid="not-found-back"
          />
        }
      />
    </div>
  );
}
