import { Switch } from '@blueprintjs/core';
import { CreatePlanSchema, type PlanDto } from '@shared/schemas/plans';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreatePlanMutation, useUpdatePlanMutation } from '../../api/plans.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';

interface PlanFormValues {
  name: string;
  value: string;
  maxUsers: string;
  maxConnections: string;
  trial: boolean;
  trialDays: string;
  active: boolean;
}

const FIELDS = ['name', 'value', 'maxUsers', 'maxConnections', 'trial', 'trialDays', 'active'];

/** Create or edit a plan (/planos): value, users, connections, trial and its days, active. */
export function PlanFormDialog({ plan, onClose }: { plan: PlanDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const [createPlan, creating] = useCreatePlanMutation();
  const [updatePlan, updating] = useUpdatePlanMutation();
  const form = useZodForm<PlanFormValues, unknown>(CreatePlanSchema, {
    name: plan?.name ?? '',
    value: plan ? String(plan.value) : '',
    maxUsers: plan ? String(plan.maxUsers) : '',
    maxConnections: plan ? String(plan.maxConnections) : '',
    trial: plan?.trial ?? false,
    trialDays: plan ? String(plan.trialDays) : '0',
    active: plan?.active ?? true,
  });
  const submit = form.handleSubmit(async (parsed) => {
    const body = parsed as Parameters<typeof createPlan>[0];
    try {
      if (plan) await updatePlan({ id: plan.id, body }).unwrap();
      else await createPlan(body).unwrap();
      showToast(t('plans.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });
  const { control } = form;
  return (
    <FormDialog
      isOpen
      title={plan ? t('plans.editTitle') : t('plans.createTitle')}
      icon="dollar"
      saving={creating.isLoading || updating.isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="plan-form"
    >
      <TextField control={control} name="name" label={t('crud.name')} required autoFocus />
      <TextField control={control} name="value" label={t('plans.value')} required />
      <TextField control={control} name="maxUsers" label={t('plans.maxUsers')} required />
      <TextField control={control} name="maxConnections" label={t('plans.maxConnections')} required />
      <Controller
        control={control}
        name="trial"
        render={({ field }) => (
          <Switch label={t('plans.trial')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} data-testid="field-trial" />
        )}
      />
      <TextField control={control} name="trialDays" label={t('plans.trialDays')} />
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <Switch label={t('crud.active')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} data-testid="field-active" />
        )}
      />
      <FormErrorSummary control={control} />
    </FormDialog>
  );
}
