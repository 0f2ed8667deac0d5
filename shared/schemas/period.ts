import { z } from 'zod';
import { recordId } from './record-id';
import { parseCalendarDay } from './calendar-day';

export { parseCalendarDay };

/**
 * Query pieces shared by the statistics and report calls (issue #13): calendar days typed as
 * dd/MM/yyyy (spec section 5) or yyyy-MM-dd, and id lists in the spellings clients send.
 */

export const INVALID_DATE_MESSAGE = 'Data inválida';
/** The longest period a dashboard or report call accepts, in days. */
export const PERIOD_MAX_DAYS = 366;
export const ID_LIST_MAX = 200;

/** A required calendar day: absent -> '{attribute} é obrigatório'; malformed -> 'Data inválida'. */
export const calendarDay = (attribute: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${attribute} é obrigatório` : INVALID_DATE_MESSAGE) })
    .min(1, { error: `${attribute} é obrigatório` })
    .transform((value, ctx) => {
      const day = parseCalendarDay(value);
      if (!day) {
        ctx.addIssue({ code: 'custom', message: INVALID_DATE_MESSAGE });
        return z.NEVER;
      }
      return day;
    });

/** Whole days from `start` to `end` (yyyy-MM-dd), inclusive of both. */
export function periodDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Splits the spellings of a list in a query: `x=1,2`, repeated `x=1&x=2`, `x[]=` (axios), a JSON array. */
export function splitQueryList(value: unknown): unknown[] | undefined {
  if (value === undefined || value === '' || value === null) return undefined;
  const parts = Array.isArray(value) ? value : [value];
  return parts.flatMap((p) => {
    if (typeof p !== 'string') return [p];
    const text = p.trim();
    if (text.startsWith('[')) {
      try {
        const parsed = JSON.parse(text) as unknown;
        return Array.isArray(parsed) ? parsed : [text];
      } catch {
        return [text];
      }
    }
    return text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  });
}

/** An optional list of record ids in a query. */
export const idListQuery = z.preprocess(
  splitQueryList,
  z.array(recordId, { error: 'deve ser uma lista de ids' }).max(ID_LIST_MAX, { error: `no máximo ${ID_LIST_MAX} itens` }).optional(),
);

/** A list of record ids in a query that must name at least one: absent or empty -> `message`. */
export const requiredIdList = (message: string) =>
  z.preprocess(
    splitQueryList,
    z
      .array(recordId, { error: message })
      .min(1, { error: message })
      .max(ID_LIST_MAX, { error: `no máximo ${ID_LIST_MAX} itens` }),
  );

/** A list of values from `values` that must name at least one. */
export const requiredEnumList = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(
    splitQueryList,
    z
      .array(z.enum(values, { error: `deve ser um destes valores: ${values.join(', ')}` }), { error: message })
      .min(1, { error: message })
      .max(ID_LIST_MAX),
  );

/** An optional list of values from `values` in a query. */
export const enumListQuery = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    splitQueryList,
    z.array(z.enum(values, { error: `deve ser um destes valores: ${values.join(', ')}` })).max(ID_LIST_MAX).optional(),
  );

/**
 * axios sends arrays as `x[]=1&x[]=2`; Koa keeps the brackets in the key. Both spellings mean the
 * same filter.
 */
export const withoutBrackets = (raw: unknown): unknown => {
  if (!raw || typeof raw !== 'object') return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const base = key.endsWith('[]') ? key.slice(0, -2) : key;
    const previous = out[base];
    out[base] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
  }
  return out;
};

/** startDate/endDate in order and at most PERIOD_MAX_DAYS long (added to an object schema). */
export function checkPeriod(value: { startDate: string; endDate: string }, ctx: z.RefinementCtx): void {
  if (value.endDate < value.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'A data final deve ser igual ou posterior à data inicial' });
  } else if (periodDays(value.startDate, value.endDate) > PERIOD_MAX_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: `O período deve ter no máximo ${PERIOD_MAX_DAYS} dias` });
  }
}

/** The query of every dashboard statistics call (see statistics.ts). */
export const PeriodQuerySchema = z.preprocess(
  withoutBrackets,
  z
    .object({
      startDate: calendarDay('Data inicial'),
      endDate: calendarDay('Data final'),
      queuesIds: idListQuery,
    })
    .superRefine(checkPeriod),
);
export type PeriodQuery = z.infer<typeof PeriodQuerySchema>;
