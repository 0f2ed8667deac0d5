import { FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../app/feedback/toaster';
import { ColorField } from '../../app/crud/color-field';
import { checkColor, checkName, fieldTexts } from '../../app/crud/catalog-validation';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';

export interface PositionedFormValues {
  name: string;
  color: string;
  /** Kanban columns only; lanes have no active flag. */
  active?: boolean;
}

export interface PositionedFormDialogProps {
  initial: PositionedFormValues;
  title: string;
  savedText: string;
  /** The create or update call; throws the failed call's error (RTK Query's unwrap). */
  save(values: PositionedFormValues): Promise<unknown>;
  onClose(): void;
  testId: string;
}

/** Create or edit a kanban column or a lane: name, colour and (columns) active. New ones go last. */
export function PositionedFormDialog({ initial, title, savedText, save, onClose, testId }: PositionedFormDialogProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<PositionedFormValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<'name' | 'color', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const local = fieldTexts<'name' | 'color'>({ name: checkName(form.name), color: checkColor(form.color) }, t);
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    setSaving(true);
    try {
      await save({ ...form, name: form.name.trim() });
      showToast(savedText, 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      setFailure(refused.message);
      setErrors(refused.fields);
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog
      isOpen
      title={title}
      icon="column-layout"
      saving={saving}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId={testId}
    >
      <FormGroup
        label={t('crud.name')}
        labelFor={`${testId}-name`}
        labelInfo="*"
        intent={errors.name ? 'danger' : 'none'}
        helperText={errors.name}
      >
        <InputGroup
          id={`${testId}-name`}
          autoFocus
          value={form.name}
          intent={errors.name ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
      </FormGroup>
      <ColorField
        id={`${testId}-color`}
        value={form.color}
        error={errors.color}
        onChange={(color) => setForm({ ...form, color })}
      />
      {form.active !== undefined ? (
        <Switch
          label={t('crud.active')}
          checked={form.active}
          onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
        />
      ) : null}
    </FormDialog>
  );
}
