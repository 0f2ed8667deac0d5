import type { Middleware } from 'koa';
import '@shared/schemas/zod-locale';
import type { ZodType } from 'zod';
import { AppError } from '../core/app-error';
import type { AppContext } from './context';

type Source = 'body' | 'query' | 'params';

/**
 * Parses one part of the request with a zod schema into `ctx.input`. A failure answers 400
 * ERR_VALIDATION naming each field and why. Handlers only ever see parsed input.
 */
export function validate<T>(schema: ZodType<T>, source: Source = 'body'): Middleware<any, any> {
  return async (ctx: AppContext, next) => {
    const raw =
      source === 'body' ? (ctx.request as unknown as { body?: unknown }).body ?? {} : source === 'query' ? ctx.query : ctx.params;
    const result = schema.safeParse(raw);
    if (!result.success) {
      throw new AppError('ERR_VALIDATION', {
        fields: result.error.issues.map((i) => ({ path: i.path.join('.') || source, message: i.message })),
        message: `Ops! Verifique os erros... ${result.error.issues
          .map((i) => `${i.path.join('.') || source}: ${i.message}`)
          .join('; ')}`,
      });
    }
    ctx.input = result.data;
    await next();
  };
}

/** `:id` style params as positive integers; a bad one is a 400 naming the param. */
export function intParam(ctx: AppContext, name: string): number {
  const value = Number(ctx.params[name]);
  if (!Number.isInteger(value) || value <= 0) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: name, message: 'deve ser um número inteiro positivo' }] });
  }
  return value;
}
