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
import { scheduleChartJob } from './chart-scheduler';

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
 *
 * Start-up (issue #13): the chart is created when its box is first laid out (the ResizeObserver
 * gives its size, so ECharts does not force a layout to measure it) and in a task of its own
 * (chart-scheduler.ts), and its first data is drawn at once, without the entry animation; later
 * data animates.
 */
export function EChart({ option, label, name }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  const drawn = useRef(false);
  const [ready, setReady] = useState(false);
  latest.current = option;

  useEffect(() => {
    const element = host.current!;
    let cancelJob: (() => void) | null = null;
    let box = { width: 0, height: 0 };
    const create = () => {
      cancelJob = null;
      const instance = init(element, undefined, { renderer: 'canvas', width: box.width, height: box.height });
      chart.current = instance;
      instance.on('rendered', () => {
        if (drawn.current) setReady(true);
      });
      drawn.current = true;
      instance.setOption({ ...latest.current, animation: false }, { notMerge: false, replaceMerge: ['series', 'xAxis', 'yAxis'] });
    };
    const resize = new ResizeObserver((entries) => {
      const { width, height } = entries[entries.length - 1].contentRect;
      box = { width, height };
      if (chart.current) chart.current.resize(box);
      else cancelJob ??= scheduleChartJob(create);
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      cancelJob?.();
      chart.current?.dispose();
      chart.current = null;
      drawn.current = false;
    };
  }, []);

  useEffect(() => {
    // Before the chart exists, its creation draws the latest option.
    if (!chart.current) return;
    chart.current.setOption({ ...option, animation: true }, { notMerge: false, replaceMerge: ['series', 'xAxis', 'yAxis'] });
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
