import { FormGroup, TextArea } from '@blueprintjs/core';
import type { ReactNode, Ref } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { fieldMessage } from './field-text';
import './forms.css';

/**
 * A several-line text bound to a react-hook-form control, with the schema's message under it
 * (`data-testid="<testId>-error"`), like the fields of form-fields.tsx. `textAreaRef` gives the
 * caller the element (to insert a variable at the caret).
 */
export function TextAreaField<T extends FieldValues>(props: {
  control: Control<T, unknown, any>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  rows?: number;
  maxLength?: number;
  placeholder?: string;
  testId?: string;
  textAreaRef?: Ref<HTMLTextAreaElement>;
}) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const id = `field-${props.testId ?? props.name.replace(/[^\w-]/g, '-')}`;
  const testId = props.testId ?? id;
  const error = fieldMessage(props.label, fieldState.error?.message);
  return (
    <FormGroup
      label={props.label}
      labelFor={id}
      labelInfo={props.required ? '*' : undefined}
      intent={error ? 'danger' : 'none'}
      helperText={
        error ? (
          <span role="alert" data-testid={`${testId}-error`}>
            {error}
          </span>
        ) : (
          props.helperText
        )
      }
      className="app-form-field"
    >
      <TextArea
        id={id}
        name={field.name}
        fill
        rows={props.rows ?? 4}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        value={(field.value as string | null | undefined) ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        inputRef={(element) => {
          field.ref(element);
          const ref = props.textAreaRef;
          if (typeof ref === 'function') ref(element);
          else if (ref) (ref as { current: HTMLTextAreaElement | null }).current = element;
        }}
        disabled={props.disabled}
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
    </FormGroup>
  );
}
