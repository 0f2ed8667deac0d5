import { Button, Card, Code, H5, Tag } from '@blueprintjs/core';
import { PAYMENT_PROVIDER_DEFAULT_BASE_URL, PaymentConfigSchema, type PaymentConfig } from '@shared/schemas/payments';
import { useTranslation } from 'react-i18next';
import { useUpdatePaymentConfigMutation } from '../../api/payments.api';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';

const FIELDS = ['baseUrl', 'apiKey', 'webhookToken', 'graceDays'] as const;
/** The provider posts payment events here (payments.routes.ts). */
const WEBHOOK_PATH = '/subscription/whazing/webhook';

/**
 * The payment provider (Asaas-compatible): API address, API key, the webhook's token and the
 * grace days before an overdue tenant is blocked. The secrets are write-only: blank keeps them.
 */
export function PaymentConfigForm({ config }: { config: PaymentConfig }) {
  const { t } = useTranslation();
  const [save, saving] = useUpdatePaymentConfigMutation();
  const form = useZodForm(PaymentConfigSchema, {
    baseUrl: config.baseUrl || PAYMENT_PROVIDER_DEFAULT_BASE_URL,
    apiKey: '',
    webhookToken: '',
    graceDays: String(config.graceDays),
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await save(values).unwrap();
      form.reset({ ...form.getValues(), apiKey: '', webhookToken: '' });
      showToast(t('payments.configSaved'), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });
  const secretHelp = (set: boolean) => (set ? t('payments.secretSet') : t('payments.secretMissing'));
  return (
    <Card className="payments-card" data-testid="payment-config">
      <H5>
        {t('payments.providerTitle')}{' '}
        <Tag minimal intent={config.apiKeySet ? 'success' : 'warning'} data-testid="payment-config-state">
          {config.apiKeySet ? t('payments.configured') : t('payments.notConfigured')}
        </Tag>
      </H5>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField control={form.control} name="baseUrl" label={t('payments.baseUrl')} required type="url" />
        <TextField control={form.control} name="apiKey" label={t('payments.apiKey')} type="password" helperText={secretHelp(config.apiKeySet)} />
        <TextField
          control={form.control}
          name="webhookToken"
          label={t('payments.webhookToken')}
          type="password"
          helperText={
            <>
              {secretHelp(config.webhookTokenSet)} {t('payments.webhookUrl')} <Code>{`${currentApiBaseUrl()}${WEBHOOK_PATH}`}</Code>
            </>
          }
        />
        <TextField control={form.control} name="graceDays" label={t('payments.graceDays')} required helperText={t('payments.graceDaysHelp')} />
        <FormErrorSummary control={form.control} testId="payment-config-summary" />
        <Button type="submit" intent="primary" icon="floppy-disk" text={t('crud.save')} loading={saving.isLoading} data-testid="payment-config-save" />
      </form>
    </Card>
  );
}
