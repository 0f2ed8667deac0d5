import type { Middleware } from 'koa';
import '@shared/schemas/zod-locale';
import type { ZodType } from 'zod';
import { parseRecordId, RECORD_ID_MESSAGE } from '@shared/schemas/record-id';
import { AppError } from '../core/app-error';
import type { AppContext } from './context';
import { UNKNOWN_FIELD_MESSAGE, unknownBodyFields } from './strict-body';

type Source = 'body' | 'query' | 'params';

export interface ValidateOptions {
  /**
   * Read-only fields a known client echoes back in this body (the anchor's web client sends the
   * row it read, e.g. `id`, `tenantId`, `createdAt`): accepted and ignored. Any other key the
   * schema does not declare is refused (bodies only).
   */
  echoed?: readonly string[];
  /**
   * A known client's names for fields of this body (`{ queue: 'name' }`): renamed before parsing
   * when the body does not also carry our name (both at once is refused as an unknown field).
   */
  aliases?: Readonly<Record<string, string>>;
}

/**
 * Read-only fields of a row that a client which edits what it read sends back: the anchor's web
 * client posts its whole row (`{ id, tenantId, userId, createdAt, updatedAt, ... }`).
 */
export const ECHOED_ROW_FIELDS = ['id', 'tenantId', 'userId', 'createdAt', 'updatedAt'] as const;

/** What a `validate()` middleware checks, readable by tests that enumerate the routes. */
export interface ValidatedInput {
  source: Source;
  schema: ZodType;
  echoed: readonly string[];
  aliases: Readonly<Record<string, string>>;
}

export const VALIDATED_INPUT = Symbol('validatedInput');

/**
 * Parses one part of the request with a zod schema into `ctx.input`. A failure answers 400
 * ERR_VALIDATION naming each field and why; a body key the schema does not declare is such a
 * failure ('campo desconhecido'). Handlers only ever see parsed input.
 */
export function validate<T>(schema: ZodType<T>, source: Source = 'body', opts: ValidateOptions = {}): Middleware<any, any> {
  const echoed = opts.echoed ?? [];
  const aliases = opts.aliases ?? {};
  const middleware = async (ctx: AppContext, next: () => Promise<unknown>) => {
    const raw =
      source === 'body'
        ? renameAliases((ctx.request as unknown as { body?: unknown }).body ?? {}, aliases)
        : source === 'query'
          ? ctx.query
          : ctx.params;
    const result = schema.safeParse(raw);
    const fields = source === 'body' ? unknownBodyFields(schema, raw, echoed).map((path) => ({ path, message: UNKNOWN_FIELD_MESSAGE })) : [];
    if (!result.success) {
      fields.push(...result.error.issues.map((i) => ({ path: i.path.join('.') || source, message: i.message })));
    }
    if (fields.length > 0) {
      throw new AppError('ERR_VALIDATION', {
        fields,
        message: `Ops! Verifique os erros... ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`,
      });
    }
    ctx.input = result.data;
    await next();
  };
  return Object.assign(middleware, { [VALIDATED_INPUT]: { source, schema, echoed, aliases } satisfies ValidatedInput });
}

function renameAliases(body: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const entries = Object.entries(aliases).filter(([alias, name]) => alias in body && !(name in body));
  if (entries.length === 0) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [alias, name] of entries) {
    out[name] = out[alias];
    delete out[alias];
  }
  return out;
}

/** `:id` style params: an id the int4 columns can hold (1..2147483647); anything else is a 400 naming the param. */
export function intParam(ctx: AppContext, name: string): number {
  const value = parseRecordId(ctx.params[name]);
  if (value === undefined) throw new AppError('ERR_VALIDATION', { fields: [{ path: name, message: RECORD_ID_MESSAGE }] });
  return value;
}
