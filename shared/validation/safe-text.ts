/**
 * Text the database and our files can hold. PostgreSQL refuses NUL in text (22021, which was a
 * 500), XML (hence XLSX exports) cannot hold the other C0 control characters, and a lone UTF-16
 * surrogate is not a character at all (it would be stored as U+FFFD). Tab, line feed and carriage
 * return are ordinary text.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_GLOBAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const UNSAFE_TEXT_MESSAGE = 'contém caracteres inválidos (NUL, controle ou UTF-16 inválido)';

export const hasUnsafeText = (text: string): boolean => UNSAFE.test(text);

/** Drops control characters and replaces lone surrogates: for text we must accept (provider webhooks). */
export const sanitizeText = (text: string): string =>
  text.replace(UNSAFE_GLOBAL, (ch) => (ch.charCodeAt(0) >= 0xd800 ? '\uFFFD' : ''));

/**
 * The path of the first string (value or object key) in `value` that holds unsafe text, e.g.
 * `extraInfo.0.value`; undefined when everything is clean. Depth is bounded (deeper input is
 * refused by the schemas anyway).
 */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string') return hasUnsafeText(value) ? path.join('.') || '(valor)' : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, String(i)], depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    if (hasUnsafeText(key)) return [...path, JSON.stringify(key).slice(1, -1)].join('.');
    const found = findUnsafeText(v, [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The same structure with every string (and key) sanitized. */
export function sanitizeDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [sanitizeText(k), sanitizeDeep(v, depth + 1)])) as T;
}
