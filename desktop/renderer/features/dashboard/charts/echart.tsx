import { BarChart, LineChart, PieChart, type BarSeriesOption, type LineSeriesOption, type PieSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { init, use, type ComposeOption, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';

/**
 * Apache ECharts, with only what the dashboard draws (bar, line and pie charts, grid, tooltip,
 * legend, the canvas renderer): this module and the library are a chunk of their own, loaded by
 * the screens that draw charts, never by the start of the app. Canvas drawing needs no eval and
 * no inline script, so it keeps the Content-Security-Policy (script-src 'self').
 */
use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export interface EChartProps {
  option: ChartOption;
  /** What the chart shows, for screen readers. */
  label: string;
  /** Which chart (data-chart): tests and the start-up benchmark find it by it. */
  name: string;
}

/**
 * One chart. Options replace the previous ones (live updates animate from the old values).
 * `data-chart-ready` turns "true" once the first frame with data is drawn.
 */
export function EChart({ option, label, name }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const hasOption = useRef(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = host.current!;
    const instance = init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('rendered', () => {
      if (hasOption.current) setReady(true);
    });
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chart.current) return;
    hasOption.current = true;
    chart.current.setOption(option, { notMerge: false, replaceMerge: ['series', 'xAxis', 'yAxis'] });
  }, [option]);

  return (
    <div
      ref={host}
      className="dashboard-chart-canvas"
      role="img"
      aria-label={label}
      data-testid="dashboard-chart"
      data-chart={name}
      data-chart-ready={ready ? 'true' : 'false'}
    />
  );
}
