import { CONDITION_TYPES, FIELD_OPERATORS, type Condition, type RouteTarget } from '@shared/schemas/chatflow';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { ElementDialog, useElementForm } from './element-dialog';
import type { Draft } from './flow-graph';
import { ConditionFormSchema, conditionToValues, type ConditionValues } from './flow-forms';
import type { FlowOptions } from './flow-options';
import { TargetFields } from './target-fields';

/**
 * Add or edit one condition of a step (checked in order against the answer; the first that
 * matches routes), validated with the contract's ConditionSchema, with its routing target.
 */
export function ConditionDialog({
  condition,
  defaultTarget,
  options,
  onSave,
  onClose,
}: {
  condition: Condition | null;
  defaultTarget?: RouteTarget | null;
  options: FlowOptions;
  onSave(condition: Draft<Condition>): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { form, submit } = useElementForm<ConditionValues, Condition>(
    ConditionFormSchema,
    conditionToValues(condition, defaultTarget ?? null),
    condition,
    onSave,
    onClose,
  );
  const [kind, operator] = useWatch({ control: form.control, name: ['type', 'operator'] });
  const control = form.control;
  return (
    <ElementDialog
      form={form}
      submit={submit}
      title={condition ? t('chatFlows.condition.editTitle') : t('chatFlows.condition.addTitle')}
      icon="fork"
      onClose={onClose}
      testId="condition-form"
    >
      <SelectField
        control={control}
        name="type"
        label={t('chatFlows.condition.type')}
        options={CONDITION_TYPES.map((value) => ({ value, label: t(`chatFlows.conditionTypes.${value}`) }))}
        testId="condition-type"
      />
      {(kind === 'keyword' || kind === 'option') && (
        <TextField
          control={control}
          name="values"
          label={kind === 'keyword' ? t('chatFlows.condition.keywords') : t('chatFlows.condition.optionNumbers')}
          required
          helperText={t('chatFlows.condition.valuesHelp')}
          testId="condition-values"
        />
      )}
      {kind === 'regex' && (
        <TextField
          control={control}
          name="pattern"
          label={t('chatFlows.condition.pattern')}
          required
          testId="condition-pattern"
        />
      )}
      {kind === 'businessHours' && (
        <SelectField
          control={control}
          name="open"
          label={t('chatFlows.condition.businessHours')}
          options={[
            { value: 'true', label: t('chatFlows.condition.insideHours') },
            { value: 'false', label: t('chatFlows.condition.outsideHours') },
          ]}
          testId="condition-open"
        />
      )}
      {kind === 'field' && (
        <>
          <TextField
            control={control}
            name="field"
            label={t('chatFlows.condition.field')}
            required
            helperText={t('chatFlows.condition.fieldHelp')}
            testId="condition-field"
          />
          <SelectField
            control={control}
            name="operator"
            label={t('chatFlows.condition.operator')}
            options={FIELD_OPERATORS.map((value) => ({ value, label: t(`chatFlows.operators.${value}`) }))}
            testId="condition-operator"
          />
          {(operator === 'equals' || operator === 'contains') && (
            <TextField control={control} name="value" label={t('chatFlows.condition.value')} testId="condition-value" />
          )}
        </>
      )}
      <TargetFields
        control={control}
        name="target"
        label={t('chatFlows.condition.target')}
        options={options}
        testId="condition-target"
      />
    </ElementDialog>
  );
}
