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

/** The first UTC midnight at or after the period's start, and the last at or before its end (UTC wall times). */
const FULL_DAYS_FROM = `(date_trunc('day', (${PERIOD_START} AT TIME ZONE 'UTC') - interval '1 microsecond') + interval '1 day')`;
const FULL_DAYS_TO = `date_trunc('day', ${PERIOD_END} AT TIME ZONE 'UTC')`;

/**
 * Message facts of the period per kind (and agent), as rows (kind[, "userId"], n): the UTC days
 * wholly inside the period from ticket_metric_daily, the partial days at both ends from the raw
 * facts (each piece its own index range, so a year reads a few thousand day rows and at most two
 * days of facts).
 */
export function messageCountsSql(scope: StatisticsScope, params: StatementParams, kinds: readonly string[], byUser: boolean): string {
  const k = params.bind(kinds);
  const user = byUser ? `, "userId"` : '';
  const facts = (from: string, to: string) =>
    `SELECT e.kind, e."userId", 1 AS n FROM ticket_metric_events e
      WHERE ${and(`e."tenantId" = $1`, `e.kind = ANY(${k}::varchar[])`, `e.at >= ${from}`, `e.at < ${to}`, scopeSql('e', scope, params))}`;
  return `SELECT kind${user}, sum(n)::int AS n FROM (
      SELECT d.kind, d."userId", d.n FROM ticket_metric_daily d
       WHERE ${and(`d."tenantId" = $1`, `d.kind = ANY(${k}::varchar[])`, `d.day >= ${FULL_DAYS_FROM}::date`, `d.day < ${FULL_DAYS_TO}::date`, scopeSql('d', scope, params))}
      UNION ALL
      ${facts(PERIOD_START, `LEAST(${FULL_DAYS_FROM} AT TIME ZONE 'UTC', ${PERIOD_END})`)}
      UNION ALL
      ${facts(`GREATEST(${FULL_DAYS_TO} AT TIME ZONE 'UTC', ${FULL_DAYS_FROM} AT TIME ZONE 'UTC', ${PERIOD_START})`, PERIOD_END)}
    ) x GROUP BY kind${user}`;
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
