import { tz } from '@date-fns/tz';
import { format, isValid, parseISO } from 'date-fns';
import { ptBR } from 'date-fns/locale/pt-BR';

/**
 * How a DataTable cell shows a value of each column kind (spec section 5: dates dd/MM/yyyy,
 * date-times dd/MM/yyyy HH:mm; section 9: pt-BR numbers). Durations arrive as whole seconds
 * (shared/schemas/statistics.ts) and read as the anchor's 'HH:MM:SS' (hours can pass 24).
 */
export type ColumnKind = 'text' | 'number' | 'date' | 'datetime' | 'duration';

export interface CellFormatOptions {
  /** i18next language (number grouping and decimals). */
  language: string;
  /** IANA zone for date-times (the tenant's); the browser's when absent. */
  timeZone?: string;
}

/** What an empty cell shows. */
export const EMPTY_CELL = '—';

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function toDate(value: unknown, timeZone: string | undefined): Date | null {
  if (value instanceof Date) return isValid(value) ? value : null;
  if (typeof value === 'number') return new Date(value);
  if (typeof value !== 'string') return null;
  // A calendar day is not an instant: read it as that day, whatever the zone.
  const date = DAY_ONLY.test(value) || !timeZone ? parseISO(value) : parseISO(value, { in: tz(timeZone) });
  return isValid(date) ? date : null;
}

export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((part) => String(part).padStart(2, '0')).join(':');
}

export function formatCell(kind: ColumnKind, value: unknown, { language, timeZone }: CellFormatOptions): string {
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  switch (kind) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(n) : String(value);
    }
    case 'duration': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? formatDuration(n) : String(value);
    }
    case 'date':
    case 'datetime': {
      const date = toDate(value, timeZone);
      if (!date) return String(value);
      const zoned = timeZone && !(typeof value === 'string' && DAY_ONLY.test(value)) ? { in: tz(timeZone) } : {};
      return format(date, kind === 'date' ? 'dd/MM/yyyy' : 'dd/MM/yyyy HH:mm', { locale: ptBR, ...zoned });
    }
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
