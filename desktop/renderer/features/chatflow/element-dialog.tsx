import type { IconName } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '../../app/crud/form-dialog';
import { formSummaryMessage } from '../../app/forms/field-text';
import { useZodForm } from '../../app/forms/use-zod-form';
import type { Draft } from './flow-graph';

/**
 * The form of one element of a step (an interaction, a condition), validated with the contract's
 * schema; saving hands the parsed element on as a draft that keeps the edited element's id.
 */
export function useElementForm<TValues extends FieldValues, TElement extends { id: string }>(
  schema: z.ZodType<TElement, unknown>,
  values: TValues,
  element: TElement | null,
  onSave: (draft: Draft<TElement>) => void,
  onClose: () => void,
): { form: UseFormReturn<TValues, unknown, TElement>; submit: () => void } {
  const form = useZodForm<TValues, TElement>(schema, values);
  const handle = form.handleSubmit((parsed) => {
    const { id: _ignored, ...rest } = parsed;
    onSave((element ? { ...rest, id: element.id } : rest) as unknown as Draft<TElement>);
    onClose();
  });
  return { form, submit: () => void handle() };
}

/** The dialog around an element form: wide, saved in the builder (no request), the form's summary message. */
export function ElementDialog<TValues extends FieldValues, TElement>({
  form,
  submit,
  title,
  icon,
  testId,
  onClose,
  children,
}: {
  form: UseFormReturn<TValues, unknown, TElement>;
  submit(): void;
  title: string;
  icon: IconName;
  testId: string;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen wide title={title} icon={icon} saving={false} error={formSummaryMessage(form.formState, t)} onSubmit={submit} onClose={onClose} testId={testId}>
      {children}
    </FormDialog>
  );
}
