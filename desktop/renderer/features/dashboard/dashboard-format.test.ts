import { describe, expect, it } from 'vitest';
import { RATING_LABELS } from '@shared/limits';
import { buildResources } from '../../i18n/i18n';
import {
  evolutionSeries,
  fillHours,
  formatClock,
  formatCount,
  formatDecimal,
  formatDuration,
  ratingBars,
} from './dashboard-format';

describe('formatDuration', () => {
  it('writes at most two units, null as a dash', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(59.6)).toBe('1 min');
    expect(formatDuration(61)).toBe('1 min 01 s');
    expect(formatDuration(9 * 60 + 59)).toBe('9 min 59 s');
    expect(formatDuration(12 * 60 + 30)).toBe('12 min');
    expect(formatDuration(3600)).toBe('1 h 00 min');
    expect(formatDuration(3600 + 5 * 60 + 59)).toBe('1 h 05 min');
    expect(formatDuration(23 * 3600 + 59 * 60)).toBe('23 h 59 min');
    expect(formatDuration(24 * 3600)).toBe('1 d');
    expect(formatDuration(2 * 86400 + 3 * 3600 + 120)).toBe('2 d 3 h');
  });

  it('ticks as a clock', () => {
    expect(formatClock(null)).toBe('—');
    expect(formatClock(5)).toBe('0:05');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(3600 + 61)).toBe('1:01:01');
  });
});

describe('numbers', () => {
  it('uses the interface language (pt-br: comma, 2 to 3 decimals)', () => {
    expect(formatDecimal(4.25, 'pt-BR')).toBe('4,25');
    expect(formatDecimal(4, 'pt-BR')).toBe('4,00');
    expect(formatDecimal(4.1234, 'pt-BR')).toBe('4,123');
    expect(formatDecimal(4.25, 'en-US')).toBe('4.25');
    expect(formatDecimal(null, 'pt-BR')).toBe('—');
    expect(formatCount(12345, 'pt-BR')).toBe('12.345');
  });
});

describe('ratingBars', () => {
  it('labels every score 0..5 and gives each its share', () => {
    const bars = ratingBars([1, 0, 0, 1, 0, 2]);
    expect(bars.map((bar) => bar.labelKey)).toEqual([0, 1, 2, 3, 4, 5].map((s) => `dashboard.ratingLabels.${s}`));
    expect(bars.map((bar) => bar.count)).toEqual([1, 0, 0, 1, 0, 2]);
    expect(bars.map((bar) => bar.percent)).toEqual([25, 0, 0, 25, 0, 50]);
  });

  it('names the scores with the labels of spec section 9 in pt-br, and in English as fallback', async () => {
    const resources = await buildResources();
    const label = (locale: string, score: number) =>
      (resources[locale].translation as { dashboard: { ratingLabels: Record<string, string> } }).dashboard.ratingLabels[
        String(score)
      ];
    expect(RATING_LABELS.map((_, score) => label('pt-br', score))).toEqual([...RATING_LABELS]);
    expect(label('en-us', 5)).toBe('Incredible');
  });

  it('reads a short or missing distribution as zeros', () => {
    expect(ratingBars(undefined).map((bar) => bar.percent)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(ratingBars([3]).map((bar) => bar.count)).toEqual([3, 0, 0, 0, 0, 0]);
    expect(ratingBars([1, 1, 1]).map((bar) => bar.percent)).toEqual([33.3, 33.3, 33.3, 0, 0, 0]);
  });
});

describe('chart series', () => {
  it('fills the 24 hours', () => {
    const hours = fillHours([
      { hour: 0, qtd: 2 },
      { hour: 23, qtd: 5 },
      { hour: 24, qtd: 9 },
    ]);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe(2);
    expect(hours[23]).toBe(5);
    expect(hours.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('gives every day of the period a point, across months and a leap day', () => {
    const series = evolutionSeries(
      [
        { dt_referencia: '2028-02-28', label: '', qtd: 3 },
        { dt_referencia: '2028-03-01', label: '', qtd: 4 },
      ],
      '2028-02-27',
      '2028-03-02',
    );
    expect(series.labels).toEqual(['27/02', '28/02', '29/02', '01/03', '02/03']);
    expect(series.values).toEqual([0, 3, 0, 4, 0]);
  });

  it('keeps the server’s hours of a daylight-saving day (23 on spring-forward), or 24 zero hours before an answer', () => {
    // New York, 8 March 2026: 02:00 does not exist that night.
    const springForward = Array.from({ length: 24 }, (_, hour) => hour)
      .filter((hour) => hour !== 2)
      .map((hour) => ({ dt_referencia: `2026-03-08T${String(hour).padStart(2, '0')}:00`, label: '', qtd: 1 }));
    const series = evolutionSeries(springForward, '2026-03-08', '2026-03-08');
    expect(series.values).toHaveLength(23);
    expect(series.labels.slice(0, 3)).toEqual(['00:00', '01:00', '03:00']);
    expect(evolutionSeries([], '2026-11-01', '2026-11-01').values).toEqual(new Array(24).fill(0));
  });

  it('gives a one-day period its 24 hours', () => {
    const day = Array.from({ length: 24 }, (_, hour) => ({
      dt_referencia: `2026-03-18T${String(hour).padStart(2, '0')}:00`,
      label: '',
      qtd: hour === 9 ? 6 : 0,
    }));
    const series = evolutionSeries(day, '2026-03-18', '2026-03-18');
    expect(series.labels).toHaveLength(24);
    expect(series.labels[9]).toBe('09:00');
    expect(series.values[9]).toBe(6);
    expect(series.values.reduce((a, b) => a + b, 0)).toBe(6);
  });
});
