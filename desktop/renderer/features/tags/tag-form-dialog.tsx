import { FormGroup, InputGroup, Switch, Tag as TagChip } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateTagMutation, useUpdateTagMutation, type Tag, type TagBody } from '../../api/tags.api';
import { showToast } from '../../app/feedback/toaster';
import { ColorField } from '../../app/crud/color-field';
import { checkColor, checkName, fieldTexts, pickDefaultColor } from '../../app/crud/catalog-validation';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';
import { TagColorChip } from './tag-color-chip';

type Field = 'name' | 'color';

/** Create or edit a tag: name, colour (previewed as the chip contacts will show) and active. */
export function TagFormDialog({ tag, nextIndex, onClose }: { tag: Tag | null; nextIndex: number; onClose(): void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<TagBody>(() => ({
    name: tag?.name ?? '',
    color: tag?.color ?? pickDefaultColor(nextIndex),
    active: tag?.active ?? true,
  }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [createTag, creating] = useCreateTagMutation();
  const [updateTag, updating] = useUpdateTagMutation();

  const submit = async () => {
    const local = fieldTexts<Field>({ name: checkName(form.name), color: checkColor(form.color) }, t);
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    const body: TagBody = { ...form, name: form.name.trim() };
    try {
      if (tag) await updateTag({ id: tag.id, body }).unwrap();
      else await createTag(body).unwrap();
      showToast(t('tags.saved'), 'success');
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
      title={tag ? t('tags.editTitle') : t('tags.createTitle')}
      icon="tag"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="tag-form"
    >
      <FormGroup
        label={t('crud.name')}
        labelFor="tag-name"
        labelInfo="*"
        intent={errors.name ? 'danger' : 'none'}
        helperText={errors.name}
      >
        <InputGroup
          id="tag-name"
          autoFocus
          value={form.name}
          intent={errors.name ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
      </FormGroup>
      <ColorField id="tag-color" value={form.color} error={errors.color} onChange={(color) => setForm({ ...form, color })} />
      <FormGroup label={t('tags.preview')}>
        {form.name.trim() ? (
          <TagColorChip name={form.name.trim()} color={form.color} />
        ) : (
          <TagChip minimal>{t('tags.previewEmpty')}</TagChip>
        )}
      </FormGroup>
      <Switch
        label={t('crud.active')}
        checked={form.active}
        onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
      />
    </FormDialog>
  );
}
