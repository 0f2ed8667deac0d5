import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/**
 * One schema, both sides (CONVENTIONS 11): a form validates with the same shared zod schema the
 * server's `validate()` uses, so a rule is written once and its message is the same under the
 * field and in the 400. The schema's output (trimmed texts, yyyy-MM-dd days, numeric ids) is
 * what the submit handler receives.
 *
 * `TValues` is what the fields hold (texts, id arrays), taken from `defaultValues`: every field
 * gets a default, so an untouched field is '' or [] rather than undefined. `TParsed` is the
 * schema's output.
 */
export type ZodFormOptions<TValues extends FieldValues, TParsed> = Omit<
  UseFormProps<TValues, unknown, TParsed>,
  'resolver' | 'defaultValues'
>;

/** The schema's input type is often `unknown` (query preprocessors); the fields' type is TValues. */
const resolverFor = <TValues extends FieldValues, TParsed>(schema: z.ZodType<TParsed, unknown>) =>
  zodResolver(schema as never) as unknown as Resolver<TValues, unknown, TParsed>;

/** Everything but the resolver: checked on submit first, then again as the user corrects a field. */
const formBehaviour = <TValues extends FieldValues, TParsed>(
  defaultValues: TValues,
  options: ZodFormOptions<TValues, TParsed>,
): UseFormProps<TValues, unknown, TParsed> => ({
  mode: 'onSubmit',
  reValidateMode: 'onChange',
  shouldFocusError: true,
  ...options,
  defaultValues: defaultValues as UseFormProps<TValues, unknown, TParsed>['defaultValues'],
});

/** The useForm options of a schema-validated form (also what the tests build a form control from). */
export function zodFormOptions<TValues extends FieldValues, TParsed>(
  schema: z.ZodType<TParsed, unknown>,
  defaultValues: TValues,
  options: ZodFormOptions<TValues, TParsed> = {},
): UseFormProps<TValues, unknown, TParsed> {
  return { ...formBehaviour(defaultValues, options), resolver: resolverFor<TValues, TParsed>(schema) };
}

/**
 * react-hook-form bound to a shared zod schema. Pair it with the field components of
 * `form-fields.tsx`, which show each field's message under it and 'Ops! Verifique os erros...'
 * after an invalid submit.
 */
export function useZodForm<TValues extends FieldValues, TParsed>(
  schema: z.ZodType<TParsed, unknown>,
  defaultValues: TValues,
  options: ZodFormOptions<TValues, TParsed> = {},
): UseFormReturn<TValues, unknown, TParsed> {
  // Rebuilt only when the schema changes (one report screen serves several schemas); useForm
  // reads defaultValues once.
  const resolver = useMemo(() => resolverFor<TValues, TParsed>(schema), [schema]);
  return useForm<TValues, unknown, TParsed>({ ...formBehaviour(defaultValues, options), resolver });
}
