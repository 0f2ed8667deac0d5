import { Callout, FormGroup, H5, HTMLSelect, Spinner } from '@blueprintjs/core';
import { PAYMENT_STATUSES, type PaymentStatus } from '@shared/schemas/payments';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetPaymentConfigQuery, useListAllInvoicesQuery, useListBillableTenantsQuery } from '../../api/payments.api';
import { PageHeader } from '../../app/layout/page-header';
import { CreateInvoiceForm } from './create-invoice-form';
import { InvoicesTable } from './invoices-table';
import { PaymentConfigForm } from './payment-config-form';
import './payments.css';

/** /pagamentostenants (super administrator): the provider, new charges, every tenant's charges by status. */
export function TenantPaymentsPage() {
  const { t } = useTranslation();
  const config = useGetPaymentConfigQuery();
  const tenants = useListBillableTenantsQuery();
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const [tenantId, setTenantId] = useState('');
  const invoices = useListAllInvoicesQuery({ ...(status ? { status } : {}), ...(tenantId ? { tenantId: Number(tenantId) } : {}) });

  return (
    <section className="crud-page" data-testid="tenant-payments-page">
      <PageHeader title={t('routes.pagamentostenants')} description={t('payments.adminDescription')} />
      <div className="payments-cards">
        {config.data ? <PaymentConfigForm config={config.data} /> : <Spinner size={20} />}
        <CreateInvoiceForm />
      </div>
      <H5 className="payments-section-title">{t('payments.invoices')}</H5>
      <div className="payments-filters">
        <FormGroup label={t('payments.statusLabel')} inline>
          <HTMLSelect value={status} onChange={(e) => setStatus(e.currentTarget.value as PaymentStatus | '')} data-testid="invoices-filter-status">
            <option value="">{t('payments.allStatuses')}</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`payments.status.${s}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('payments.tenant')} inline>
          <HTMLSelect value={tenantId} onChange={(e) => setTenantId(e.currentTarget.value)} data-testid="invoices-filter-tenant">
            <option value="">{t('payments.allTenants')}</option>
            {(tenants.data ?? []).map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </div>
      {invoices.isError ? <Callout intent="danger">{t('payments.loadFailed')}</Callout> : null}
      {invoices.isLoading ? <Spinner /> : <InvoicesTable invoices={invoices.data ?? []} showTenant testId="all-invoices" />}
    </section>
  );
}
