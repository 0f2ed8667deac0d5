import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** Active / inactive, as every catalog list shows it. */
export function ActiveTag({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag minimal round intent={active ? 'success' : 'none'} icon={active ? 'tick' : 'disable'}>
      {active ? t('crud.activeState') : t('crud.inactiveState')}
    </Tag>
  );
}
