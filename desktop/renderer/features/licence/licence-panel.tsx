import { Button, Callout, Card, H5, Spinner, Tag } from '@blueprintjs/core';
import { ActivateLicenceSchema } from '@shared/schemas/licence';
import { useTranslation } from 'react-i18next';
import { useActivateLicenceMutation, useGetLicenceQuery } from '../../api/licence.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';

const FIELDS = ['email', 'key'] as const;

/** The platform licence: its state, and activation with e-mail and key (one attempt a minute). */
export function LicencePanel() {
  const { t, i18n } = useTranslation();
  const licence = useGetLicenceQuery();
  const [activate, activating] = useActivateLicenceMutation();
  const form = useZodForm(ActivateLicenceSchema, { email: '', key: '' });
  const submit = form.handleSubmit(async (values) => {
    try {
      await activate(values).unwrap();
      form.reset({ email: '', key: '' });
      showToast(t('licence.activated'), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
      void licence.refetch();
    }
  });
  if (licence.isLoading) return <Spinner />;
  const data = licence.data;
  const status = data?.status ?? null;
  return (
    <Card className="payments-card" data-testid="licence-panel">
      <H5>
        {t('licence.title')}{' '}
        <Tag intent={status === 'active' ? 'success' : status === 'validating' ? 'primary' : 'warning'} data-testid="licence-status">
          {t(`licence.status.${status ?? 'none'}`)}
        </Tag>
      </H5>
      {data?.email ? (
        <p data-testid="licence-current">
          {t('licence.email')}: {data.email} · {t('licence.key')}: {data.keyHint}
          {data.activatedAt ? ` · ${t('licence.activatedAt')} ${new Date(data.activatedAt).toLocaleString(i18n.language)}` : ''}
        </p>
      ) : (
        <Callout intent="warning">{t('licence.none')}</Callout>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField control={form.control} name="email" label={t('licence.email')} required />
        <TextField control={form.control} name="key" label={t('licence.key')} required placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX" />
        <FormErrorSummary control={form.control} testId="licence-summary" />
        <Button type="submit" intent="primary" icon="key" text={t('licence.activate')} loading={activating.isLoading} data-testid="licence-activate" />
        {data?.nextActivationAt ? (
          <p className="bp6-text-muted" data-testid="licence-next">
            {t('licence.nextActivation', { time: new Date(data.nextActivationAt).toLocaleTimeString(i18n.language) })}
          </p>
        ) : null}
      </form>
    </Card>
  );
}
