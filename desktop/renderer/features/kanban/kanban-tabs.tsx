import { useTranslation } from 'react-i18next';
import { SubNav, type SubNavItem } from '../../app/crud/sub-nav';

/** /kanban children (spec section 2): the columns and the tags board. */
const KANBAN_TABS: SubNavItem[] = [
  { to: '/kanban/kanbans', labelKey: 'kanban.tabs.columns', testId: 'kanban-tab-kanbans' },
  { to: '/kanban/tags', labelKey: 'kanban.tabs.tags', testId: 'kanban-tab-tags' },
];

export function KanbanTabs() {
  const { t } = useTranslation();
  return <SubNav items={KANBAN_TABS} ariaLabel={t('kanban.tabs.ariaLabel')} />;
}
