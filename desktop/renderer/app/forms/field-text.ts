import type { FieldErrors, FieldValues } from 'react-hook-form';

/**
 * Texts of the form pattern that do not depend on React: how a schema message reads under its
 * field, the form's summary line, and the dd/MM/yyyy typing aid.
 */

/** i18next's t, narrowed to what these helpers need. */
export type FormTranslate = (key: string) => string;

/**
 * A schema message is either a sentence ('Data inválida', 'Selecione ao menos uma fila') or a
 * fragment written to follow the field's name ('é obrigatório', 'no máximo 100 caracteres'; the
 * server's 400 reads `name: é obrigatório`). Under a field a fragment gets the field's label, so
 * it reads like spec section 5's '{attribute} é obrigatório'.
 */
export function fieldMessage(label: string, message: string | undefined): string | undefined {
  const text = message?.trim();
  if (!text) return undefined;
  const first = text.charAt(0);
  if (first === first.toLocaleUpperCase('pt-BR') || !label) return text;
  return /^(é|deve|não)\s/.test(text) ? `${label} ${text}` : `${label}: ${text}`;
}

/** The server refused the submit: its text sits on `errors.root.server`. */
export const SERVER_ERROR_KEY = 'server';

/**
 * The line above the buttons: the server's refusal when there is one, else 'Ops! Verifique os
 * erros...' once a submit failed the schema (spec section 5), else nothing.
 */
export function formSummaryMessage<T extends FieldValues>(
  state: { errors: FieldErrors<T>; submitCount: number },
  t: FormTranslate,
): string | null {
  const server = state.errors.root?.[SERVER_ERROR_KEY]?.message;
  if (server) return server;
  const fieldErrors = Object.keys(state.errors).filter((key) => key !== 'root');
  return state.submitCount > 0 && fieldErrors.length > 0 ? t('validation.formHasErrors') : null;
}

/**
 * Typing aid for a dd/MM/yyyy field: the slash after the day and the month comes by itself
 * ('01' -> '01/'), a slash typed right after it is not doubled, and eight pasted digits are
 * spelled out. Anything else (deleting, yyyy-MM-dd, a pasted date) is left as typed.
 */
export function typedCalendarDay(previous: string, next: string): string {
  if (/^\d{8}$/.test(next)) return `${next.slice(0, 2)}/${next.slice(2, 4)}/${next.slice(4)}`;
  if (next.length !== previous.length + 1 || !next.startsWith(previous)) return next;
  if (next.endsWith('/') && previous.endsWith('/')) return previous;
  return /^\d{2}$|^\d{2}\/\d{2}$/.test(next) ? `${next}/` : next;
}
