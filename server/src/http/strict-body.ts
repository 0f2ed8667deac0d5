import type { ZodType } from 'zod';

/**
 * Unknown body fields (issue #11, section 7): a write either does what its body says or is refused
 * with a 400 naming the field, so no client believes a change was made. Zod's plain objects drop
 * unknown keys silently; rather than turning every shared schema strict (the React forms parse
 * form state with them), the server walks the route's schema next to the body and names each key
 * no object of the schema declares. Objects declared loose (`z.looseObject`, a catchall) and
 * records keep accepting any key.
 */

type Def = { type: string; [k: string]: any };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })?._zod?.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_DEPTH = 32;

/**
 * Paths of the unknown keys in `value`, or null when `schema` cannot describe `value` at all (a
 * type mismatch, which the schema itself reports).
 */
function unknownKeys(schema: unknown, value: unknown, path: string[], depth: number): string[] | null {
  const def = defOf(schema);
  if (!def || depth > MAX_DEPTH) return [];
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return null;
      const shape = def.shape as Record<string, unknown>;
      const loose = def.catchall !== undefined && defOf(def.catchall)?.type !== 'never';
      const found: string[] = [];
      for (const [key, v] of Object.entries(value)) {
        if (Object.prototype.hasOwnProperty.call(shape, key)) found.push(...(unknownKeys(shape[key], v, [...path, key], depth + 1) ?? []));
        else if (!loose) found.push([...path, key].join('.'));
      }
      return found;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      if ((value === undefined || value === null) && def.type !== 'nonoptional') return [];
      return unknownKeys(def.innerType, value, path, depth + 1);
    case 'lazy':
      return unknownKeys(def.getter(), value, path, depth + 1);
    case 'pipe': {
      // `.transform()` is pipe(schema, transform): the keys are the schema's. `z.preprocess` is
      // pipe(transform, schema): the schema sees the preprocessed value (it may rename keys).
      const first = defOf(def.in);
      if (first?.type !== 'transform') return unknownKeys(def.in, value, path, depth + 1);
      let next: unknown;
      try {
        next = first.transform(value, { value, issues: [], addIssue: () => undefined });
      } catch {
        next = value;
      }
      if (next instanceof Promise) return [];
      return unknownKeys(def.out, next, path, depth + 1);
    }
    case 'array': {
      if (!Array.isArray(value)) return null;
      return value.flatMap((v, i) => unknownKeys(def.element, v, [...path, String(i)], depth + 1) ?? []);
    }
    case 'intersection': {
      // A key is unknown when neither side declares it.
      const left = unknownKeys(def.left, value, path, depth + 1);
      const right = unknownKeys(def.right, value, path, depth + 1);
      if (left === null || right === null) return left ?? right;
      return left.filter((p) => right.includes(p));
    }
    case 'union': {
      let best: string[] | null = null;
      for (const option of def.options as unknown[]) {
        const found = unknownKeys(option, value, path, depth + 1);
        if (found !== null && (best === null || found.length < best.length)) best = found;
        if (best?.length === 0) break;
      }
      return best;
    }
    case 'record':
    case 'any':
    case 'unknown':
    case 'custom':
      // Free-form by design: keys are not theirs to judge.
      return [];
    default:
      // A scalar schema does not describe an object (matters inside unions).
      return typeof value === 'object' && value !== null ? null : [];
  }
}

/**
 * Unknown keys of a request body against the route's schema, as dotted paths (`tags.0.foo`).
 * `echoed` keys are read-only fields a known client sends back unchanged (accepted, ignored).
 */
export function unknownBodyFields(schema: ZodType, body: unknown, echoed: readonly string[] = []): string[] {
  return (unknownKeys(schema, body, [], 0) ?? []).filter((p) => !echoed.includes(p));
}

export const UNKNOWN_FIELD_MESSAGE = 'campo desconhecido';
