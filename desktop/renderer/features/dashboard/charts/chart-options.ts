import type { CountBucket } from '@shared/schemas/statistics';
import type { Series } from '../dashboard-format';
import type { ChartOption } from './echart';

/** The dashboard's chart options, from the statistics answers (pure: tested without a canvas). */

export interface ChartPalette {
  text: string;
  axisLine: string;
  primary: string;
}

const FALLBACK_BAR = '#2d72d2';

function axisStyle(palette: ChartPalette) {
  return {
    axisLabel: { color: palette.text },
    axisLine: { lineStyle: { color: palette.axisLine } },
    splitLine: { lineStyle: { color: palette.axisLine, opacity: 0.4 } },
  };
}

const countAxis = (palette: ChartPalette) => ({ type: 'value' as const, minInterval: 1, ...axisStyle(palette) });

/**
 * Tickets by queue: one horizontal bar per queue in its own colour (`colors` by queue id), the
 * largest on top; "no queue" in grey.
 */
export function queueBarsOption(
  buckets: readonly CountBucket[],
  colors: ReadonlyMap<number, string>,
  palette: ChartPalette,
  seriesName: string,
): ChartOption {
  const rows = [...buckets].sort((a, b) => a.qtd - b.qtd);
  return {
    animationDuration: 300,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: countAxis(palette),
    yAxis: { type: 'category', data: rows.map((row) => row.label), ...axisStyle(palette) },
    series: [
      {
        type: 'bar',
        name: seriesName,
        data: rows.map((row) => ({
          value: row.qtd,
          itemStyle: { color: row.id == null ? '#8f99a8' : (colors.get(row.id) ?? FALLBACK_BAR) },
        })),
        barMaxWidth: 28,
      },
    ],
  };
}

/** Tickets by channel: a ring with the legend beside it. */
export function channelPieOption(buckets: readonly CountBucket[], palette: ChartPalette, seriesName: string): ChartOption {
  return {
    animationDuration: 300,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle', textStyle: { color: palette.text } },
    series: [
      {
        type: 'pie',
        name: seriesName,
        radius: ['45%', '72%'],
        center: ['38%', '50%'],
        label: { show: false },
        data: buckets.map((row) => ({ name: row.label, value: row.qtd })),
      },
    ],
  };
}

/** Tickets per day (or per hour of a one-day period). */
export function evolutionLineOption(series: Series, palette: ChartPalette, seriesName: string): ChartOption {
  return {
    animationDuration: 300,
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: series.labels, ...axisStyle(palette) },
    yAxis: countAxis(palette),
    series: [
      {
        type: 'line',
        name: seriesName,
        data: series.values,
        smooth: true,
        showSymbol: series.values.length <= 31,
        itemStyle: { color: palette.primary },
        lineStyle: { color: palette.primary },
        areaStyle: { color: palette.primary, opacity: 0.15 },
      },
    ],
  };
}

/** Tickets by hour of day, 00h .. 23h. */
export function hourBarsOption(hours: readonly number[], palette: ChartPalette, seriesName: string): ChartOption {
  return {
    animationDuration: 300,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: hours.map((_, hour) => `${String(hour).padStart(2, '0')}h`), ...axisStyle(palette) },
    yAxis: countAxis(palette),
    series: [{ type: 'bar', name: seriesName, data: [...hours], itemStyle: { color: palette.primary }, barMaxWidth: 22 }],
  };
}
