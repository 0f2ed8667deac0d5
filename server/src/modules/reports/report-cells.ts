import type { ReportColumn } from '@shared/schemas/reports';

/**
 * How report values are written in the files: instants as the tenant's wall-clock time
 * (dd/MM/yyyy HH:mm, spec section 5), durations as H:MM:SS, numbers in pt-BR (decimal comma).
 * The JSON page keeps raw values (ISO instants, seconds, numbers); only the files format them.
 */

/**
 * Wall-clock time of instants in one time zone. Asking Intl for every cell is slow (a 100,000-row
 * export has 200,000 instants), so the zone's offset is asked once per quarter of an hour of UTC
 * and reused: every offset change of the tz database falls on a quarter hour.
 */
export class WallClock {
  private readonly format: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

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

  /** Milliseconds to add to an instant to read its wall-clock time in UTC fields. */
  offsetAt(instant: Date): number {
    const quarter = Math.floor(instant.getTime() / QUARTER_HOUR);
    let offset = this.offsets.get(quarter);
    if (offset === undefined) {
      const at = new Date(quarter * QUARTER_HOUR);
      const p: Record<string, number> = {};
      for (const part of this.format.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
      offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - at.getTime();
      if (this.offsets.size > 100_000) this.offsets.clear();
      this.offsets.set(quarter, offset);
    }
    return offset;
  }

  /** The wall-clock time as a Date whose UTC fields are it: spreadsheets have no time zones. */
  spreadsheetDate(instant: Date): Date {
    return new Date(instant.getTime() + this.offsetAt(instant));
  }

  /** dd/MM/yyyy HH:mm */
  dateTime(instant: Date): string {
    const w = this.spreadsheetDate(instant);
    return `${pad(w.getUTCDate())}/${pad(w.getUTCMonth() + 1)}/${w.getUTCFullYear()} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
  }

  /** dd/MM/yyyy */
  date(instant: Date): string {
    const w = this.spreadsheetDate(instant);
    return `${pad(w.getUTCDate())}/${pad(w.getUTCMonth() + 1)}/${w.getUTCFullYear()}`;
  }
}

const QUARTER_HOUR = 15 * 60_000;
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
