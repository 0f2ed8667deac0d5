import { describe, expect, it } from 'vitest';
import { PeriodQuerySchema } from '@shared/schemas/period';
import { brazilianDay, isoDay, maskDayInput, presetOf, presetPeriod, usableTimeZone } from './dashboard-period';

const SP = 'America/Sao_Paulo';

describe('dashboard period presets', () => {
  const noon = new Date('2026-03-18T15:00:00Z'); // 12:00 in São Paulo

  it('counts whole days ending today', () => {
    expect(presetPeriod('today', noon, SP)).toEqual({ startDate: '18/03/2026', endDate: '18/03/2026' });
    expect(presetPeriod('7d', noon, SP)).toEqual({ startDate: '12/03/2026', endDate: '18/03/2026' });
    expect(presetPeriod('30d', noon, SP)).toEqual({ startDate: '17/02/2026', endDate: '18/03/2026' });
    expect(presetPeriod('month', noon, SP)).toEqual({ startDate: '01/03/2026', endDate: '18/03/2026' });
    expect(presetPeriod('custom', noon, SP)).toBeNull();
  });

  it('takes "today" in the tenant’s zone at midnight, not the browser’s or UTC', () => {
    // 02:30 UTC on 1 March is 23:30 on 28 February in São Paulo: still February there.
    const late = new Date('2026-03-01T02:30:00Z');
    expect(presetPeriod('today', late, SP)).toEqual({ startDate: '28/02/2026', endDate: '28/02/2026' });
    expect(presetPeriod('month', late, SP)).toEqual({ startDate: '01/02/2026', endDate: '28/02/2026' });
    // ... and already 1 March in Lisbon.
    expect(presetPeriod('month', late, 'Europe/Lisbon')).toEqual({ startDate: '01/03/2026', endDate: '01/03/2026' });
    // 03:00 UTC is exactly midnight in São Paulo (UTC-3, no daylight saving since 2019).
    expect(presetPeriod('today', new Date('2026-03-01T03:00:00Z'), SP)?.startDate).toBe('01/03/2026');
    expect(presetPeriod('today', new Date('2026-03-01T02:59:59Z'), SP)?.startDate).toBe('28/02/2026');
  });

  it('counts calendar days across a daylight-saving change (7 days stay 7 days)', () => {
    // New York springs forward on 8 March 2026: a 23-hour day inside the week.
    expect(presetPeriod('7d', new Date('2026-03-10T16:00:00Z'), 'America/New_York')).toEqual({
      startDate: '04/03/2026',
      endDate: '10/03/2026',
    });
    // Just after midnight local time on the change day itself.
    expect(presetPeriod('today', new Date('2026-03-08T05:30:00Z'), 'America/New_York')?.startDate).toBe('08/03/2026');
  });

  it('falls back to São Paulo for an unknown zone', () => {
    expect(usableTimeZone('Mars/Olympus')).toBe(SP);
    expect(usableTimeZone(undefined)).toBe(SP);
    expect(usableTimeZone('Europe/Lisbon')).toBe('Europe/Lisbon');
  });

  it('recognises the preset of a pair of days', () => {
    const noonDay = new Date('2026-03-18T15:00:00Z');
    expect(presetOf({ startDate: '12/03/2026', endDate: '18/03/2026' }, noonDay, SP)).toBe('7d');
    expect(presetOf({ startDate: '11/03/2026', endDate: '18/03/2026' }, noonDay, SP)).toBe('custom');
  });

  it('every preset is a valid query of the statistics calls', () => {
    for (const preset of ['today', '7d', '30d', 'month'] as const) {
      const days = presetPeriod(preset, new Date('2026-12-31T12:00:00Z'), SP)!;
      const parsed = PeriodQuerySchema.safeParse({ ...days, queuesIds: '1,2' });
      expect(parsed.success, preset).toBe(true);
    }
  });
});

describe('typing days', () => {
  it('puts the slashes in and turns a pasted ISO day around', () => {
    expect(maskDayInput('1')).toBe('1');
    expect(maskDayInput('250')).toBe('25/0');
    expect(maskDayInput('25122026')).toBe('25/12/2026');
    expect(maskDayInput('25/12/20261')).toBe('25/12/2026');
    expect(maskDayInput('2026-01-31')).toBe('31/01/2026');
    expect(maskDayInput('ab12')).toBe('12');
  });

  it('reads dd/MM/yyyy and writes it back', () => {
    expect(isoDay('29/02/2028')).toBe('2028-02-29');
    expect(isoDay('29/02/2026')).toBeNull();
    expect(isoDay('31/04/2026')).toBeNull();
    expect(brazilianDay('2026-01-05')).toBe('05/01/2026');
  });

  it('gives the spec’s messages for the period form (the shared schema)', () => {
    const invalid = PeriodQuerySchema.safeParse({ startDate: '32/01/2026', endDate: '01/02/2026' });
    expect(invalid.success).toBe(false);
    expect(invalid.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['startDate', 'Data inválida']]);
    const missing = PeriodQuerySchema.safeParse({ startDate: '', endDate: '01/02/2026' });
    expect(missing.error?.issues[0].message).toBe('Data inicial é obrigatório');
    const reversed = PeriodQuerySchema.safeParse({ startDate: '02/02/2026', endDate: '01/02/2026' });
    expect(reversed.error?.issues[0].path).toEqual(['endDate']);
  });
});
