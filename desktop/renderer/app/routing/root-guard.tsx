import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { showToast } from '../feedback/toaster';
import { appStorage } from '../session/app-storage';
import { decideNavigation } from './guards';

/**
 * Runs the guards before each navigation (the anchor's router.beforeEach). It decides from the
 * stored session at navigation time only: after a 401 the current page stays for the 2 s the
 * session flow gives the user to read the message.
 */
export function RootGuard() {
  const { t } = useTranslation();
  const location = useLocation();
  const decision = useMemo(() => {
    const session = appStorage.readSession();
    return decideNavigation(location, { token: session?.token ?? null, profile: session?.profile ?? null });
    // Decide once per navigation (location.key), not on every render.
  }, [location.key, location.pathname, location.search]);

  const messageKey = decision.kind === 'redirect' ? decision.messageKey : undefined;
  useEffect(() => {
    if (messageKey) showToast(t(messageKey), 'warning');
  }, [messageKey, location.key, t]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}
