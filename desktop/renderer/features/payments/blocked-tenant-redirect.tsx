import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../app/store-hooks';

export const BLOCKED_TENANT_PATH = '/configuracoesbloqueio';

/**
 * A call answered ERR_ASAAS_OVERDUE marks the tenant blocked (app-base-query.ts); from then on
 * the only screen is the blocked menu's, where the invoices are paid.
 */
export function BlockedTenantRedirect() {
  const blocked = useAppSelector((state) => state.session.tenantBlocked);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (blocked && pathname !== BLOCKED_TENANT_PATH) navigate(BLOCKED_TENANT_PATH, { replace: true });
  }, [blocked, pathname, navigate]);
  return null;
}
