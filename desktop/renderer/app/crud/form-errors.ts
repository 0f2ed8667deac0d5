import { describeError, errorCodeOf, type Translate } from '../../api/error-mapper';

/**
 * A refused write as a form shows it: the toast text (the base query already toasts it) for the
 * callout, and a text under each field the server named in `fields[]`. A conflict such as
 * ERR_QUEUE_EXISTS names the field and reads best as its own translated text; a validation
 * failure carries the server's per-field sentence.
 */
export interface FormFailure {
  message: string;
  code: string | null;
  fields: Record<string, string>;
}

export function formFailureOf(failure: unknown, t: Translate): FormFailure {
  const message = describeError(failure, t);
  const body = (failure as { data?: unknown } | undefined)?.data;
  const code = errorCodeOf(body);
  const fields: Record<string, string> = {};
  const listed = body && typeof body === 'object' ? (body as { fields?: unknown }).fields : undefined;
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      if (!entry || typeof entry !== 'object') continue;
      const { path, message: text } = entry as { path?: unknown; message?: unknown };
      if (typeof path !== 'string' || path === '') continue;
      fields[path] = code && code !== 'ERR_VALIDATION' ? message : typeof text === 'string' && text ? text : message;
    }
  }
  return { message, code, fields };
}
