/**
 * SQL building blocks of the reports: bind parameters, the period of a report as instants of the
 * tenant's time zone, and the shape every report definition answers (one SELECT that the service
 * pages by offset for the table and by keyset for the exports).
 */

/** Bind values of one statement; `bind` appends a value and answers its placeholder. */
export class SqlParams {
  constructor(readonly values: unknown[] = []) {}

  bind(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/** The tenant's time zone when the tenant has none (issue #13: a tenant setting, default São Paulo). */
export const DEFAULT_REPORT_TIME_ZONE = 'America/Sao_Paulo';

const knownZones = new Map<string, boolean>();

/** True for an IANA zone name that this Node and (with the same tz database) PostgreSQL know. */
export function isKnownTimeZone(zone: string): boolean {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone);
    } catch {
      known = false;
    }
    knownZones.set(zone, known);
  }
  return known;
}

/** The time zone reports count days in: the tenant's `timeZone` setting when set and valid, else the default. */
export function reportTimeZone(settings: Readonly<Record<string, string | undefined>>): string {
  const zone = settings.timeZone?.trim();
  return zone && isKnownTimeZone(zone) ? zone : DEFAULT_REPORT_TIME_ZONE;
}

export interface ReportPeriod {
  /** yyyy-MM-dd, first day included */
  startDate: string;
  /** yyyy-MM-dd, last day included */
  endDate: string;
}

/**
 * The one place where calendar days become instants: `column` falls within the days from
 * `startDate` to `endDate` (both included) as lived in `timeZone`. Midnight is taken in that zone
 * (`timestamp AT TIME ZONE zone`), so daylight-saving days are 23 or 25 hours long as they
 * should be. Both bounds are stable expressions of parameters: an index on `column` serves them.
 */
export function periodCondition(column: string, period: ReportPeriod, timeZone: string, p: SqlParams): string {
  const zone = p.bind(timeZone, 'text');
  const from = `(${p.bind(period.startDate, 'date')}::timestamp AT TIME ZONE ${zone})`;
  const to = `((${p.bind(period.endDate, 'date')} + 1)::timestamp AT TIME ZONE ${zone})`;
  return `${column} >= ${from} AND ${column} < ${to}`;
}

/** A sort key of a report's rows: a SQL expression and the type its text form is read back as. */
export interface SortKey {
  expr: string;
  type: 'int' | 'bigint' | 'text' | 'timestamptz';
}

/**
 * One report's rows as SQL. The statement is
 *   [with] SELECT select FROM from WHERE where [GROUP BY groupBy] ORDER BY keys
 * The keys together are unique and sort every row the same way (all ASC or all DESC), so the
 * export can walk the rows by keyset in batches, and the table by offset, in the same order.
 */
export interface ReportRowsSql {
  with?: string;
  select: string;
  from: string;
  where: string[];
  groupBy?: string;
  keys: SortKey[];
  direction: 'ASC' | 'DESC';
}

const keyAlias = (i: number) => `"__k${i}"`;

/** Page `pageNumber` of `pageSize` rows (offset paging: the table's page numbers). */
export function pageStatement(rows: ReportRowsSql, p: SqlParams, pageNumber: number, pageSize: number): string {
  const limit = p.bind(pageSize, 'int');
  const offset = p.bind((pageNumber - 1) * pageSize, 'int');
  return `${base(rows, [])} ORDER BY ${order(rows)} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The next `batch` rows after the row whose key texts are `after` (null: from the first row).
 * The keys are selected as text (`__k0`, ...) and compared back with their type, so a timestamp
 * keeps its microseconds between batches.
 */
export function batchStatement(rows: ReportRowsSql, p: SqlParams, after: string[] | null, batch: number): string {
  const extra: string[] = [];
  if (after) {
    const left = rows.keys.map((k) => k.expr).join(', ');
    const right = rows.keys.map((k, i) => p.bind(after[i], k.type)).join(', ');
    extra.push(`(${left}) ${rows.direction === 'ASC' ? '>' : '<'} (${right})`);
  }
  const keys = rows.keys.map((k, i) => `(${k.expr})::text AS ${keyAlias(i)}`).join(', ');
  return `${base(rows, extra, keys)} ORDER BY ${order(rows)} LIMIT ${p.bind(batch, 'int')}`;
}

/** The key texts of a row read by batchStatement. */
export function keysOf(rows: ReportRowsSql, row: Record<string, unknown>): string[] {
  return rows.keys.map((_, i) => String(row[keyAlias(i).slice(1, -1)]));
}

/** `SELECT count(*)` of the rows (grouped reports count their groups). */
export function countStatement(rows: ReportRowsSql): string {
  const where = rows.where.length ? `WHERE ${rows.where.join(' AND ')}` : '';
  if (rows.groupBy) {
    return `${rows.with ?? ''} SELECT count(*)::int AS count FROM (SELECT 1 ${rows.from} ${where} GROUP BY ${rows.groupBy}) g`;
  }
  return `${rows.with ?? ''} SELECT count(*)::int AS count ${rows.from} ${where}`;
}

function base(rows: ReportRowsSql, extra: string[], extraSelect?: string): string {
  const where = [...rows.where, ...extra];
  return [
    rows.with ?? '',
    `SELECT ${rows.select}${extraSelect ? `, ${extraSelect}` : ''}`,
    rows.from,
    where.length ? `WHERE ${where.join(' AND ')}` : '',
    rows.groupBy ? `GROUP BY ${rows.groupBy}` : '',
  ].join(' ');
}

function order(rows: ReportRowsSql): string {
  return rows.keys.map((k) => `${k.expr} ${rows.direction}`).join(', ');
}
