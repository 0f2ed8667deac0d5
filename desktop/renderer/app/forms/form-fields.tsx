import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup, Popover, Tag } from '@blueprintjs/core';
import { useMemo, useState, type ReactNode } from 'react';
import {
  useController,
  useFormState,
  type Control,
  type FieldPath,
  type FieldValues,
  type UseControllerReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage, formSummaryMessage, typedCalendarDay } from './field-text';
import './forms.css';

/**
 * Blueprint fields bound to a react-hook-form control (see use-zod-form.ts). Each shows its
 * label, a star when required, and the schema's message under the field once it fails; the
 * error line carries `data-testid="<testId>-error"`.
 */
export interface FieldProps<T extends FieldValues> {
  control: Control<T, unknown, any>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  /** Shown under the field while it has no error. */
  helperText?: ReactNode;
  disabled?: boolean;
  /** data-testid of the input (or the select button); defaults to `field-<name>`. */
  testId?: string;
}

const idOf = (name: string) => `field-${name.replace(/[^\w-]/g, '-')}`;

/** Label, star, the field, and its message (or its help) underneath. */
function FieldFrame<T extends FieldValues>({
  props,
  controller,
  children,
}: {
  props: FieldProps<T>;
  controller: UseControllerReturn<T, FieldPath<T>>;
  children: ReactNode;
}) {
  const { label, required, helperText, name } = props;
  const testId = props.testId ?? idOf(name);
  const error = fieldMessage(label, controller.fieldState.error?.message);
  return (
    <FormGroup
      label={label}
      labelFor={idOf(name)}
      labelInfo={required ? '*' : undefined}
      intent={error ? 'danger' : 'none'}
      helperText={
        error ? (
          <span role="alert" data-testid={`${testId}-error`}>
            {error}
          </span>
        ) : (
          helperText
        )
      }
      className="app-form-field"
    >
      {children}
    </FormGroup>
  );
}

/** A one-line text. */
export function TextField<T extends FieldValues>(
  props: FieldProps<T> & {
    placeholder?: string;
    maxLength?: number;
    autoFocus?: boolean;
    /** 'password' for a write-only secret (with autoComplete 'new-password'). */
    type?: 'text' | 'password' | 'url' | 'datetime-local';
  },
) {
  const controller = useController({ control: props.control, name: props.name });
  const { field, fieldState } = controller;
  return (
    <FieldFrame props={props} controller={controller}>
      <InputGroup
        id={idOf(props.name)}
        name={field.name}
        value={(field.value as string | undefined) ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        inputRef={field.ref}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        autoFocus={props.autoFocus}
        type={props.type}
        autoComplete={props.type === 'password' ? 'new-password' : undefined}
        disabled={props.disabled}
        intent={fieldState.error ? 'danger' : 'none'}
        aria-invalid={fieldState.error ? true : undefined}
        data-testid={props.testId ?? idOf(props.name)}
      />
    </FieldFrame>
  );
}

/**
 * A calendar day typed as dd/MM/yyyy (spec section 5); the schema (shared/schemas/period.ts)
 * also takes yyyy-MM-dd and answers 'Data inválida' for anything else.
 */
export function DateField<T extends FieldValues>(props: FieldProps<T>) {
  const { t } = useTranslation();
  const controller = useController({ control: props.control, name: props.name });
  const { field, fieldState } = controller;
  const value = (field.value as string | undefined) ?? '';
  return (
    <FieldFrame props={props} controller={controller}>
      <InputGroup
        id={idOf(props.name)}
        name={field.name}
        leftIcon="calendar"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        placeholder={t('forms.datePlaceholder')}
        value={value}
        onChange={(event) => field.onChange(typedCalendarDay(value, event.currentTarget.value))}
        onBlur={field.onBlur}
        inputRef={field.ref}
        disabled={props.disabled}
        intent={fieldState.error ? 'danger' : 'none'}
        aria-invalid={fieldState.error ? true : undefined}
        data-testid={props.testId ?? idOf(props.name)}
        className="app-form-date"
      />
    </FieldFrame>
  );
}

export interface ChoiceOption<V extends string | number> {
  value: V;
  label: string;
  /** A second, quieter text (an e-mail beside a name). */
  hint?: string;
}

/** Lists at least this long get a filter box. */
const FILTER_FROM = 8;
/** Names shown on the closed button before '+N'. */
const SUMMARY_NAMES = 2;

/**
 * A choice of several ids (or codes) from a list: a button that shows what is chosen and opens
 * the list as check boxes, with a filter for long lists, "all" and "clear". An empty choice is
 * `[]`; the schema decides whether that is allowed.
 */
export function MultiSelectField<T extends FieldValues, V extends string | number>(
  props: FieldProps<T> & {
    options: readonly ChoiceOption<V>[];
    /** Text of the button when nothing is chosen ('Todas', 'Selecione...'). */
    placeholder: string;
    loading?: boolean;
    /** Shown in the list when there is nothing to choose from. */
    emptyText: string;
  },
) {
  const { t } = useTranslation();
  const controller = useController({ control: props.control, name: props.name });
  const { field, fieldState } = controller;
  const [filter, setFilter] = useState('');
  const value = useMemo(() => ((field.value as V[] | undefined) ?? []) as V[], [field.value]);
  const chosen = useMemo(() => new Set<V>(value), [value]);
  const { options } = props;
  const needle = filter.trim().toLocaleLowerCase();
  const shown = needle
    ? options.filter((option) => `${option.label} ${option.hint ?? ''}`.toLocaleLowerCase().includes(needle))
    : options;
  const testId = props.testId ?? idOf(props.name);

  const set = (next: V[]) => field.onChange(next);
  const toggle = (option: V) => set(chosen.has(option) ? value.filter((v) => v !== option) : [...value, option]);

  const names = options.filter((option) => chosen.has(option.value)).map((option) => option.label);
  const summary =
    names.length === 0
      ? props.placeholder
      : names.length <= SUMMARY_NAMES
        ? names.join(', ')
        : `${names.slice(0, SUMMARY_NAMES).join(', ')} ${t('forms.moreChosen', { count: names.length - SUMMARY_NAMES })}`;

  const list = (
    <div className="app-form-choices" data-testid={`${testId}-options`}>
      {options.length === 0 ? (
        <p className="app-form-muted">{props.emptyText}</p>
      ) : (
        <>
          <div className="app-form-choices-tools">
            {options.length >= FILTER_FROM ? (
              <InputGroup
                leftIcon="search"
                size="small"
                placeholder={t('crud.filter')}
                aria-label={t('crud.filter')}
                value={filter}
                onChange={(event) => setFilter(event.currentTarget.value)}
              />
            ) : null}
            <Button
              size="small"
              variant="minimal"
              text={t('forms.chooseAll')}
              onClick={() => set(options.map((option) => option.value))}
            />
            <Button size="small" variant="minimal" text={t('forms.clearChoice')} disabled={value.length === 0} onClick={() => set([])} />
          </div>
          <div className="app-form-choices-scroll" role="group" aria-label={props.label}>
            {shown.map((option) => (
              <Checkbox
                key={String(option.value)}
                checked={chosen.has(option.value)}
                onChange={() => toggle(option.value)}
                labelElement={
                  <span>
                    {option.label}
                    {option.hint ? <span className="app-form-muted"> · {option.hint}</span> : null}
                  </span>
                }
              />
            ))}
            {shown.length === 0 ? <p className="app-form-muted">{t('crud.noMatch')}</p> : null}
          </div>
        </>
      )}
    </div>
  );

  return (
    <FieldFrame props={props} controller={controller}>
      <Popover content={list} placement="bottom-start" fill onClosed={() => setFilter('')} disabled={props.disabled}>
        <Button
          id={idOf(props.name)}
          ref={field.ref}
          fill
          alignText="start"
          endIcon="caret-down"
          loading={props.loading}
          disabled={props.disabled}
          intent={fieldState.error ? 'danger' : 'none'}
          variant="outlined"
          aria-invalid={fieldState.error ? true : undefined}
          data-testid={testId}
          className="app-form-multiselect"
        >
          <span className={names.length === 0 ? 'app-form-muted' : undefined}>{summary}</span>
          {names.length > 0 ? (
            <Tag minimal round className="app-form-count">
              {names.length}
            </Tag>
          ) : null}
        </Button>
      </Popover>
    </FieldFrame>
  );
}

/**
 * One choice from a short list, as the browser's select. With `emptyLabel` the first option
 * means "none": the field then holds undefined, so an optional enum stays optional.
 */
export function SelectField<T extends FieldValues>(
  props: FieldProps<T> & { options: readonly ChoiceOption<string>[]; emptyLabel?: string },
) {
  const controller = useController({ control: props.control, name: props.name });
  const { field } = controller;
  return (
    <FieldFrame props={props} controller={controller}>
      <HTMLSelect
        id={idOf(props.name)}
        name={field.name}
        fill
        value={(field.value as string | undefined) ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value === '' && props.emptyLabel ? undefined : event.currentTarget.value)}
        onBlur={field.onBlur}
        ref={field.ref}
        disabled={props.disabled}
        data-testid={props.testId ?? idOf(props.name)}
      >
        {props.emptyLabel !== undefined ? <option value="">{props.emptyLabel}</option> : null}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </HTMLSelect>
    </FieldFrame>
  );
}

/**
 * The form's summary line: 'Ops! Verifique os erros...' after an invalid submit, or the server's
 * refusal (see server-errors.ts).
 */
export function FormErrorSummary<T extends FieldValues>({ control, testId = 'form-summary' }: { control: Control<T, unknown, any>; testId?: string }) {
  const { t } = useTranslation();
  const { errors, submitCount } = useFormState({ control });
  const message = formSummaryMessage({ errors, submitCount }, t);
  if (!message) return null;
  return (
    <Callout intent="danger" icon="error" role="alert" className="app-form-summary" data-testid={testId}>
      {message}
    </Callout>
  );
}
