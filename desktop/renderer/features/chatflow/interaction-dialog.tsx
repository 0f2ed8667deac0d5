import { INTERACTION_TYPES, type Interaction, type InteractionType } from '@shared/schemas/chatflow';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { TextAreaField } from '../../app/forms/text-area-field';
import { ElementDialog, useElementForm } from './element-dialog';
import type { Draft } from './flow-graph';
import { InteractionFormSchema, interactionToValues, type InteractionValues } from './flow-forms';
import type { FlowOptions } from './flow-options';

/** The variables a flow's texts may use (the engine fills them in); code, not translated text. */
const MESSAGE_VARIABLES = '{{name}} {{firstName}} {{number}} {{protocol}} {{ticketId}} {{var.NOME}}';

/**
 * Add or edit one interaction of a step, validated with the contract's InteractionSchema: each
 * kind shows its own fields (message text with variables, media URL, menu options, generative
 * prompt, delay, tag, kanban column, webhook GET and the variables it stores, another flow).
 */
export function InteractionDialog({
  interaction,
  type,
  options,
  onSave,
  onClose,
}: {
  interaction: Interaction | null;
  type: InteractionType;
  options: FlowOptions;
  onSave(interaction: Draft<Interaction>): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { form, submit } = useElementForm<InteractionValues, Interaction>(
    InteractionFormSchema,
    interactionToValues(interaction, type),
    interaction,
    onSave,
    onClose,
  );
  const kind = useWatch({ control: form.control, name: 'type' });
  const control = form.control;
  return (
    <ElementDialog
      form={form}
      submit={submit}
      title={interaction ? t('chatFlows.interaction.editTitle') : t('chatFlows.interaction.addTitle')}
      icon="comment"
      onClose={onClose}
      testId="interaction-form"
    >
      <SelectField
        control={control}
        name="type"
        label={t('chatFlows.interaction.type')}
        disabled={interaction !== null}
        options={INTERACTION_TYPES.map((value) => ({ value, label: t(`chatFlows.interactionTypes.${value}`) }))}
        testId="interaction-type"
      />
      {(kind === 'message' || kind === 'flowBuilder') && (
        <TextAreaField
          control={control}
          name="text"
          label={kind === 'message' ? t('chatFlows.interaction.text') : t('chatFlows.interaction.menuText')}
          required
          rows={4}
          helperText={`${t('chatFlows.interaction.variablesHelp')} ${MESSAGE_VARIABLES}`}
          testId="interaction-text"
        />
      )}
      {kind === 'flowBuilder' && (
        <TextAreaField
          control={control}
          name="options"
          label={t('chatFlows.interaction.options')}
          required
          rows={4}
          helperText={t('chatFlows.interaction.optionsHelp')}
          testId="interaction-options"
        />
      )}
      {(kind === 'media' || kind === 'webhook') && (
        <TextField control={control} name="url" label={t('chatFlows.interaction.url')} required testId="interaction-url" />
      )}
      {kind === 'media' && (
        <>
          <TextField
            control={control}
            name="fileName"
            label={t('chatFlows.interaction.fileName')}
            testId="interaction-file-name"
          />
          <TextField control={control} name="caption" label={t('chatFlows.interaction.caption')} testId="interaction-caption" />
        </>
      )}
      {kind === 'webhook' && (
        <TextAreaField
          control={control}
          name="store"
          label={t('chatFlows.interaction.store')}
          rows={3}
          helperText={t('chatFlows.interaction.storeHelp')}
          testId="interaction-store"
        />
      )}
      {kind === 'generativeChat' && (
        <>
          <TextAreaField
            control={control}
            name="prompt"
            label={t('chatFlows.interaction.prompt')}
            required
            rows={4}
            testId="interaction-prompt"
          />
          <TextField control={control} name="storeAs" label={t('chatFlows.interaction.storeAs')} testId="interaction-store-as" />
        </>
      )}
      {kind === 'delay' && (
        <TextField
          control={control}
          name="seconds"
          label={t('chatFlows.interaction.seconds')}
          required
          testId="interaction-seconds"
        />
      )}
      {kind === 'tag' && (
        <SelectField
          control={control}
          name="tagId"
          label={t('chatFlows.interactionTypes.tag')}
          required
          options={[{ value: '', label: t('chatFlows.target.choose') }, ...options.tags]}
          testId="interaction-tag"
        />
      )}
      {kind === 'kanban' && (
        <SelectField
          control={control}
          name="kanbanId"
          label={t('chatFlows.interactionTypes.kanban')}
          required
          options={[{ value: '', label: t('chatFlows.target.choose') }, ...options.kanbans]}
          testId="interaction-kanban"
        />
      )}
      {kind === 'startFlow' && (
        <SelectField
          control={control}
          name="chatFlowId"
          label={t('chatFlows.interactionTypes.startFlow')}
          required
          options={[{ value: '', label: t('chatFlows.target.choose') }, ...options.flows]}
          testId="interaction-flow"
        />
      )}
    </ElementDialog>
  );
}
