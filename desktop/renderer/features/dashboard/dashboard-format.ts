import { RATING_LABELS } from '@shared/limits';
import type { EvolutionBucket, HourBucket } from '@shared/schemas/statistics';

/** How the dashboard writes its figures (issue #13; spec section 9: numbers pt-br with 2 to 3 decimals). */

const PLACEHOLDER = '—';

/**
 * A duration in whole seconds, at most two units: 45 s, 12 min, 1 h 05 min, 2 d 3 h. null (no
 * sample in the period) is a dash, never 0.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return PLACEHOLDER;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) {
    const rest = s % 60;
    return rest && minutes < 10 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A waiting time that ticks on screen: m:ss under an hour, h:mm:ss above. */
export function formatClock(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return PLACEHOLDER;
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** Number formatters by locale and kind: building one costs milliseconds, the cards format dozens of figures. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, kind: 'count' | 'decimal'): Intl.NumberFormat {
  const key = `${kind}:${locale}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(
      locale,
      kind === 'count' ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 3 },
    );
    numberFormats.set(key, formatter);
  }
  return formatter;
}

export const formatCount = (value: number | null | undefined, locale: string): string =>
  value === null || value === undefined ? PLACEHOLDER : numberFormat(locale, 'count').format(value);

/** A decimal figure (an average rating): 2 to 3 decimals in the interface's language. */
export const formatDecimal = (value: number | null | undefined, locale: string): string =>
  value === null || value === undefined ? PLACEHOLDER : numberFormat(locale, 'decimal').format(value);

export interface RatingBar {
  score: number;
  /** i18n key of the label (dashboard.ratingLabels.<score>); pt-br: RATING_LABELS */
  labelKey: string;
  count: number;
  /** share of the ratings, 0..100 */
  percent: number;
}

/** The 0..5 distribution as bars with their labels (Ruim .. Incrível), missing scores as 0. */
export function ratingBars(distribution: readonly number[] | null | undefined): RatingBar[] {
  const counts = RATING_LABELS.map((_, score) => Math.max(0, Number(distribution?.[score] ?? 0) || 0));
  const total = counts.reduce((sum, n) => sum + n, 0);
  return counts.map((count, score) => ({
    score,
    labelKey: `dashboard.ratingLabels.${score}`,
    count,
    percent: total ? Math.round((count / total) * 1000) / 10 : 0,
  }));
}

/** The 24 hours of the day, in order, those the server did not name as 0. */
export function fillHours(buckets: readonly HourBucket[] | null | undefined): number[] {
  const hours = new Array<number>(24).fill(0);
  for (const bucket of buckets ?? []) if (bucket.hour >= 0 && bucket.hour < 24) hours[bucket.hour] += bucket.qtd;
  return hours;
}

/** Axis label of an evolution bucket: dd/MM for a day, HH:00 for an hour of a one-day period. */
export function evolutionLabel(bucket: Pick<EvolutionBucket, 'dt_referencia'>): string {
  const hourly = /T(\d{2}):/.exec(bucket.dt_referencia);
  if (hourly) return `${hourly[1]}:00`;
  const day = /^\d{4}-(\d{2})-(\d{2})/.exec(bucket.dt_referencia);
  return day ? `${day[2]}/${day[1]}` : bucket.dt_referencia;
}

export interface Series {
  labels: string[];
  values: number[];
}

const nextIsoDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The evolution chart's points: the server's buckets as they come (every day of the period, or
 * every local hour of a one-day period: 23 or 25 on a daylight-saving day), in order. Before an
 * answer, or if a bucket is missing, the period's days (or 24 hours) with 0.
 */
export function evolutionSeries(
  buckets: readonly EvolutionBucket[] | null | undefined,
  startDate: string,
  endDate: string,
): Series {
  const totals = new Map<string, number>();
  for (const bucket of buckets ?? []) totals.set(bucket.dt_referencia, (totals.get(bucket.dt_referencia) ?? 0) + bucket.qtd);
  const keys = new Set(totals.keys());
  if (startDate === endDate) {
    if (keys.size === 0) for (let hour = 0; hour < 24; hour++) keys.add(`${startDate}T${String(hour).padStart(2, '0')}:00`);
  } else {
    for (let day = startDate, guard = 0; day <= endDate && guard < 400; day = nextIsoDay(day), guard++) keys.add(day);
  }
  const ordered = [...keys].sort();
  return {
    labels: ordered.map((key) => evolutionLabel({ dt_referencia: key })),
    values: ordered.map((key) => totals.get(key) ?? 0),
  };
}
