import type { ReportColumn } from '@shared/schemas/reports';

/**
 * How report values are written in the files: instants as the tenant's wall-clock time
 * (dd/MM/yyyy HH:mm, spec section 5), durations as H:MM:SS, numbers in pt-BR (decimal comma).
 * The JSON page keeps raw values (ISO instants, seconds, numbers); only the files format them.
 */

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Wall-clock time of instants in one time zone (one Intl formatter, reused for every cell). */
export class WallClock {
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
  }

  of(instant: Date): WallTime {
    const out: Record<string, number> = {};
    for (const part of this.format.formatToParts(instant)) {
      if (part.type !== 'literal') out[part.type] = Number(part.value);
    }
    return { year: out.year, month: out.month, day: out.day, hour: out.hour, minute: out.minute, second: out.second };
  }

  /** dd/MM/yyyy HH:mm */
  dateTime(instant: Date): string {
    const w = this.of(instant);
    return `${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)}`;
  }

  /** dd/MM/yyyy */
  date(instant: Date): string {
    const w = this.of(instant);
    return `${pad(w.day)}/${pad(w.month)}/${w.year}`;
  }

  /** The wall-clock time as a Date whose UTC fields are it: spreadsheets have no time zones. */
  spreadsheetDate(instant: Date): Date {
    const w = this.of(instant);
    return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds as H:MM:SS (hours are not wrapped at 24). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `${pad(h)}:${pad(m)}:${pad(total % 60)}`;
}

const numberText = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2, useGrouping: false });
const numberDisplay = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

const asDate = (value: unknown): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(d.getTime()) ? null : d;
};

/**
 * One value as text for CSV and PDF. `grouped` adds thousands separators (PDF); CSV keeps plain
 * digits so a spreadsheet reads them as numbers.
 */
export function cellText(column: ReportColumn, value: unknown, clock: WallClock, grouped = false): string {
  if (value === null || value === undefined) return '';
  switch (column.kind) {
    case 'number': {
      if (typeof value === 'string' && Number.isNaN(Number(value))) return value;
      return (grouped ? numberDisplay : numberText).format(Number(value));
    }
    case 'duration':
      return typeof value === 'number' ? formatDuration(value) : String(value);
    case 'datetime': {
      const d = asDate(value);
      return d ? clock.dateTime(d) : String(value);
    }
    case 'date': {
      const d = asDate(value);
      return d ? clock.date(d) : String(value);
    }
    default:
      return String(value);
  }
}

/** One value as a spreadsheet cell: numbers stay numbers, instants become dates, durations fractions of a day. */
export function cellValue(column: ReportColumn, value: unknown, clock: WallClock): string | number | Date | null {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'number':
      return typeof value === 'number' ? value : Number.isNaN(Number(value)) ? String(value) : Number(value);
    case 'duration':
      return typeof value === 'number' ? value / 86_400 : String(value);
    case 'datetime':
    case 'date': {
      const d = asDate(value);
      return d ? clock.spreadsheetDate(d) : String(value);
    }
    default:
      return String(value);
  }
}

/** Excel number formats of the column kinds that need one. */
export const SPREADSHEET_FORMATS: Partial<Record<ReportColumn['kind'], string>> = {
  datetime: 'dd/mm/yyyy hh:mm',
  date: 'dd/mm/yyyy',
  duration: '[h]:mm:ss',
};
