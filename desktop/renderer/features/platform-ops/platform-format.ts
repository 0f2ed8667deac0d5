import { EMPTY_CELL } from '../../app/table/cell-format';

/** A stored instant in the user's language, or the empty-cell dash. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  return value ? new Date(value).toLocaleString(language) : EMPTY_CELL;
}

/** Bytes as MB or GB, for the internal-data screen. */
export function formatBytes(bytes: number, language: string): string {
  const gb = bytes / 1024 ** 3;
  const format = (n: number) => n.toLocaleString(language, { maximumFractionDigits: 1 });
  return gb >= 1 ? `${format(gb)} GB` : `${format(bytes / 1024 ** 2)} MB`;
}
