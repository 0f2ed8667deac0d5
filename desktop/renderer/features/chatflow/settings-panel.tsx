import { Button, Checkbox, H5 } from '@blueprintjs/core';
import type { FlowDefinition, FlowSettings } from '@shared/schemas/chatflow';
import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { SettingsFormSchema, settingsToValues, type SettingsValues } from './flow-forms';
import type { FlowOptions } from './flow-options';
import { TargetFields } from './target-fields';

/**
 * The flow's settings (spec section 2): welcome, end and fallback messages, start keyword,
 * no-answer time and where such a ticket goes, max bot attempts and where it goes after them,
 * route on the first interaction, route outside business hours, self-distribution and close
 * service. Applied to the definition (undo takes them back), saved with the flow.
 */
export function SettingsPanel({
  flow,
  options,
  onChange,
  onClose,
}: {
  flow: FlowDefinition;
  options: FlowOptions;
  onChange(flow: FlowDefinition): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const form = useZodForm<SettingsValues, FlowSettings>(SettingsFormSchema, settingsToValues(flow.settings));
  useEffect(() => form.reset(settingsToValues(flow.settings)), [flow.settings, form]);
  const apply = form.handleSubmit((settings) => onChange({ ...flow, settings }));
  const control = form.control;
  return (
    <div className="chatflow-panel" data-testid="settings-panel">
      <div className="chatflow-panel-title">
        <H5>{t('chatFlows.settings.title')}</H5>
        <Button
          variant="minimal"
          icon="cross"
          aria-label={t('chatFlows.close')}
          onClick={onClose}
          data-testid="settings-panel-close"
        />
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
        noValidate
      >
        <TextAreaField
          control={control}
          name="welcomeMessage"
          label={t('chatFlows.settings.welcomeMessage')}
          rows={2}
          testId="settings-welcome"
        />
        <TextAreaField
          control={control}
          name="endMessage"
          label={t('chatFlows.settings.endMessage')}
          rows={2}
          testId="settings-end"
        />
        <TextAreaField
          control={control}
          name="fallbackMessage"
          label={t('chatFlows.settings.fallbackMessage')}
          rows={2}
          testId="settings-fallback"
        />
        <TextField
          control={control}
          name="startKeyword"
          label={t('chatFlows.settings.startKeyword')}
          helperText={t('chatFlows.settings.startKeywordHelp')}
          testId="settings-keyword"
        />
        <TextField
          control={control}
          name="noAnswerMinutes"
          label={t('chatFlows.settings.noAnswerMinutes')}
          helperText={t('chatFlows.settings.noAnswerHelp')}
          testId="settings-no-answer"
        />
        <TargetFields
          control={control}
          name="noAnswerTarget"
          label={t('chatFlows.settings.noAnswerTarget')}
          options={options}
          allowNone
          testId="settings-no-answer-target"
        />
        <TextField
          control={control}
          name="maxAttempts"
          label={t('chatFlows.settings.maxAttempts')}
          testId="settings-max-attempts"
        />
        <TargetFields
          control={control}
          name="maxAttemptsTarget"
          label={t('chatFlows.settings.maxAttemptsTarget')}
          options={options}
          allowNone
          testId="settings-max-attempts-target"
        />
        <TargetFields
          control={control}
          name="routeOnFirstInteraction"
          label={t('chatFlows.settings.routeOnFirstInteraction')}
          options={options}
          allowNone
          testId="settings-first-interaction"
        />
        <TargetFields
          control={control}
          name="outsideBusinessHoursTarget"
          label={t('chatFlows.settings.outsideBusinessHours')}
          options={options}
          allowNone
          testId="settings-outside-hours"
        />
        <SelectField
          control={control}
          name="selfDistribution"
          label={t('chatFlows.settings.selfDistribution')}
          options={[
            { value: 'none', label: t('chatFlows.selfDistribution.none') },
            { value: 'random', label: t('chatFlows.selfDistribution.random') },
            { value: 'balanced', label: t('chatFlows.selfDistribution.balanced') },
          ]}
          testId="settings-self-distribution"
        />
        <Controller
          control={control}
          name="closeService"
          render={({ field }) => (
            <Checkbox
              label={t('chatFlows.settings.closeService')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              data-testid="settings-close-service"
            />
          )}
        />
        {formSummaryMessage(form.formState, t) ? <p className="chatflow-error">{formSummaryMessage(form.formState, t)}</p> : null}
        <Button type="submit" icon="tick" text={t('chatFlows.settings.apply')} data-testid="settings-apply" />
      </form>
    </div>
  );
}
