import { randomUUID } from 'node:crypto';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import multer, { type MulterFile, type MulterOptions } from '@koa/multer';
import {
  MESSAGE_DOCUMENT_MAX_BYTES,
  MESSAGE_MAX_FILES,
  MESSAGE_MEDIA_FIELD,
  MESSAGE_MEDIA_MAX_BYTES,
} from '@shared/schemas/messages';
import { AppError } from '../../core/app-error';
import { safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import type { Middleware } from 'koa';
import { authOf, type AppContext } from '../../http/context';

/** Folder of message files inside the tenant's private upload folder. */
export const MESSAGE_MEDIA_FOLDER = 'messages';

/** A received file, already on disk in the tenant's folder. */
export interface ReceivedMedia {
  /** Relative to the tenant's upload folder (what messages.mediaPath stores). */
  relativePath: string;
  absolutePath: string;
  fileName: string;
  mimeType: string;
  size: number;
  /** chat | image | audio | video | document: how the message is shown and sent. */
  mediaType: 'image' | 'audio' | 'video' | 'document';
}

interface DiskFile extends Omit<MulterFile, 'buffer'> {
  path: string;
  filename: string;
}

type NameCallback = (error: Error | null, value: string) => void;
type DiskStorageFactory = (opts: {
  destination: string;
  filename: (req: unknown, file: MulterFile, cb: NameCallback) => void;
}) => unknown;
type FileFilter = (req: unknown, file: MulterFile, cb: (error: Error | null, accept?: boolean) => void) => void;

/**
 * Files that run code where they are opened. Refused whatever the declared type: a document is
 * forwarded to customers and opened by agents.
 */
const BLOCKED_EXTENSIONS = new Set([
  '.exe',
  '.msi',
  '.bat',
  '.cmd',
  '.com',
  '.scr',
  '.pif',
  '.cpl',
  '.vbs',
  '.vbe',
  '.js',
  '.jse',
  '.wsf',
  '.wsh',
  '.ps1',
  '.psm1',
  '.hta',
  '.jar',
  '.lnk',
  '.reg',
  '.dll',
  '.sh',
  '.app',
  '.dmg',
  '.iso',
]);

/** A file name whose extension runs code where it is opened (refused for uploads and for the chatbot's media by URL). */
export const isBlockedFileName = (name: string): boolean => BLOCKED_EXTENSIONS.has(path.extname(name).toLowerCase());

const rejected = (message: string, code: 'ERR_UNSUPPORTED_FILE_TYPE' | 'ERR_PAYLOAD_TOO_LARGE' = 'ERR_UNSUPPORTED_FILE_TYPE') =>
  new AppError(code, { fields: [{ path: MESSAGE_MEDIA_FIELD, message }] });

export function mediaTypeOf(mimeType: string): ReceivedMedia['mediaType'] {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return 'document';
}

export function tenantMediaRoot(dataDir: string, tenantId: number): string {
  return path.resolve(dataDir, 'uploads', String(tenantId));
}

/** Absolute path of a stored message file, refusing anything outside the tenant's folder. */
export function absoluteMediaPath(dataDir: string, tenantId: number, relative: string): string {
  const root = tenantMediaRoot(dataDir, tenantId);
  const target = path.resolve(root, relative);
  if (!target.startsWith(root + path.sep)) throw new Error(`path escapes the tenant folder: ${relative}`);
  return target;
}

/**
 * Receives the files of POST /messages/{ticketId} (field `medias`, up to MESSAGE_MAX_FILES)
 * straight to the tenant's private folder with random names (multer disk storage streams them;
 * a 100 MB document is never held in memory). Rules (spec section 5 "Files"): images, audio and
 * video up to 16 MB, other documents up to 100 MB, never executables; a refused file answers
 * 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.' (ERR_PAYLOAD_TOO_LARGE 413 or
 * ERR_UNSUPPORTED_FILE_TYPE 415) and nothing of the request is kept. Text fields end up in
 * ctx.request.body for the route's schema. A JSON request passes through untouched.
 */
export async function receiveMessageMedia(ctx: AppContext, dataDir: string, tenantId: number): Promise<ReceivedMedia[]> {
  if (!ctx.is('multipart')) return [];
  const destination = path.join(tenantMediaRoot(dataDir, tenantId), MESSAGE_MEDIA_FOLDER);
  await mkdir(destination, { recursive: true });
  const storage = (multer as unknown as { diskStorage: DiskStorageFactory }).diskStorage({
    destination,
    filename: (_req, file, cb) => {
      const ext = path.extname(file.originalname).toLowerCase();
      cb(null, `${randomUUID()}${/^\.[a-z0-9]{1,10}$/.test(ext) ? ext : ''}`);
    },
  });
  const fileFilter: FileFilter = (_req, file, cb) => {
    if (BLOCKED_EXTENSIONS.has(path.extname(file.originalname).toLowerCase())) {
      cb(rejected('tipo de arquivo não permitido'));
    } else cb(null, true);
  };
  const options: MulterOptions & { fileFilter: FileFilter } = {
    storage,
    fileFilter,
    limits: {
      fileSize: MESSAGE_DOCUMENT_MAX_BYTES,
      files: MESSAGE_MAX_FILES,
      fields: 20,
      parts: 20 + MESSAGE_MAX_FILES,
      fieldSize: 64 * 1024,
    },
    defParamCharset: 'utf8',
  };
  try {
    await multer(options).array(MESSAGE_MEDIA_FIELD, MESSAGE_MAX_FILES)(ctx as never, async () => {});
  } catch (err) {
    throw uploadError(err);
  }
  const files = ((ctx.request as unknown as { files?: DiskFile[] }).files ?? []).map((f) => {
    const mimeType = safeMimeType(f.mimetype);
    return {
      relativePath: path.posix.join(MESSAGE_MEDIA_FOLDER, f.filename),
      absolutePath: f.path,
      fileName: safeDisplayName(f.originalname),
      mimeType,
      size: f.size,
      mediaType: mediaTypeOf(mimeType),
    } satisfies ReceivedMedia;
  });
  const tooBig = files.find((f) => f.mediaType !== 'document' && f.size > MESSAGE_MEDIA_MAX_BYTES);
  if (tooBig) {
    await discardMedia(files);
    throw rejected(
      `imagens, áudios e vídeos devem ter no máximo ${MESSAGE_MEDIA_MAX_BYTES / (1024 * 1024)} MB`,
      'ERR_PAYLOAD_TOO_LARGE',
    );
  }
  return files;
}

type MediaState = { media?: ReceivedMedia[] };

/**
 * Route middleware: multipart files (field `medias`) to the caller's tenant's private folder
 * (receiveMessageMedia), readable with `receivedMediaOf(ctx)`; JSON passes through. The files are
 * removed if the request fails after them. Must come after requireAuth.
 */
export function mediaUpload(dataDir: string): Middleware {
  return async (ctx, next) => {
    const files = await receiveMessageMedia(ctx as AppContext, dataDir, authOf(ctx).tenantId);
    (ctx.state as MediaState).media = files;
    try {
      await next();
    } catch (err) {
      await discardMedia(files);
      throw err;
    }
  };
}

/** The files mediaUpload received for this request (none for a JSON request). */
export const receivedMediaOf = (ctx: Pick<AppContext, 'state'>): ReceivedMedia[] => (ctx.state as MediaState).media ?? [];

/**
 * Answers a stored private file (a ticket message's or an internal-chat message's): inline, its
 * display name, never cached, and sandboxed so received bytes never run as a page of this origin
 * whatever their declared type.
 */
export function respondWithStoredFile(
  ctx: Pick<AppContext, 'set' | 'body'>,
  file: { stream: NodeJS.ReadableStream; size: number; name: string; type: string },
): void {
  ctx.set('Content-Type', file.type);
  ctx.set('Content-Length', String(file.size));
  ctx.set('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('Cache-Control', 'private, no-store');
  (ctx as { body: unknown }).body = file.stream;
}

/** Removes received files that will not be used (refused or duplicate request). */
export async function discardMedia(files: readonly Pick<ReceivedMedia, 'absolutePath'>[]): Promise<void> {
  await Promise.all(
    files.map((f) =>
      unlink(f.absolutePath).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      }),
    ),
  );
}

function uploadError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'LIMIT_FILE_SIZE':
      return rejected(`o arquivo deve ter no máximo ${MESSAGE_DOCUMENT_MAX_BYTES / (1024 * 1024)} MB`, 'ERR_PAYLOAD_TOO_LARGE');
    case 'LIMIT_FILE_COUNT':
      return new AppError('ERR_VALIDATION', {
        fields: [{ path: MESSAGE_MEDIA_FIELD, message: `no máximo ${MESSAGE_MAX_FILES} arquivos` }],
      });
    case 'LIMIT_UNEXPECTED_FILE':
      return new AppError('ERR_VALIDATION', {
        fields: [
          {
            path: (err as { field?: string }).field ?? MESSAGE_MEDIA_FIELD,
            message: `envie os arquivos no campo ${MESSAGE_MEDIA_FIELD}`,
          },
        ],
      });
    case 'LIMIT_FIELD_VALUE':
      return new AppError('ERR_VALIDATION', {
        fields: [{ path: (err as { field?: string }).field ?? 'body', message: 'valor grande demais' }],
      });
    default:
      return new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'formulário multipart inválido' }] });
  }
}
