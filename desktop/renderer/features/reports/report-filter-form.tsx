import { Button } from '@blueprintjs/core';
import type { FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateField, FormErrorSummary, MultiSelectField, SelectField, TextField } from '../../app/forms/form-fields';
import { FILTER_KINDS, type FilterField, type ReportFormValues } from './report-catalog';
import { useFilterOptions } from './use-filter-options';

export interface ReportFilterFormProps {
  form: UseFormReturn<ReportFormValues, unknown, Record<string, unknown>>;
  fields: readonly FilterField[];
  required: readonly FilterField[];
  generating: boolean;
  onGenerate(): void;
}

/** The period, then each filter of the report's schema, and "Gerar". */
export function ReportFilterForm({ form, fields, required, generating, onGenerate }: ReportFilterFormProps) {
  const { t } = useTranslation();
  const choices = useFilterOptions(fields);
  const { control } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onGenerate();
  };

  return (
    <form onSubmit={submit} noValidate data-testid="report-filters">
      <div className="report-filter-grid">
        <DateField control={control} name="startDate" label={t('reports.fields.startDate')} required testId="report-startDate" />
        <DateField control={control} name="endDate" label={t('reports.fields.endDate')} required testId="report-endDate" />
        {fields.map((field) => {
          const label = t(`reports.fields.${field}`);
          const testId = `report-${field}`;
          const isRequired = required.includes(field);
          switch (FILTER_KINDS[field]) {
            case 'text':
              return <TextField key={field} control={control} name={field} label={label} maxLength={100} testId={testId} />;
            case 'select':
              return (
                <SelectField
                  key={field}
                  control={control}
                  name={field}
                  label={label}
                  emptyLabel={t('reports.any')}
                  options={(choices[field]?.options ?? []).map((option) => ({
                    value: String(option.value),
                    label: option.label,
                  }))}
                  testId={testId}
                />
              );
            case 'multi':
              return (
                <MultiSelectField
                  key={field}
                  control={control}
                  name={field}
                  label={label}
                  required={isRequired}
                  options={choices[field]?.options ?? []}
                  loading={choices[field]?.loading}
                  placeholder={isRequired ? t('reports.choose') : t('reports.any')}
                  emptyText={t('reports.nothingToChoose')}
                  testId={testId}
                />
              );
          }
        })}
      </div>
      <div className="report-filter-actions">
        <FormErrorSummary control={control} testId="report-form-summary" />
        <Button
          type="submit"
          intent="primary"
          icon="play"
          text={t('reports.generate')}
          loading={generating}
          data-testid="report-generate"
        />
      </div>
    </form>
  );
}
