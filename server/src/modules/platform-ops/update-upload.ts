import type { Middleware } from 'koa';
import multer, { type MulterFile } from '@koa/multer';
import { hasUnsafeText } from '@shared/validation/safe-text';
import {
  UPDATE_FILE_FIELD,
  UPDATE_MAX_BYTES,
  UPDATE_SIGNATURE_FIELD,
  UPDATE_SIGNATURE_MAX_BYTES,
} from '@shared/schemas/platform-ops';
import { AppError } from '../../core/app-error';
import { unsafeTextError } from '../../http/input-guard';
import type { UploadedFile } from '../../http/multipart';

/**
 * POST /platform/updates takes multipart/form-data with the package in `file` and its detached
 * signature in `signature` (one of each, nothing else). Bad forms answer 400/413, never a 500.
 */
export function updateUpload(): Middleware {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: UPDATE_MAX_BYTES, files: 2, fields: 0, parts: 2 },
    defParamCharset: 'utf8',
  }).fields([
    { name: UPDATE_FILE_FIELD, maxCount: 1 },
    { name: UPDATE_SIGNATURE_FIELD, maxCount: 1 },
  ]);
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'body', message: 'envie um formulário multipart/form-data com file e signature' }],
      });
    }
    try {
      await upload(ctx as any, async () => {});
    } catch (err) {
      throw uploadError(err);
    }
    const { file, signature } = updateFiles(ctx);
    if (file && hasUnsafeText(file.originalname)) throw unsafeTextError(UPDATE_FILE_FIELD);
    if (signature && signature.size > UPDATE_SIGNATURE_MAX_BYTES) {
      throw new AppError('ERR_UPDATE_SIGNATURE', {
        fields: [{ path: UPDATE_SIGNATURE_FIELD, message: 'assinatura grande demais' }],
      });
    }
    await next();
  };
}

export function updateFiles(ctx: { request: unknown }): { file?: UploadedFile; signature?: UploadedFile } {
  const files = (ctx.request as { files?: Record<string, MulterFile[]> }).files ?? {};
  return { file: files[UPDATE_FILE_FIELD]?.[0], signature: files[UPDATE_SIGNATURE_FIELD]?.[0] };
}

function uploadError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  const field = (err as { field?: string }).field ?? UPDATE_FILE_FIELD;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new AppError('ERR_PAYLOAD_TOO_LARGE', {
        fields: [{ path: field, message: `o arquivo deve ter no máximo ${UPDATE_MAX_BYTES / (1024 * 1024)} MB` }],
      });
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new AppError('ERR_VALIDATION', {
        fields: [
          { path: field, message: `envie apenas ${UPDATE_FILE_FIELD} (o pacote) e ${UPDATE_SIGNATURE_FIELD} (a assinatura)` },
        ],
      });
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_KEY':
    case 'LIMIT_FIELD_VALUE':
      return new AppError('ERR_VALIDATION', {
        fields: [{ path: 'body', message: `envie apenas ${UPDATE_FILE_FIELD} e ${UPDATE_SIGNATURE_FIELD}` }],
      });
    default:
      return new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'formulário multipart inválido' }] });
  }
}
