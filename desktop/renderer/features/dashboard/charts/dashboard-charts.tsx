import { Card, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountBucket, EvolutionBucket, HourBucket } from '@shared/schemas/statistics';
import { evolutionSeries, fillHours } from '../dashboard-format';
import { channelPieOption, evolutionLineOption, hourBarsOption, queueBarsOption, type ChartPalette } from './chart-options';
import { EChart } from './echart';

/** What one chart's call gave (an RTK Query result, reduced). */
export interface ChartData<T> {
  data?: T;
  isLoading: boolean;
  isError: boolean;
}

export interface DashboardChartsProps {
  startDate: string;
  endDate: string;
  byQueue: ChartData<CountBucket[]>;
  byChannel: ChartData<CountBucket[]>;
  evolution: ChartData<EvolutionBucket[]>;
  byHour: ChartData<HourBucket[]>;
  queueColors: ReadonlyMap<number, string>;
}

const DARK_CLASS = 'bp6-dark';

/** Chart text and line colours of the current theme (the dark-mode switch changes them live). */
function useChartPalette(): ChartPalette {
  const [dark, setDark] = useState(() => document.body.classList.contains(DARK_CLASS));
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(document.body.classList.contains(DARK_CLASS)));
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return useMemo(() => {
    const primary = getComputedStyle(document.documentElement).getPropertyValue('--primary').trim() || '#2d72d2';
    return dark
      ? { text: '#d3d8de', axisLine: 'rgba(255, 255, 255, 0.25)', primary }
      : { text: '#404854', axisLine: 'rgba(17, 20, 24, 0.2)', primary };
  }, [dark]);
}

function ChartCard({
  title,
  name,
  state,
  empty,
  children,
}: {
  title: string;
  name: string;
  state: ChartData<unknown>;
  empty: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  let body: ReactNode = children;
  if (state.isError && !state.data)
    body = (
      <Callout intent="warning" icon="error">
        {t('dashboard.loadFailed')}
      </Callout>
    );
  else if (state.isLoading && !state.data) body = <Spinner size={30} />;
  else if (empty) body = <NonIdealState icon="timeline-bar-chart" description={t('dashboard.noData')} />;
  return (
    <Card className="dashboard-chart" data-testid={`chart-card-${name}`}>
      <h3 className="dashboard-card-title">{title}</h3>
      <div className="dashboard-chart-body">{body}</div>
    </Card>
  );
}

/**
 * The dashboard's four charts: tickets by queue, by channel, per day (per hour for one day) and
 * by hour of day. This module carries the chart library: the dashboard loads it after its cards.
 */
export function DashboardCharts({
  startDate,
  endDate,
  byQueue,
  byChannel,
  evolution,
  byHour,
  queueColors,
}: DashboardChartsProps) {
  const { t } = useTranslation();
  const palette = useChartPalette();
  const tickets = t('dashboard.tickets');
  const queueOption = useMemo(
    () => queueBarsOption(byQueue.data ?? [], queueColors, palette, tickets),
    [byQueue.data, queueColors, palette, tickets],
  );
  const channelOption = useMemo(
    () => channelPieOption(byChannel.data ?? [], palette, tickets),
    [byChannel.data, palette, tickets],
  );
  const evolutionOption = useMemo(
    () => evolutionLineOption(evolutionSeries(evolution.data, startDate, endDate), palette, tickets),
    [evolution.data, startDate, endDate, palette, tickets],
  );
  const hourOption = useMemo(() => hourBarsOption(fillHours(byHour.data), palette, tickets), [byHour.data, palette, tickets]);

  return (
    <div className="dashboard-charts">
      <ChartCard title={t('dashboard.charts.evolution')} name="evolution" state={evolution} empty={false}>
        <EChart name="evolution" option={evolutionOption} label={t('dashboard.charts.evolution')} />
      </ChartCard>
      <ChartCard title={t('dashboard.charts.hours')} name="hours" state={byHour} empty={false}>
        <EChart name="hours" option={hourOption} label={t('dashboard.charts.hours')} />
      </ChartCard>
      <ChartCard
        title={t('dashboard.charts.queues')}
        name="queues"
        state={byQueue}
        empty={(byQueue.data ?? []).every((row) => row.qtd === 0)}
      >
        <EChart name="queues" option={queueOption} label={t('dashboard.charts.queues')} />
      </ChartCard>
      <ChartCard
        title={t('dashboard.charts.channels')}
        name="channels"
        state={byChannel}
        empty={(byChannel.data ?? []).every((row) => row.qtd === 0)}
      >
        <EChart name="channels" option={channelOption} label={t('dashboard.charts.channels')} />
      </ChartCard>
    </div>
  );
}
