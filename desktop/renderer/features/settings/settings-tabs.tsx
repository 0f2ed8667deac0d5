import { useTranslation } from 'react-i18next';
import { SubNav, type SubNavItem } from '../../app/crud/sub-nav';

/**
 * The settings screens that exist so far (/configuracoes/...). The other children of the route
 * table keep their "not available yet" page and get a tab when they are built.
 */
const SETTINGS_TABS: SubNavItem[] = [
  { to: '/configuracoes/geral', labelKey: 'settings.tabs.general', testId: 'settings-tab-geral' },
  { to: '/configuracoes/lanes', labelKey: 'settings.tabs.lanes', testId: 'settings-tab-lanes' },
  { to: '/configuracoes/motivos', labelKey: 'settings.tabs.demands', testId: 'settings-tab-motivos' },
];

export function SettingsTabs() {
  const { t } = useTranslation();
  return <SubNav items={SETTINGS_TABS} ariaLabel={t('settings.tabs.ariaLabel')} />;
}
