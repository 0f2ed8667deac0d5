import { Alert, Alignment, Button, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { useLogoutMutation } from '../../api/auth.api';
import { useSetUserOnlineMutation } from '../../api/users.api';
import { BlockedTenantRedirect } from '../../features/payments/blocked-tenant-redirect';
import { DarkModeToggle } from '../../features/preferences/dark-mode-toggle';
import { DesktopMediaBudget } from '../../features/preferences/desktop-media-budget';
import { LanguageSelect } from '../../features/preferences/language-select';
import { NotificationBell } from '../../features/notifications/notification-bell';
import { BrandHeading } from '../../features/white-label/brand-heading';
import { ConnectionBanner } from '../connection/connection-banner';
import { SupportBanner } from '../../features/platform-tenants/support-banner';
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

  // Desktop: a logout wipes the local cache and the outbox with it; unsent actions are asked about first.
  const [unsent, setUnsent] = useState<number | null>(null);
  const requestSignOut = async () => {
    const desktop = window.desktop;
    if (desktop) {
      const { unsentOutboxCount } = await import('../../desktop-offline/install-desktop-offline');
      const count = await unsentOutboxCount(desktop);
      if (count > 0) {
        setUnsent(count);
        return;
      }
    }
    await signOut();
  };

  return (
    <div className="main-layout">
      <Navbar className="app-navbar">
        <NavbarGroup align={Alignment.START}>
          <NavbarHeading className="app-brand">
            <BrandHeading />
          </NavbarHeading>
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
          <NotificationBell />
          <DesktopMediaBudget />
          <LanguageSelect minimal />
          <DarkModeToggle />
          <Button
            variant="minimal"
            icon="log-out"
            text={t('auth.logout')}
            loading={isLoading}
            onClick={() => void requestSignOut()}
            data-testid="logout"
          />
        </NavbarGroup>
      </Navbar>
      <ConnectionBanner />
      <SupportBanner />
      <Alert
        isOpen={unsent !== null}
        intent="danger"
        icon="warning-sign"
        cancelButtonText={t('common.cancel')}
        confirmButtonText={t('connection.logoutAnyway')}
        onCancel={() => setUnsent(null)}
        onConfirm={() => {
          setUnsent(null);
          void signOut();
        }}
      >
        <p data-testid="logout-unsent">{t('connection.logoutUnsent', { count: unsent ?? 0 })}</p>
      </Alert>
      <div className="main-body">
        <AppMenu />
        <main className="main-content" id="main-content">
          <BlockedTenantRedirect />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
