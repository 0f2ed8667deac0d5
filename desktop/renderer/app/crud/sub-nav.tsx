import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export interface SubNavItem {
  to: string;
  labelKey: string;
  testId: string;
}

/** Links between sibling screens (kanban columns / tags board, settings tabs) as a tab strip. */
export function SubNav({ items, ariaLabel }: { items: SubNavItem[]; ariaLabel: string }) {
  const { t } = useTranslation();
  return (
    <nav className="crud-tabs" aria-label={ariaLabel}>
      {items.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          className={({ isActive }) => (isActive ? 'crud-tab is-active' : 'crud-tab')}
          data-testid={item.testId}
        >
          {t(item.labelKey)}
        </NavLink>
      ))}
    </nav>
  );
}
