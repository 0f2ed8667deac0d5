import type { Middleware } from 'koa';
import multer, { type MulterFile } from '@koa/multer';
import { hasUnsafeText } from '@shared/validation/safe-text';
import { AppError } from '../core/app-error';
import { assertSafeText, unsafeTextError } from './input-guard';

/** A file received in a multipart/form-data request, held in memory. */
export type UploadedFile = Pick<MulterFile, 'originalname' | 'mimetype' | 'size' | 'buffer'>;

const MULTIPART_FIELD_VALUE_MAX_BYTES = 64 * 1024;

/**
 * Accepts a body that is either JSON (parsed earlier by the body parser) or multipart/form-data
 * with at most one file in `field`. Text fields become `ctx.request.body`, so the route's zod
 * schema validates both forms alike; the file is read with `uploadedFile(ctx)`. Limit and format
 * failures answer like every other bad input (413 / 400 naming the field), never a 500.
 */
export function optionalFileUpload(field: string, maxBytes: number): Middleware {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21, fieldSize: MULTIPART_FIELD_VALUE_MAX_BYTES },
    defParamCharset: 'utf8',
  }).single(field);
  return async (ctx, next) => {
    try {
      await upload(ctx, async () => {});
    } catch (err) {
      throw uploadError(err, field, maxBytes);
    }
    // Multipart text is parsed here, after the app-wide input guard: the same refusal of NUL and
    // control characters in field names, values and the file name.
    assertSafeText((ctx.request as { body?: unknown }).body, 'body');
    const file = uploadedFile(ctx);
    if (file && hasUnsafeText(file.originalname)) throw unsafeTextError(field);
    await next();
  };
}

export function uploadedFile(ctx: { request: unknown }): UploadedFile | undefined {
  return (ctx.request as { file?: MulterFile }).file;
}

function uploadError(err: unknown, field: string, maxBytes: number): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  const errField = (err as { field?: string }).field ?? field;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new AppError('ERR_PAYLOAD_TOO_LARGE', {
        fields: [{ path: field, message: `o arquivo deve ter no máximo ${Math.floor(maxBytes / (1024 * 1024))} MB` }],
      });
    case 'LIMIT_FILE_COUNT':
    case 'LIMIT_UNEXPECTED_FILE':
      return new AppError('ERR_VALIDATION', {
        fields: [{ path: errField, message: `envie no máximo um arquivo, no campo ${field}` }],
      });
    case 'LIMIT_FIELD_VALUE':
      return new AppError('ERR_VALIDATION', { fields: [{ path: errField, message: 'valor grande demais' }] });
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_FIELD_KEY':
      return new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'campos demais no formulário' }] });
    default:
      // busboy's own failures (missing boundary, truncated body) are malformed input.
      return new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'formulário multipart inválido' }] });
  }
}
