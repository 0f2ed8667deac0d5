/**
 * Types for @koa/multer 4 (the package ships none): the part of its API this server uses.
 * Files are kept in memory (bounded by `limits.fileSize`) and stored per tenant by the service.
 */
declare module '@koa/multer' {
  import type { Middleware } from 'koa';

  export interface MulterFile {
    fieldname: string;
    originalname: string;
    encoding: string;
    mimetype: string;
    size: number;
    buffer: Buffer;
  }

  export interface MulterLimits {
    fieldNameSize?: number;
    fieldSize?: number;
    fields?: number;
    fileSize?: number;
    files?: number;
    parts?: number;
    headerPairs?: number;
  }

  export interface MulterOptions {
    storage?: unknown;
    limits?: MulterLimits;
    /** Charset of part parameters such as the file name; busboy's default is latin1. */
    defParamCharset?: string;
  }

  export interface MulterInstance {
    single(field: string): Middleware;
    array(field: string, maxCount?: number): Middleware;
    /** Several named file fields; the files land in `ctx.request.files[field]`. */
    fields(fields: { name: string; maxCount?: number }[]): Middleware;
    none(): Middleware;
  }

  interface MulterFactory {
    (options?: MulterOptions): MulterInstance;
    memoryStorage(): unknown;
  }

  const multer: MulterFactory;
  export default multer;
}
