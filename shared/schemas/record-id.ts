import { z } from 'zod';

/**
 * Record ids are PostgreSQL `integer` (int4) columns: 1..2147483647. One schema for every id in a
 * path, query or body, so an id the column cannot hold is a 400 naming the field instead of a
 * database error (a 500). The rule everywhere: an id out of range is malformed (400); an id in range
 * that names no row of the caller's tenant is not found (404).
 */
export const RECORD_ID_MAX = 2_147_483_647;
export const RECORD_ID_MESSAGE = `deve ser um id numérico entre 1 e ${RECORD_ID_MAX}`;

const DIGITS = /^\s*\d{1,16}\s*$/;

/** The id `value` names, or undefined when it is not an integer id in range (strings of digits count, as in paths and forms). */
export function parseRecordId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && DIGITS.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= RECORD_ID_MAX ? n : undefined;
}

/**
 * An id in a body or query (JSON number, or its text form from a multipart form or query string).
 * `required` is the message when the field is absent (default: the same as any invalid value).
 */
export const recordIdSchema = (message: string = RECORD_ID_MESSAGE, required: string = message) =>
  z.preprocess(
    (v) => (typeof v === 'string' && DIGITS.test(v) ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? required : message) })
      .int({ error: message })
      .min(1, { error: message })
      .max(RECORD_ID_MAX, { error: message }),
  );

export const recordId = recordIdSchema();
