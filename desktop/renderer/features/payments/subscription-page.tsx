import { Callout, Card, H5, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useGetSubscriptionQuery } from '../../api/payments.api';
import { PageHeader } from '../../app/layout/page-header';
import { useAppSelector } from '../../app/store-hooks';
import { LicencePanel } from '../licence/licence-panel';
import { formatMoney } from './invoice-format';
import { InvoicesTable } from './invoices-table';
import './payments.css';

/**
 * /assinatura: the super administrator's platform licence; a tenant administrator's
 * subscription (plan and invoices, each payable on the provider's pages).
 */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const profile = useAppSelector((state) => state.session.profile);
  return (
    <section className="crud-page" data-testid="subscription-page">
      <PageHeader title={t('routes.assinatura')} description={profile === 'superadmin' ? t('licence.description') : t('payments.subscriptionDescription')} />
      {profile === 'superadmin' ? <LicencePanel /> : <TenantSubscription />}
    </section>
  );
}

function TenantSubscription() {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useGetSubscriptionQuery();
  if (isLoading) return <Spinner />;
  if (isError || !data) return <Callout intent="danger">{t('payments.loadFailed')}</Callout>;
  return (
    <>
      <Card className="payments-card" data-testid="subscription-plan">
        <H5>{t('payments.plan')}</H5>
        {data.plan ? (
          <p>
            {data.plan.name} — {formatMoney(data.plan.value)}
          </p>
        ) : (
          <p>{t('payments.noPlan')}</p>
        )}
        {data.blocked ? (
          <Callout intent="danger" icon="lock">
            {t('payments.blockedExplanation', { days: data.graceDays })}
          </Callout>
        ) : null}
      </Card>
      <H5>{t('payments.invoices')}</H5>
      <InvoicesTable invoices={data.invoices} testId="subscription-invoices" />
    </>
  );
}
