import type { RatingSummary } from '@shared/schemas/ratings';
import type { ChartOption } from '../dashboard/charts/echart';

/** Colours of the scores 0..5, from red (Ruim) to green (Incrível). */
export const SCORE_COLORS = ['#cd4246', '#d1801a', '#d9a317', '#8fb83a', '#29a634', '#1c6e42'] as const;

export interface RatingChartPalette {
  text: string;
  axisLine: string;
}

/** The distribution of the ratings by label (spec section 9): one bar per score, zeros included. */
export function distributionBarsOption(
  distribution: RatingSummary['distribution'],
  palette: RatingChartPalette,
  seriesName: string,
): ChartOption {
  const axis = {
    axisLabel: { color: palette.text },
    axisLine: { lineStyle: { color: palette.axisLine } },
    splitLine: { lineStyle: { color: palette.axisLine, opacity: 0.4 } },
  };
  return {
    animationDuration: 300,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    // Every score's label, even when the box is narrow.
    xAxis: {
      type: 'category',
      data: distribution.map((d) => `${d.rating} · ${d.label}`),
      ...axis,
      axisLabel: { color: palette.text, interval: 0, hideOverlap: false },
    },
    yAxis: { type: 'value', minInterval: 1, ...axis },
    series: [
      {
        type: 'bar',
        name: seriesName,
        data: distribution.map((d) => ({ value: d.count, itemStyle: { color: SCORE_COLORS[d.rating] ?? SCORE_COLORS[0] } })),
        barMaxWidth: 40,
      },
    ],
  };
}
