import { Button, Callout, H5, Spinner } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useGetSubscriptionQuery } from '../../api/payments.api';
import { PageHeader } from '../../app/layout/page-header';
import { landingPathFor } from '../../app/routing/guards';
import { tenantBlockedChanged } from '../../app/session/session.slice';
import { useAppDispatch, useAppSelector } from '../../app/store-hooks';
import { InvoicesTable } from './invoices-table';
import './payments.css';

/** While blocked, how often the administrator's screen asks whether the payment arrived. */
const PAYMENT_POLL_MS = 5_000;

/**
 * /configuracoesbloqueio, the blocked-tenant menu's one screen (spec section 2): why the
 * company is blocked and, for its administrators, the unpaid invoices to pay. The provider's
 * confirmation unblocks the tenant on the server at once; this screen notices it and brings the
 * full menu back.
 */
export function BlockedSettingsPage() {
  const { t } = useTranslation();
  const profile = useAppSelector((state) => state.session.profile);
  return (
    <section className="crud-page" data-testid="blocked-settings-page">
      <PageHeader title={t('routes.configuracoesbloqueio')} />
      {profile === 'admin' ? (
        <AdminBlockedView />
      ) : (
        <>
          <Callout intent="danger" icon="lock" data-testid="blocked-explanation">
            {t('payments.blockedAskAdmin')}
          </Callout>
          <Button className="payments-retry" icon="refresh" text={t('payments.checkAgain')} onClick={() => window.location.reload()} />
        </>
      )}
    </section>
  );
}

function AdminBlockedView() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { profile, tenantBlocked } = useAppSelector((state) => state.session);
  const { data, isLoading } = useGetSubscriptionQuery(undefined, { pollingInterval: PAYMENT_POLL_MS, refetchOnMountOrArgChange: true });

  useEffect(() => {
    if (!data) return;
    if (data.blocked !== tenantBlocked) dispatch(tenantBlockedChanged(data.blocked));
    if (!data.blocked && tenantBlocked) navigate(landingPathFor(profile), { replace: true });
  }, [data, tenantBlocked, dispatch, navigate, profile]);

  if (isLoading || !data) return <Spinner />;
  const unpaid = data.invoices.filter((invoice) => invoice.status !== 'paid');
  return (
    <>
      <Callout intent={data.blocked ? 'danger' : 'success'} icon={data.blocked ? 'lock' : 'unlock'} data-testid="blocked-explanation">
        {data.blocked ? t('payments.blockedExplanation', { days: data.graceDays }) : t('payments.notBlocked')}
      </Callout>
      <H5 className="payments-section-title">{t('payments.openInvoices')}</H5>
      <InvoicesTable invoices={unpaid} testId="blocked-invoices" />
    </>
  );
}
