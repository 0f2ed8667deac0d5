import { Button, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PeriodQuerySchema, type PeriodQuery } from '@shared/schemas/period';
import type { Queue } from '../../api/queues.api';
import { showToast } from '../../app/feedback/toaster';
import { maskDayInput, PERIOD_PRESETS, presetPeriod, type PeriodPreset } from './dashboard-period';
import { QueueMultiSelect } from './queue-multi-select';

export interface DashboardFilterValues {
  preset: PeriodPreset;
  /** dd/MM/yyyy */
  startDate: string;
  endDate: string;
  queuesIds: number[];
}

/** The form validates with the statistics calls' own query schema (same messages as a 400). */
const resolver = zodResolver(PeriodQuerySchema as unknown as Parameters<typeof zodResolver>[0]) as unknown as Resolver<
  DashboardFilterValues,
  unknown,
  PeriodQuery
>;

export interface DashboardFiltersProps {
  initial: DashboardFilterValues;
  queues: readonly Pick<Queue, 'id' | 'name' | 'color'>[];
  timeZone: string;
  /** A valid period: yyyy-MM-dd days and the queues. */
  onApply(period: { startDate: string; endDate: string; queuesIds: number[] }, preset: PeriodPreset): void;
}

/**
 * Period (today, 7 days, 30 days, this month, or two days typed dd/MM/yyyy) and queues. A preset
 * or a queue applies at once; custom days apply with the button, after validation.
 */
export function DashboardFilters({ initial, queues, timeZone, onApply }: DashboardFiltersProps) {
  const { t } = useTranslation();
  const { register, handleSubmit, setValue, watch, formState } = useForm<DashboardFilterValues, unknown, PeriodQuery>({
    resolver,
    defaultValues: initial,
  });
  const preset = watch('preset');
  const queuesIds = watch('queuesIds');

  const apply = handleSubmit(
    (parsed) => onApply({ startDate: parsed.startDate, endDate: parsed.endDate, queuesIds: parsed.queuesIds ?? [] }, preset),
    () => showToast(t('validation.formHasErrors'), 'warning'),
  );

  const choosePreset = (next: PeriodPreset) => {
    setValue('preset', next);
    const days = presetPeriod(next, new Date(), timeZone);
    if (!days) return;
    setValue('startDate', days.startDate, { shouldValidate: false });
    setValue('endDate', days.endDate, { shouldValidate: false });
    void apply();
  };

  const dayField = (name: 'startDate' | 'endDate', label: string) => {
    const error = formState.errors[name]?.message;
    const { ref, ...field } = register(name, { onChange: (event) => setValue(name, maskDayInput(event.target.value)) });
    return (
      <FormGroup
        label={label}
        labelFor={`dashboard-${name}`}
        intent={error ? 'danger' : 'none'}
        helperText={error}
        className="dashboard-day"
      >
        <InputGroup
          {...field}
          id={`dashboard-${name}`}
          inputRef={ref}
          placeholder={t('dashboard.dayPlaceholder')}
          inputMode="numeric"
          maxLength={10}
          readOnly={preset !== 'custom'}
          intent={error ? 'danger' : 'none'}
          data-testid={`dashboard-${name}`}
        />
      </FormGroup>
    );
  };

  return (
    <form
      className="dashboard-filters"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
      data-testid="dashboard-filters"
    >
      <FormGroup label={t('dashboard.period')} labelFor="dashboard-preset">
        <HTMLSelect
          id="dashboard-preset"
          value={preset}
          onChange={(event) => choosePreset(event.currentTarget.value as PeriodPreset)}
          options={PERIOD_PRESETS.map((value) => ({ value, label: t(`dashboard.presets.${value}`) }))}
          data-testid="dashboard-preset"
        />
      </FormGroup>
      {dayField('startDate', t('dashboard.startDate'))}
      {dayField('endDate', t('dashboard.endDate'))}
      {preset === 'custom' ? (
        <Button type="submit" intent="primary" icon="refresh" text={t('dashboard.apply')} data-testid="dashboard-apply" />
      ) : null}
      <FormGroup label={t('dashboard.queues.label')} className="dashboard-queues">
        <QueueMultiSelect
          queues={queues}
          value={queuesIds}
          onChange={(next) => {
            setValue('queuesIds', next);
            void apply();
          }}
          testId="dashboard-queues"
        />
      </FormGroup>
    </form>
  );
}
