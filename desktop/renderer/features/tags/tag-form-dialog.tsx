import { FormGroup, Switch, Tag as TagChip } from '@blueprintjs/core';
import { CreateTagSchema, type CreateTagInput } from '@shared/schemas/tags';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreateTagMutation, useUpdateTagMutation, type Tag, type TagBody } from '../../api/tags.api';
import { pickDefaultColor } from '../../app/crud/catalog-validation';
import { ColorField } from '../../app/crud/color-field';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { fieldMessage, formSummaryMessage } from '../../app/forms/field-text';
import { TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { TagColorChip } from './tag-color-chip';

/**
 * Create or edit a tag: name, colour (previewed as the chip contacts will show) and active.
 * The worked example of the form pattern (docs/architecture.md, "Client patterns"): the schema
 * is the server's (CreateTagSchema), the fields show its messages, the mutation sends its output.
 */
export function TagFormDialog({ tag, nextIndex, onClose }: { tag: Tag | null; nextIndex: number; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm<TagBody, CreateTagInput>(CreateTagSchema, {
    name: tag?.name ?? '',
    color: tag?.color ?? pickDefaultColor(nextIndex),
    active: tag?.active ?? true,
  });
  const [name, color] = useWatch({ control: form.control, name: ['name', 'color'] });
  const [createTag, creating] = useCreateTagMutation();
  const [updateTag, updating] = useUpdateTagMutation();

  const submit = form.handleSubmit(async (parsed) => {
    const body: TagBody = { name: parsed.name, color: parsed.color ?? color, active: parsed.active ?? true };
    try {
      if (tag) await updateTag({ id: tag.id, body }).unwrap();
      else await createTag(body).unwrap();
      showToast(t('tags.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, ['name', 'color']);
    }
  });

  return (
    <FormDialog
      isOpen
      title={tag ? t('tags.editTitle') : t('tags.createTitle')}
      icon="tag"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="tag-form"
    >
      <TextField control={form.control} name="name" label={t('crud.name')} required autoFocus testId="tag-name" />
      <Controller
        control={form.control}
        name="color"
        render={({ field, fieldState }) => (
          <ColorField
            id="tag-color"
            value={field.value}
            error={fieldMessage(t('crud.color'), fieldState.error?.message)}
            onChange={field.onChange}
          />
        )}
      />
      <FormGroup label={t('tags.preview')}>
        {name.trim() ? <TagColorChip name={name.trim()} color={color} /> : <TagChip minimal>{t('tags.previewEmpty')}</TagChip>}
      </FormGroup>
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <Switch label={t('crud.active')} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />
        )}
      />
    </FormDialog>
  );
}
