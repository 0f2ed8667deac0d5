import { Button, Callout } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { appStorage } from '../../app/session/app-storage';
import { useAppSelector } from '../../app/store-hooks';
import { forgetSupportAccess, leaveSupportAccess, readSupportAccess } from './support-access';

const endOnServer = () =>
  fetch(`${currentApiBaseUrl()}/support-sessions/current`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${appStorage.readToken() ?? ''}` },
  });

const mmss = (ms: number) => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

/**
 * "Acesso de suporte à empresa X — termina em mm:ss" with an exit button, above every screen of
 * a support access; at zero it leaves by itself (the server refuses the token from then on).
 */
export function SupportBanner() {
  const { t } = useTranslation();
  const userId = useAppSelector((state) => state.session.userId);
  const [access] = useState(readSupportAccess);
  const [now, setNow] = useState(() => Date.now());
  const current = access && access.userId === userId ? access : null;
  useEffect(() => {
    // A leftover of an access that ended elsewhere (another login since) is dropped.
    if (access && userId !== null && access.userId !== userId) forgetSupportAccess();
  }, [access, userId]);
  useEffect(() => {
    if (!current) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [current]);
  const left = current ? new Date(current.expiresAt).getTime() - now : 0;
  useEffect(() => {
    if (current && left <= 0) void leaveSupportAccess(endOnServer);
  }, [current, left]);
  if (!current) return null;
  return (
    <Callout intent="warning" icon="eye-open" className="support-banner" data-testid="support-banner">
      {t('platformTenants.supportBanner', { name: current.tenantName, time: mmss(left) })}{' '}
      <Button size="small" intent="warning" text={t('platformTenants.supportExit')} onClick={() => void leaveSupportAccess(endOnServer)} data-testid="support-exit" />
    </Callout>
  );
}
