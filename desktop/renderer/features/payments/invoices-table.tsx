import { AnchorButton, HTMLTable, NonIdealState, Tag } from '@blueprintjs/core';
import type { Invoice } from '@shared/schemas/payments';
import { useTranslation } from 'react-i18next';
import { formatDay, formatMoney, STATUS_INTENT } from './invoice-format';

/**
 * Charges with their status and, while unpaid, the provider's pages to pay them: the payment
 * link (invoiceUrl: bank slip, Pix or card) and the bank slip itself. Opened in a new tab.
 */
export function InvoicesTable({ invoices, showTenant = false, testId = 'invoices' }: { invoices: readonly Invoice[]; showTenant?: boolean; testId?: string }) {
  const { t } = useTranslation();
  if (invoices.length === 0) {
    return <NonIdealState icon="dollar" title={t('payments.noInvoices')} data-testid={`${testId}-empty`} />;
  }
  return (
    <HTMLTable striped compact className="crud-table" data-testid={testId}>
      <thead>
        <tr>
          {showTenant ? <th>{t('payments.tenant')}</th> : null}
          <th>{t('payments.dueDate')}</th>
          <th>{t('payments.value')}</th>
          <th>{t('payments.statusLabel')}</th>
          <th>{t('payments.paidAt')}</th>
          <th>{t('payments.description')}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {invoices.map((invoice) => (
          <tr key={invoice.id} data-testid={`${testId}-row-${invoice.id}`}>
            {showTenant ? <td>{invoice.tenantName ?? invoice.tenantId}</td> : null}
            <td>{formatDay(invoice.dueDate)}</td>
            <td>{formatMoney(invoice.value)}</td>
            <td>
              <Tag intent={STATUS_INTENT[invoice.status]} minimal data-testid={`${testId}-status-${invoice.id}`}>
                {t(`payments.status.${invoice.status}`)}
              </Tag>
            </td>
            <td>{invoice.paidAt ? formatDay(invoice.paidAt) : '—'}</td>
            <td>{invoice.description ?? ''}</td>
            <td className="crud-col-actions">
              {invoice.status !== 'paid' && invoice.invoiceUrl ? (
                <AnchorButton
                  small
                  intent="primary"
                  icon="credit-card"
                  text={t('payments.pay')}
                  href={invoice.invoiceUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid={`${testId}-pay-${invoice.id}`}
                />
              ) : null}{' '}
              {invoice.status !== 'paid' && invoice.bankSlipUrl ? (
                <AnchorButton
                  small
                  minimal
                  icon="document"
                  text={t('payments.bankSlip')}
                  href={invoice.bankSlipUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid={`${testId}-slip-${invoice.id}`}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
