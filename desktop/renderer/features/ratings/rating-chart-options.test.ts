import { describe, expect, it } from 'vitest';
import { SCORE_COLORS, distributionBarsOption } from './rating-chart-options';

describe('distributionBarsOption', () => {
  it('draws one bar per score with its label and colour', () => {
    const distribution = ['Ruim', 'Regular', 'Bom', 'Muito Bom', 'Excelente', 'Incrível'].map((label, rating) => ({
      rating,
      label,
      count: rating * 2,
    }));
    const option = distributionBarsOption(distribution, { text: '#000', axisLine: '#ccc' }, 'Avaliações') as any;
    expect(option.xAxis.data).toEqual(['0 · Ruim', '1 · Regular', '2 · Bom', '3 · Muito Bom', '4 · Excelente', '5 · Incrível']);
    expect(option.series[0].data.map((d: any) => d.value)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(option.series[0].data.map((d: any) => d.itemStyle.color)).toEqual([...SCORE_COLORS]);
  });
});
