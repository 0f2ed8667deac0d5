import type { StatisticsScope } from './statistics.policy';

/**
 * SQL pieces shared by the statistics statements. Every statement binds the same first four
 * values: $1 tenant, $2 first day, $3 last day (yyyy-MM-dd, inclusive), $4 the tenant's IANA
 * time zone. A period is [first day 00:00, last day + 1 00:00) in that zone, computed by
 * PostgreSQL (`timestamp AT TIME ZONE zone`), so a day of a daylight-saving change has its 23 or
 * 25 hours. The bounds are stable expressions: range conditions on indexed columns stay index
 * scans.
 */

export interface StatisticsPeriod {
  tenantId: number;
  timeZone: string;
  /** yyyy-MM-dd */
  startDate: string;
  /** yyyy-MM-dd, inclusive */
  endDate: string;
  scope: StatisticsScope;
}

export const PERIOD_START = `($2::date::timestamp AT TIME ZONE $4)`;
export const PERIOD_END = `(($3::date + 1)::timestamp AT TIME ZONE $4)`;

export class StatementParams {
  readonly values: unknown[];

  constructor(period: StatisticsPeriod) {
    this.values = [period.tenantId, period.startDate, period.endDate, period.timeZone];
  }

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `column` within the period. */
export const inPeriod = (column: string): string => `${column} >= ${PERIOD_START} AND ${column} < ${PERIOD_END}`;

/** The caller's queues (statistics.policy.ts) on `alias."queueId"`; null when nothing is restricted. */
export function scopeSql(alias: string, scope: StatisticsScope, params: StatementParams): string | null {
  if (scope.queueIds === null) return scope.withoutQueue ? null : `${alias}."queueId" IS NOT NULL`;
  const parts: string[] = [];
  if (scope.queueIds.length > 0) parts.push(`${alias}."queueId" = ANY(${params.bind(scope.queueIds)}::int[])`);
  if (scope.withoutQueue) parts.push(`${alias}."queueId" IS NULL`);
  return parts.length === 0 ? 'false' : `(${parts.join(' OR ')})`;
}

export const and = (...conditions: (string | null | undefined)[]): string => conditions.filter(Boolean).join(' AND ');

/**
 * Median, 90th percentile (percentile_cont: interpolated, as the tests compute them), mean and
 * sample count of `value` over the rows of one kind, rounded to whole seconds (halves away from
 * zero: numeric rounding, not the platform's float rounding); nulls are not samples.
 */
export function durationColumns(kind: string, prefix: string): string {
  const only = `FILTER (WHERE e.kind = '${kind}')`;
  return [
    `round((percentile_cont(0.5) WITHIN GROUP (ORDER BY e.value) ${only})::numeric)::int AS "${prefix}Median"`,
    `round((percentile_cont(0.9) WITHIN GROUP (ORDER BY e.value) ${only})::numeric)::int AS "${prefix}P90"`,
    `round(avg(e.value) ${only})::int AS "${prefix}Average"`,
    `(count(e.value) ${only})::int AS "${prefix}Samples"`,
  ].join(',\n');
}

export interface DurationRow {
  median: number | null;
  p90: number | null;
  average: number | null;
  samples: number;
}

/** The four durationColumns of `prefix` out of a result row. */
export function durationOf(row: Record<string, unknown>, prefix: string): DurationRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    median: n(row[`${prefix}Median`]),
    p90: n(row[`${prefix}P90`]),
    average: n(row[`${prefix}Average`]),
    samples: Number(row[`${prefix}Samples`] ?? 0),
  };
}
