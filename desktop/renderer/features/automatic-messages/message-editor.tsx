import { Button, Callout } from '@blueprintjs/core';
import { CATALOG_TEXT_MAX } from '@shared/schemas/catalog-fields';
import { MESSAGE_VARIABLES, messageVariableToken } from '@shared/message-variables';
import { useMemo, useRef } from 'react';
import { useWatch, type FieldPath, type FieldValues, type PathValue, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextAreaField } from '../../app/forms/text-area-field';
import { insertToken, previewMessage, sampleVariableValues } from './message-preview';
import './automatic-messages.css';

/**
 * An automatic message's text: the text area, one button per message variable (spec section 2)
 * that inserts it at the caret, and the preview of the text with example values.
 */
export function MessageEditor<T extends FieldValues>({
  form,
  name,
  label,
  testId,
  disabled,
  required,
}: {
  form: UseFormReturn<T, unknown, any>;
  name: FieldPath<T>;
  label: string;
  testId: string;
  disabled?: boolean;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement | null>(null);
  const text = (useWatch({ control: form.control, name }) as string | null | undefined) ?? '';
  const samples = useMemo(() => sampleVariableValues(t), [t]);
  const preview = previewMessage(text, samples);

  const insert = (token: string) => {
    const element = area.current;
    const next = insertToken(text, token, element?.selectionStart, element?.selectionEnd);
    form.setValue(name, next.text as PathValue<T, FieldPath<T>>, {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <div>
      <TextAreaField
        control={form.control}
        name={name}
        label={label}
        required={required}
        rows={4}
        maxLength={CATALOG_TEXT_MAX}
        disabled={disabled}
        testId={testId}
        textAreaRef={area}
      />
      <div className="auto-message-variables" role="group" aria-label={t('automaticMessages.variables')}>
        {MESSAGE_VARIABLES.map((variable) => (
          <Button
            key={variable}
            size="small"
            variant="outlined"
            disabled={disabled}
            text={messageVariableToken(variable)}
            title={t(`automaticMessages.variableHelp.${variable}`)}
            onClick={() => insert(messageVariableToken(variable))}
            data-testid={`${testId}-var-${variable}`}
          />
        ))}
      </div>
      {text.trim() ? (
        <Callout
          icon="eye-open"
          title={t('automaticMessages.preview')}
          className="auto-message-preview"
          data-testid={`${testId}-preview`}
        >
          {preview}
        </Callout>
      ) : null}
    </div>
  );
}
