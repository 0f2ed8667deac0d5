import { Button, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/** A render error inside a route: say so and offer a reload instead of a blank page. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="page page-centered">
      <NonIdealState
        icon="error"
        title={t('common.unexpectedError')}
        action={<Button icon="refresh" text={t('common.reload')} onClick={() => window.location.reload()} />}
      />
    </div>
  );
}
