import { Button, Card, H5 } from '@blueprintjs/core';
import { CreateInvoiceSchema } from '@shared/schemas/payments';
import { useTranslation } from 'react-i18next';
import { useCreateInvoiceMutation, useListBillableTenantsQuery } from '../../api/payments.api';
import { showToast } from '../../app/feedback/toaster';
import { DateField, FormErrorSummary, SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { formatMoney } from './invoice-format';

const FIELDS = ['tenantId', 'dueDate', 'value', 'description'] as const;

/** A new charge for a tenant, of its plan's value, created at the provider. */
export function CreateInvoiceForm() {
  const { t } = useTranslation();
  const tenants = useListBillableTenantsQuery();
  const [create, creating] = useCreateInvoiceMutation();
  const form = useZodForm(CreateInvoiceSchema, { tenantId: '', dueDate: '', value: '', description: '' });
  const submit = form.handleSubmit(async (values) => {
    try {
      await create(values).unwrap();
      form.reset({ tenantId: '', dueDate: '', value: '', description: '' });
      showToast(t('payments.invoiceCreated'), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });
  const options = (tenants.data ?? []).map((tenant) => ({
    value: String(tenant.id),
    label: `${tenant.name} — ${tenant.planName ? `${tenant.planName} (${formatMoney(tenant.planValue ?? 0)})` : t('payments.noPlan')}`,
  }));
  return (
    <Card className="payments-card" data-testid="create-invoice">
      <H5>{t('payments.newInvoice')}</H5>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <SelectField control={form.control} name="tenantId" label={t('payments.tenant')} required options={options} emptyLabel={t('payments.chooseTenant')} />
        <DateField control={form.control} name="dueDate" label={t('payments.dueDate')} required />
        <TextField control={form.control} name="value" label={t('payments.value')} helperText={t('payments.valueHelp')} />
        <TextField control={form.control} name="description" label={t('payments.description')} maxLength={500} />
        <FormErrorSummary control={form.control} testId="create-invoice-summary" />
        <Button type="submit" intent="primary" icon="add" text={t('payments.createInvoice')} loading={creating.isLoading} data-testid="create-invoice-submit" />
      </form>
    </Card>
  );
}
