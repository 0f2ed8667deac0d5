import { Alignment, Button, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { useLogoutMutation } from '../../api/auth.api';
import { useSetUserOnlineMutation } from '../../api/users.api';
import { DarkModeToggle } from '../../features/preferences/dark-mode-toggle';
import { LanguageSelect } from '../../features/preferences/language-select';
import { ConnectionBanner } from '../connection/connection-banner';
import { endSession } from '../session/session-controller';
import { useAppSelector } from '../store-hooks';
import { AppMenu } from './app-menu';

/** The shell around every signed-in screen: top bar, profile menu and the routed page. */
export function MainLayout() {
  const { t } = useTranslation();
  const { username, profile, userId } = useAppSelector((state) => state.session);
  const [logout, { isLoading }] = useLogoutMutation();
  const [setOnline] = useSetUserOnlineMutation();

  // Offline first (while the token still works), then the server revokes the session.
  const signOut = () =>
    endSession(async () => {
      if (userId !== null) await setOnline({ id: userId, isOnline: false }).catch(() => undefined);
      await logout().unwrap();
    });

  return (
    <div className="main-layout">
      <Navbar className="app-navbar">
        <NavbarGroup align={Alignment.START}>
          <NavbarHeading className="app-brand">{t('app.name')}</NavbarHeading>
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          {username ? (
            <span className="app-user" data-testid="current-user">
              {username}
              {profile ? (
                <Tag minimal round className="app-user-profile" data-testid="current-profile">
                  {t(`profiles.${profile}`)}
                </Tag>
              ) : null}
            </span>
          ) : null}
          <NavbarDivider />
          <LanguageSelect minimal />
          <DarkModeToggle />
          <Button
            variant="minimal"
            icon="log-out"
            text={t('auth.logout')}
            loading={isLoading}
            onClick={() => void signOut()}
            data-testid="logout"
          />
        </NavbarGroup>
      </Navbar>
      <ConnectionBanner />
      <div className="main-body">
        <AppMenu />
        <main className="main-content" id="main-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
