import { Menu, MenuDivider, MenuItem, type IconName } from '@blueprintjs/core';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ChatMenuBadge } from '../../features/internal-chat/chat-menu-badge';
import { isRedundantChatNavigation, opensInNewTab } from '../routing/guards';
import { menuFor } from '../routing/menus';
import { useAppSelector } from '../store-hooks';

/** The side menu for the signed-in profile (spec section 2, "Menus by profile"). */
export function AppMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { profile, tenantBlocked } = useAppSelector((state) => state.session);
  const sections = menuFor(profile, { tenantBlocked });

  const follow = (to: string) => (event: MouseEvent<HTMLElement>) => {
    event.preventDefault();
    if (opensInNewTab(event)) {
      // Hash routing: the new tab gets the same page with the target after the '#'.
      window.open(`${location.pathname}${location.search}#${to}`, '_blank', 'noopener');
      return;
    }
    // Clicking the current page again must not stack duplicate history entries.
    if (pathname === to || isRedundantChatNavigation(pathname, to)) return;
    navigate(to);
  };

  return (
    <nav className="app-menu" aria-label={t('menu.ariaLabel')} data-testid="app-menu">
      <Menu>
        {sections.map((section, index) => (
          <div key={section.id} data-testid={`menu-section-${section.id}`}>
            {index > 0 ? <MenuDivider /> : null}
            <MenuDivider title={t(section.titleKey)} />
            {section.items.map((item) => (
              <MenuItem
                key={item.id}
                href={`#${item.to}`}
                icon={item.icon as IconName}
                text={t(item.labelKey)}
                labelElement={item.id === 'privateChat' ? <ChatMenuBadge /> : undefined}
                active={pathname === item.to || pathname.startsWith(`${item.to}/`)}
                onClick={follow(item.to)}
                onAuxClick={follow(item.to)}
                data-testid={`menu-${item.id}`}
              />
            ))}
          </div>
        ))}
      </Menu>
    </nav>
  );
}
