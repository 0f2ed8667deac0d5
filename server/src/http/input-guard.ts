import type { Middleware } from 'koa';
import { findUnsafeText, sanitizeDeep, UNSAFE_TEXT_MESSAGE } from '@shared/validation/safe-text';
import { AppError } from '../core/app-error';

/** The 400 for text the database cannot hold, naming the field as validation does (`searchParam`, `extraInfo.0.value`, `file`). */
export const unsafeTextError = (path: string): AppError =>
  new AppError('ERR_VALIDATION', {
    fields: [{ path, message: UNSAFE_TEXT_MESSAGE }],
    message: `Ops! Verifique os erros... ${path}: ${UNSAFE_TEXT_MESSAGE}`,
  });

/** Throws the 400 when `value` (a parsed body, a query, multipart fields) holds unsafe text anywhere. */
export function assertSafeText(value: unknown, source: string): void {
  const found = findUnsafeText(value);
  if (found !== undefined) throw unsafeTextError(found === '(valor)' ? source : found);
}

/**
 * The one place where NUL, control characters and lone surrogates are refused (issue #11): every
 * query string and parsed body, before any route reads it, with a 400 naming the field. Multipart
 * bodies are parsed later by their routes and checked there (`http/multipart.ts`, the contact
 * import upload). Path segments reach handlers through their own id or key checks.
 *
 * Provider webhooks are the exception: refusing would make the provider retry the same delivery
 * forever, so their text is cleaned instead (controls dropped, lone surrogates replaced by U+FFFD)
 * after the signature check has what it needs (the raw body is kept as received).
 */
export function inputGuard(): Middleware {
  return async (ctx, next) => {
    const request = ctx.request as unknown as { body?: unknown };
    if (ctx.path.startsWith('/webhooks/')) {
      if (request.body !== undefined) request.body = sanitizeDeep(request.body);
    } else {
      assertSafeText(ctx.query, 'query');
      assertSafeText(request.body, 'body');
    }
    await next();
  };
}
