import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ERROR_CODES, type ErrorBody } from '@shared/errors';
import { AppError } from '../core/app-error';
import type { AppState } from './context';

/** Maps AppError to `{ error, message }` with its status; anything else is a logged 500. */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'ERR_NOT_FOUND', message: ERROR_CODES.ERR_NOT_FOUND.message } satisfies ErrorBody;
      }
    } catch (err) {
      const requestId = ctx.state.requestId;
      if (err instanceof AppError) {
        ctx.status = err.status;
        if (err.headers) ctx.set(err.headers);
        const body: ErrorBody = { error: err.code, message: err.message, requestId };
        if (err.fields) body.fields = err.fields;
        // Details never override the standard fields.
        ctx.body = err.details ? { ...err.details, ...body } : body;
        return;
      }
      const status = (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
      if (status === 413) {
        ctx.status = 413;
        ctx.body = { error: 'ERR_PAYLOAD_TOO_LARGE', message: ERROR_CODES.ERR_PAYLOAD_TOO_LARGE.message, requestId } satisfies ErrorBody;
        return;
      }
      // Body-parser failures (invalid JSON, bad encoding) are the client's fault: 400, not 500.
      if (status === 400 || status === 415) {
        ctx.status = 400;
        ctx.body = {
          error: 'ERR_VALIDATION',
          message: ERROR_CODES.ERR_VALIDATION.message,
          fields: [{ path: 'body', message: 'JSON inválido' }],
          requestId,
        } satisfies ErrorBody;
        return;
      }
      logger.error({ err, requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'ERR_INTERNAL', message: ERROR_CODES.ERR_INTERNAL.message, requestId } satisfies ErrorBody;
    }
  };
}
