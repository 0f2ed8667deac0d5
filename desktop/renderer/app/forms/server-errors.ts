import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import type { Translate } from '../../api/error-mapper';
import { formFailureOf, type FormFailure } from '../crud/form-errors';
import { SERVER_ERROR_KEY } from './field-text';

/**
 * A refused submit (a failed mutation or query) shown on the form: the server's text as the
 * form's summary line, and each field the 400 named (`fields[].path`) under that field when the
 * form has it. Returns the failure, for code-specific handling.
 */
export function showServerFailure<T extends FieldValues>(
  setError: UseFormSetError<T>,
  failure: unknown,
  t: Translate,
  fieldNames: readonly string[],
): FormFailure {
  const refused = formFailureOf(failure, t);
  setError(`root.${SERVER_ERROR_KEY}`, { type: 'server', message: refused.message });
  for (const [path, message] of Object.entries(refused.fields)) {
    if (fieldNames.includes(path)) setError(path as FieldPath<T>, { type: 'server', message });
  }
  return refused;
}
