import { Button, Card, FormGroup, H5, HTMLSelect, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { RATING_LABELS } from '@shared/limits';
import {
  RATING_MAX_ATTEMPTS,
  RatingSettingsSchema,
  type RatingSettings,
  type RatingSettingsInput,
} from '@shared/schemas/tenant-settings';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useGetRatingSettingsQuery, useUpdateRatingSettingsMutation } from '../../api/ratings.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { MessageEditor } from '../automatic-messages/message-editor';
import '../../app/crud/crud.css';
import '../automatic-messages/automatic-messages.css';
import { PageHeader } from '../../app/layout/page-header';

const ATTEMPTS = Array.from({ length: RATING_MAX_ATTEMPTS }, (_, i) => i + 1);

/**
 * /avaliacoes/configurar: the tenant's rating flow (spec sections 3, 4 and 9). When it is on, resolving
 * a ticket sends the request text; a reply with one digit 0..5 records the rating under the label of
 * that score, sends the closing message and closes the ticket; any other reply asks again, up to the
 * number of attempts, then the ticket closes without a rating.
 */
export function RatingSettingsPage() {
  const { t } = useTranslation();
  const query = useGetRatingSettingsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (query.isLoading) {
    return (
      <div className="page">
        <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />
      </div>
    );
  }
  if (query.isError || !query.data) {
    return (
      <div className="page">
        <NonIdealState
          icon="warning-sign"
          title={t('crud.loadFailed')}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void query.refetch()} />}
        />
      </div>
    );
  }
  return <RatingSettingsForm key={JSON.stringify(query.data)} settings={query.data} />;
}

function RatingSettingsForm({ settings }: { settings: RatingSettings }) {
  const { t } = useTranslation();
  const form = useZodForm<RatingSettings, RatingSettingsInput>(RatingSettingsSchema, settings);
  const [save, saving] = useUpdateRatingSettingsMutation();
  const submit = form.handleSubmit(async (body) => {
    try {
      await save(body).unwrap();
      showToast(t('ratings.settingsSaved'), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, ['enabled', 'message', 'labels', 'maxAttempts', 'thanksMessage']);
    }
  });

  return (
    <div className="page crud-page" data-testid="page-avaliacoes-configurar">
      <PageHeader title={t('routes.avaliacoes/configurar')} description={t('ratings.settingsDescription')} />
      <form
        noValidate
        data-testid="rating-settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Card className="auto-message-section">
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Switch
                large
                label={t('ratings.enabled')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                data-testid="rating-enabled"
              />
            )}
          />
          <MessageEditor form={form} name="message" label={t('ratings.requestMessage')} testId="rating-message" />
          <Controller
            control={form.control}
            name="maxAttempts"
            render={({ field, fieldState }) => (
              <FormGroup
                label={t('ratings.maxAttempts')}
                labelFor="rating-max-attempts"
                helperText={fieldState.error?.message ?? t('ratings.maxAttemptsHelp')}
                intent={fieldState.error ? 'danger' : 'none'}
              >
                <HTMLSelect
                  id="rating-max-attempts"
                  value={String(field.value ?? '')}
                  onChange={(event) => field.onChange(Number(event.currentTarget.value))}
                  data-testid="rating-max-attempts"
                >
                  {ATTEMPTS.map((n) => (
                    <option key={n} value={n}>
                      {t('ratings.attempts', { count: n })}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
            )}
          />
          <MessageEditor form={form} name="thanksMessage" label={t('ratings.closingMessage')} testId="rating-thanks" />
        </Card>
        <Card className="auto-message-section">
          <H5>{t('ratings.labelsTitle')}</H5>
          <p className="crud-page-description">{t('ratings.labelsHelp')}</p>
          <div className="auto-message-row">
            {RATING_LABELS.map((fallback, score) => (
              <TextField
                key={score}
                control={form.control}
                name={`labels.${score}`}
                label={t('ratings.labelOf', { score })}
                placeholder={fallback}
                maxLength={40}
                testId={`rating-label-${score}`}
              />
            ))}
          </div>
        </Card>
        <FormErrorSummary control={form.control} testId="rating-settings-summary" />
        <Button
          type="submit"
          intent="primary"
          icon="floppy-disk"
          text={t('automaticMessages.save')}
          loading={saving.isLoading}
          data-testid="rating-settings-save"
        />
      </form>
    </div>
  );
}
