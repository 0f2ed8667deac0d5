import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import multer, { type MulterFile, type MulterOptions } from '@koa/multer';
import { CONTACT_IMPORT_EXTENSIONS, CONTACT_IMPORT_MAX_BYTES } from '@shared/schemas/contacts';
import { hasUnsafeText } from '@shared/validation/safe-text';
import { AppError } from '../../core/app-error';
import { assertSafeText, unsafeTextError } from '../../http/input-guard';
import type { AppContext } from '../../http/context';
import type { UploadedImportFile } from './contact-import.service';

/** What multer's disk storage adds to a received file (the shared typing covers memory storage). */
interface DiskFile extends Omit<MulterFile, 'buffer'> {
  path: string;
}

type NameCallback = (error: Error | null, value: string) => void;
type DiskStorageFactory = (opts: {
  destination: string;
  filename: (req: unknown, file: MulterFile, cb: NameCallback) => void;
}) => unknown;
type FileFilter = (req: unknown, file: MulterFile, cb: (error: Error | null, accept?: boolean) => void) => void;

const FILE_FIELD = 'file';

/**
 * Receives the import file of POST /contacts/upload straight to disk (multer disk storage
 * streams it; it is never held in memory) under the tenant's upload folder, with a random
 * name. Only .csv and .xlsx up to CONTACT_IMPORT_MAX_BYTES are accepted; anything else is
 * refused with the spec's text ('Arquivo rejeitado devido ao tamanho ou tipo incompatível.').
 * Text fields (dateFormat) end up in ctx.request.body.
 */
export async function receiveImportFile(
  ctx: AppContext,
  destination: string,
  /** Another limit than the contacts import's (a campaign's import is smaller). */
  maxBytes: number = CONTACT_IMPORT_MAX_BYTES,
): Promise<UploadedImportFile> {
  const storage = (multer as unknown as { diskStorage: DiskStorageFactory }).diskStorage({
    destination,
    filename: (_req, file, cb) => cb(null, `${randomUUID()}${path.extname(file.originalname).toLowerCase()}`),
  });
  const fileFilter: FileFilter = (_req, file, cb) => {
    // The name is stored with the import: refused before anything is written, like any unsafe text.
    if (hasUnsafeText(file.originalname)) return cb(unsafeTextError(FILE_FIELD));
    const ext = path.extname(file.originalname).toLowerCase();
    if ((CONTACT_IMPORT_EXTENSIONS as readonly string[]).includes(ext)) cb(null, true);
    else
      cb(
        new AppError('ERR_UNSUPPORTED_FILE_TYPE', { fields: [{ path: FILE_FIELD, message: 'envie um arquivo .csv ou .xlsx' }] }),
      );
  };
  const options: MulterOptions & { fileFilter: FileFilter } = {
    storage,
    fileFilter,
    limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
    // File names with accents arrive as UTF-8 (busboy's default would read them as latin1).
    defParamCharset: 'utf8',
  };
  try {
    await multer(options).single(FILE_FIELD)(ctx as never, async () => {});
  } catch (err) {
    throw uploadError(err, maxBytes);
  }
  const file = (ctx.request as unknown as { file?: DiskFile }).file;
  try {
    assertSafeText((ctx.request as unknown as { body?: unknown }).body, 'body');
  } catch (err) {
    if (file) await unlink(file.path).catch(() => undefined);
    throw err;
  }
  if (!file)
    throw new AppError('ERR_VALIDATION', { fields: [{ path: FILE_FIELD, message: 'Arquivo é obrigatório (.csv ou .xlsx)' }] });
  return { path: file.path, originalName: file.originalname };
}

function uploadError(err: unknown, maxBytes: number): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'LIMIT_FILE_SIZE':
      return new AppError('ERR_PAYLOAD_TOO_LARGE', {
        fields: [{ path: FILE_FIELD, message: `o arquivo deve ter no máximo ${maxBytes / (1024 * 1024)} MB` }],
      });
    case 'LIMIT_FILE_COUNT':
    case 'LIMIT_UNEXPECTED_FILE':
      return new AppError('ERR_VALIDATION', {
        fields: [{ path: FILE_FIELD, message: `envie um único arquivo, no campo ${FILE_FIELD}` }],
      });
    default:
      // busboy's own failures (missing boundary, truncated body, too many fields) are malformed input.
      return new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'formulário multipart inválido' }] });
  }
}
