import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/**
 * What a registered route shows until its feature is built: its title and a plain statement
 * that the screen is not available yet. Never a fake screen.
 */
export function UnderConstructionPage({ routeId }: { routeId: string }) {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="under-construction" data-route-id={routeId}>
      <NonIdealState icon="build" title={t(`routes.${routeId}`)} description={t('common.underConstruction')} />
    </div>
  );
}
