import { FormGroup, HTMLSelect, Switch } from '@blueprintjs/core';
import { CreateTenantSchema, UpdateTenantSchema, type AdminTenantDto } from '@shared/schemas/admin-tenants';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreateAdminTenantMutation, useUpdateAdminTenantMutation } from '../../api/admin-tenants.api';
import { useListPlansQuery } from '../../api/plans.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';

interface TenantFormValues {
  name: string;
  identity: string;
  planId: number | undefined;
  limitsOverride: boolean;
  maxUsers: string | undefined;
  maxConnections: string | undefined;
  trial: boolean;
  trialDays: string;
  adminName?: string;
  adminEmail?: string;
  adminPassword?: string;
}

const FIELDS = ['name', 'identity', 'planId', 'limitsOverride', 'maxUsers', 'maxConnections', 'trial', 'trialDays', 'adminName', 'adminEmail', 'adminPassword'];

/**
 * Create a tenant with its first administrator, or edit one (/tenants): name, CPF/CNPJ, plan,
 * limits from the plan or its own, trial and its days. Validated by the server's schemas.
 */
export function TenantFormDialog({ tenant, onClose }: { tenant: AdminTenantDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const plans = useListPlansQuery();
  const [createTenant, creating] = useCreateAdminTenantMutation();
  const [updateTenant, updating] = useUpdateAdminTenantMutation();
  const form = useZodForm<TenantFormValues, unknown>(tenant ? UpdateTenantSchema : CreateTenantSchema, {
    name: tenant?.name ?? '',
    identity: tenant?.identity ?? '',
    planId: tenant?.planId ?? undefined,
    limitsOverride: tenant?.limitsOverride ?? false,
    maxUsers: tenant?.limitsOverride ? String(tenant.maxUsers) : undefined,
    maxConnections: tenant?.limitsOverride ? String(tenant.maxConnections) : undefined,
    trial: tenant?.trial ?? false,
    trialDays: String(tenant?.trialDays ?? 0),
    ...(tenant ? {} : { adminName: '', adminEmail: '', adminPassword: '' }),
  });
  const { control } = form;
  const override = useWatch({ control, name: 'limitsOverride' });
  const submit = form.handleSubmit(async (parsed) => {
    try {
      if (tenant) await updateTenant({ id: tenant.id, body: parsed as never }).unwrap();
      else await createTenant(parsed as never).unwrap();
      showToast(t('platformTenants.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });
  return (
    <FormDialog
      isOpen
      wide
      title={tenant ? t('platformTenants.editTitle') : t('platformTenants.createTitle')}
      icon="office"
      saving={creating.isLoading || updating.isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="tenant-form"
    >
      <TextField control={control} name="name" label={t('crud.name')} required autoFocus />
      <TextField control={control} name="identity" label={t('platformTenants.identity')} />
      <Controller
        control={control}
        name="planId"
        render={({ field, fieldState }) => (
          <FormGroup
            label={t('platformTenants.plan')}
            labelFor="field-planId"
            labelInfo="*"
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error ? <span role="alert">{fieldState.error.message}</span> : t('platformTenants.planHelp')}
          >
            <HTMLSelect
              id="field-planId"
              fill
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
              data-testid="field-planId"
            >
              <option value="">{t('platformTenants.choosePlan')}</option>
              {(plans.data ?? []).map((plan) => (
                <option key={plan.id} value={plan.id}>
                  {t('platformTenants.planOption', { name: plan.name, users: plan.maxUsers, connections: plan.maxConnections })}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
      />
      <Controller
        control={control}
        name="limitsOverride"
        render={({ field }) => (
          <Switch
            label={t('platformTenants.limitsOverride')}
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
            data-testid="field-limitsOverride"
          />
        )}
      />
      {override ? (
        <>
          <TextField control={control} name="maxUsers" label={t('plans.maxUsers')} required />
          <TextField control={control} name="maxConnections" label={t('plans.maxConnections')} required />
        </>
      ) : null}
      <Controller
        control={control}
        name="trial"
        render={({ field }) => (
          <Switch label={t('plans.trial')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} data-testid="field-trial" />
        )}
      />
      <TextField control={control} name="trialDays" label={t('plans.trialDays')} helperText={t('platformTenants.trialHelp')} />
      {tenant ? null : (
        <>
          <h4 className="bp6-heading">{t('platformTenants.firstAdmin')}</h4>
          <TextField control={control} name="adminName" label={t('crud.name')} required />
          <TextField control={control} name="adminEmail" label={t('platformTenants.adminEmail')} required />
          <TextField control={control} name="adminPassword" label={t('platformTenants.adminPassword')} type="password" required />
        </>
      )}
      <FormErrorSummary control={control} />
    </FormDialog>
  );
}
