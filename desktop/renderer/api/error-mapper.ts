import { ERROR_CODES, isErrorCode, type ErrorCode } from '@shared/errors';

/**
 * Turns a failed call into the text of its warning toast (spec section 8, client behaviour):
 * the server's code mapped to its Portuguese text, else the raw error, else
 * 'Ocorreu um erro não identificado.'. The raw error is read from the body's error, msg or
 * message field, else 'Não identificado'.
 */

/** Codes the anchor product spelled differently; mapped to the code declared in shared/errors. */
const CODE_ALIASES: Record<string, ErrorCode> = {
  ERROR_NO_PERMISSION_API_ADMIN: 'ERR_NO_PERMISSION_API_ADMIN',
};

export const UNIDENTIFIED_RAW = 'Não identificado';

/** i18next's t, narrowed to what the mapper needs. */
export type Translate = (key: string, options?: { defaultValue?: string }) => string;

/** The shape RTK Query's fetchBaseQuery gives a failed call. */
export interface FailedCall {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  data?: unknown;
  error?: string;
}

const asText = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The body's error, msg or message field, else 'Não identificado' (the anchor's reading order). */
export function readRawError(body: unknown): string {
  if (typeof body === 'string') return asText(body) ?? UNIDENTIFIED_RAW;
  if (!body || typeof body !== 'object') return UNIDENTIFIED_RAW;
  const record = body as Record<string, unknown>;
  return asText(record.error) ?? asText(record.msg) ?? asText(record.message) ?? UNIDENTIFIED_RAW;
}

export function errorCodeOf(body: unknown): ErrorCode | null {
  const raw = readRawError(body);
  const code = CODE_ALIASES[raw] ?? raw;
  return isErrorCode(code) ? code : null;
}

export function describeError(failure: FailedCall | unknown, t: Translate): string {
  const call = failure as Partial<FailedCall> | undefined;
  if (call?.status === 'TIMEOUT_ERROR') return t('errors.timeout');
  if (call?.status === 'FETCH_ERROR') return t('errors.network');
  const body = call && 'data' in call ? call.data : failure;
  const code = errorCodeOf(body);
  // A code added on the server before its translation shows the Portuguese text of shared/errors.
  if (code) return t(`errors.${code}`, { defaultValue: ERROR_CODES[code].message });
  const raw = readRawError(body);
  if (raw === UNIDENTIFIED_RAW) return t('errors.unidentified');
  // An unknown code next to a human sentence: the sentence tells the user more than the code.
  const message = body && typeof body === 'object' ? asText((body as Record<string, unknown>).message) : null;
  if (message && /^[A-Z0-9_]+$/.test(raw)) return message;
  return raw;
}
