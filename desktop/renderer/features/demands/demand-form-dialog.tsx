import { FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateDemandMutation, useUpdateDemandMutation, type Demand, type DemandBody } from '../../api/demands.api';
import { showToast } from '../../app/feedback/toaster';
import { checkName, fieldTexts } from '../../app/crud/catalog-validation';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';

/** Create or edit a demand (the reason a contact got in touch): name and active. */
export function DemandFormDialog({ demand, onClose }: { demand: Demand | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<DemandBody>(() => ({ name: demand?.name ?? '', active: demand?.active ?? true }));
  const [errors, setErrors] = useState<Partial<Record<'name', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [createDemand, creating] = useCreateDemandMutation();
  const [updateDemand, updating] = useUpdateDemandMutation();

  const submit = async () => {
    const local = fieldTexts<'name'>({ name: checkName(form.name) }, t);
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    const body: DemandBody = { ...form, name: form.name.trim() };
    try {
      if (demand) await updateDemand({ id: demand.id, body }).unwrap();
      else await createDemand(body).unwrap();
      showToast(t('demands.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      setFailure(refused.message);
      setErrors(refused.fields);
    }
  };

  return (
    <FormDialog
      isOpen
      title={demand ? t('demands.editTitle') : t('demands.createTitle')}
      icon="comment"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="demand-form"
    >
      <FormGroup
        label={t('crud.name')}
        labelFor="demand-name"
        labelInfo="*"
        intent={errors.name ? 'danger' : 'none'}
        helperText={errors.name ?? t('demands.nameHelp')}
      >
        <InputGroup
          id="demand-name"
          autoFocus
          value={form.name}
          intent={errors.name ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
      </FormGroup>
      <Switch
        label={t('crud.active')}
        checked={form.active}
        onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
      />
    </FormDialog>
  );
}
