import { Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface CheckboxOption {
  id: number;
  label: string;
  hint?: string;
}

export interface CheckboxListFieldProps {
  label: string;
  options: CheckboxOption[];
  value: number[];
  onChange(value: number[]): void;
  /** Shown instead of the list when there is nothing to choose from. */
  emptyText: string;
  helperText?: ReactNode;
  testId: string;
}

/** Lists longer than this get a filter box. */
const FILTER_FROM = 7;

/**
 * A multi-select as a list of check boxes (Blueprint's select package is not part of this
 * app): every choice is visible, reachable with Tab and Space, and filterable when long.
 */
export function CheckboxListField({ label, options, value, onChange, emptyText, helperText, testId }: CheckboxListFieldProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const selected = useMemo(() => new Set(value), [value]);
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? options.filter((option) => `${option.label} ${option.hint ?? ''}`.toLowerCase().includes(needle))
    : options;

  const toggle = (id: number) => onChange(selected.has(id) ? value.filter((existing) => existing !== id) : [...value, id]);

  return (
    <FormGroup
      label={label}
      labelInfo={options.length > 0 ? t('crud.selectedCount', { count: value.length }) : undefined}
      helperText={helperText}
    >
      {options.length === 0 ? (
        <p className="crud-muted">{emptyText}</p>
      ) : (
        <div className="crud-checkbox-list" data-testid={testId}>
          {options.length >= FILTER_FROM ? (
            <InputGroup
              leftIcon="search"
              size="small"
              placeholder={t('crud.filter')}
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              aria-label={t('crud.filter')}
            />
          ) : null}
          <div className="crud-checkbox-scroll" role="group" aria-label={label}>
            {shown.map((option) => (
              <Checkbox
                key={option.id}
                checked={selected.has(option.id)}
                onChange={() => toggle(option.id)}
                labelElement={
                  <span>
                    {option.label}
                    {option.hint ? <span className="crud-muted"> · {option.hint}</span> : null}
                  </span>
                }
              />
            ))}
            {shown.length === 0 ? <p className="crud-muted">{t('crud.noMatch')}</p> : null}
          </div>
        </div>
      )}
    </FormGroup>
  );
}
