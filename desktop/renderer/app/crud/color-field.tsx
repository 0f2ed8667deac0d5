import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

export interface ColorFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string;
}

/** A colour as the server stores it (#rrggbb): the browser's picker plus the typed hex value. */
export function ColorField({ id, value, onChange, error }: ColorFieldProps) {
  const { t } = useTranslation();
  // The native picker only takes #rrggbb; a short #rgb is widened for it.
  const pickerValue = /^#[0-9a-f]{3}$/i.test(value)
    ? `#${value
        .slice(1)
        .split('')
        .map((c) => c + c)
        .join('')}`
    : /^#[0-9a-f]{6}$/i.test(value)
      ? value
      : '#000000';
  return (
    <FormGroup label={t('crud.color')} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error}>
      <div className="crud-color-field">
        <input
          type="color"
          className="crud-color-picker"
          value={pickerValue}
          aria-label={t('crud.pickColor')}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
        <InputGroup
          id={id}
          value={value}
          maxLength={7}
          intent={error ? 'danger' : 'none'}
          placeholder="#1c7ed6"
          onChange={(event) => onChange(event.currentTarget.value.trim())}
        />
      </div>
    </FormGroup>
  );
}
