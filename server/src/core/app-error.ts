import { ERROR_CODES, type ErrorCode } from '@shared/errors';

/** The one error services throw. The error middleware maps it to `{ error, message }` + status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: { path: string; message: string }[];
  readonly headers?: Record<string, string>;
  /** Extra top-level fields of the answer (e.g. the ongoing ticket of ERR_OTHER_OPEN_TICKET). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    options: {
      message?: string;
      status?: number;
      fields?: { path: string; message: string }[];
      headers?: Record<string, string>;
      details?: Record<string, unknown>;
    } = {},
  ) {
    const def = ERROR_CODES[code];
    super(options.message ?? def.message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? def.status;
    this.fields = options.fields;
    this.headers = options.headers;
    this.details = options.details;
  }
}
