import { useWatch, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ROUTE_TARGET_TYPES } from '@shared/schemas/chatflow';
import { SelectField } from '../../app/forms/form-fields';
import type { FlowOptions } from './flow-options';

/**
 * A routing target: its kind (step, queue, user, close, channel; or none where the flow allows
 * it) and the record of that kind. `name` is the form path of a TargetValues object.
 */
export function TargetFields<T extends FieldValues>({
  control,
  name,
  label,
  options,
  allowNone,
  testId,
}: {
  control: Control<T, unknown, any>;
  name: string;
  label: string;
  options: FlowOptions;
  allowNone?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const type = useWatch({ control, name: `${name}.type` as Path<T> }) as string;
  const idField = { step: 'stepId', queue: 'queueId', user: 'userId', channel: 'channelId' }[type];
  const choices = { step: options.steps, queue: options.queues, user: options.users, channel: options.channels }[type] ?? [];
  return (
    <div className="chatflow-target">
      <SelectField
        control={control}
        name={`${name}.type` as Path<T>}
        label={label}
        options={[
          ...(allowNone ? [{ value: '', label: t('chatFlows.target.none') }] : []),
          ...ROUTE_TARGET_TYPES.map((kind) => ({ value: kind, label: t(`chatFlows.target.${kind}`) })),
        ]}
        testId={`${testId}-type`}
      />
      {idField ? (
        <SelectField
          control={control}
          name={`${name}.${idField}` as Path<T>}
          label={t(`chatFlows.target.${type}`)}
          required
          options={[{ value: '', label: t('chatFlows.target.choose') }, ...choices]}
          testId={`${testId}-id`}
        />
      ) : null}
    </div>
  );
}
