import { z } from 'zod';
import { recordId } from './record-id';

/**
 * Fields shared by the CRM catalogs (queues, tags, teams, kanban columns, lanes, reasons, quick
 * messages). One definition keeps their limits and Portuguese messages identical in every form.
 */

export const CATALOG_NAME_MAX = 100;
export const CATALOG_TEXT_MAX = 4096;

/** `#rgb` or `#rrggbb`: the colour pickers of the anchor screens store hex only. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const catalogName = z
  .string({ error: 'é obrigatório' })
  .trim()
  .min(1, { error: 'é obrigatório' })
  .max(CATALOG_NAME_MAX, { error: `no máximo ${CATALOG_NAME_MAX} caracteres` });

export const hexColor = z
  .string({ error: 'deve ser uma cor' })
  .trim()
  .regex(HEX_COLOR_PATTERN, { error: 'deve ser uma cor no formato #rrggbb' });

/**
 * A boolean that also accepts the text forms a multipart form sends ("true"/"false", "1"/"0",
 * "on"/"off"), so the same schema serves JSON and multipart bodies.
 */
export const formBoolean = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (['true', '1', 'on', 'yes'].includes(s)) return true;
    if (['false', '0', 'off', 'no'].includes(s)) return false;
    return v;
  },
  z.boolean({ error: 'deve ser verdadeiro ou falso' }),
);

/** Record id in a body (JSON number, or its text form from a multipart form): the one id schema, 1..2147483647. */
export { recordId } from './record-id';

/** PUT .../reorder body: every id of the list exactly once, in the new order (first = position 0). */
export const ReorderSchema = z.object({
  ids: z.array(recordId, { error: 'deve ser a lista de ids na nova ordem' }).max(1000, { error: 'no máximo 1000 itens' }),
});

export type ReorderInput = z.infer<typeof ReorderSchema>;

/** An update names at least one field; an empty PUT is almost always a client bug. */
export const atLeastOneField = <T extends Record<string, unknown>>(value: T): boolean =>
  Object.values(value).some((v) => v !== undefined);

export const AT_LEAST_ONE_FIELD_MESSAGE = 'informe ao menos um campo para alterar';

/** Payload of `<x>:update` / `<x>:delete` socket events of the catalogs. */
export type CatalogEventPayload<K extends string, T> =
  ({ action: 'create' | 'update' } & { [P in K]: T }) | { action: 'reorder'; ids: number[] } | { action: 'delete'; id: number };
