import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@shared/errors';
import { AppError } from '../core/app-error';
import type { AppState } from './context';

/**
 * The code of an HTTP error thrown (or answered without a body) by a library: the router's 405,
 * koa-static's 403/404, a body parser's 411, a range request's 416. Each keeps its own 4xx status.
 */
const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  401: 'ERR_INVALID_TOKEN',
  403: 'ERR_NO_PERMISSION',
  404: 'ERR_NOT_FOUND',
  405: 'ERR_METHOD_NOT_ALLOWED',
  406: 'ERR_NOT_ACCEPTABLE',
  411: 'ERR_LENGTH_REQUIRED',
  413: 'ERR_PAYLOAD_TOO_LARGE',
  416: 'ERR_RANGE_NOT_SATISFIABLE',
  429: 'ERR_TOO_MANY_REQUESTS',
  431: 'ERR_HEADERS_TOO_LARGE',
};

const httpErrorBody = (status: number, requestId: string | undefined): ErrorBody => {
  const code = HTTP_STATUS_CODES[status] ?? 'ERR_BAD_REQUEST';
  return { error: code, message: ERROR_CODES[code].message, requestId };
};

/** Maps AppError to `{ error, message }` with its status; other 4xx keep their status; anything else is a logged 500. */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        // The router answers an unknown method of a known path with 501 and no body: for a client
        // that is a 405 like any other method the path does not take.
        if (ctx.status === 501) ctx.status = 405;
        if (ctx.status >= 400 && ctx.status < 500) {
          const status = ctx.status;
          ctx.body = httpErrorBody(status, ctx.state.requestId);
          ctx.status = status;
        }
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
      // Body-parser failures (invalid JSON, bad encoding, unsupported body type) are the client's fault: 400, not 500.
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
      if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
        const headers = (err as { headers?: Record<string, string> }).headers;
        if (headers && typeof headers === 'object') ctx.set(headers);
        ctx.status = status;
        ctx.body = httpErrorBody(status, requestId);
        return;
      }
      logger.error({ err, requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'ERR_INTERNAL', message: ERROR_CODES.ERR_INTERNAL.message, requestId } satisfies ErrorBody;
    }
  };
}
