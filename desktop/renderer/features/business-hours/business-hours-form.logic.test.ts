import { BusinessHoursSchema, DEFAULT_BUSINESS_HOURS, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { describe, expect, it } from 'vitest';
import { toRequestDays, validateAbsenceMessage, validateDay, validateWeek } from './business-hours-form.logic';

const monday = (change: Partial<BusinessHoursDay>): BusinessHoursDay => ({ ...DEFAULT_BUSINESS_HOURS[1], ...change });

describe('validateDay', () => {
  it('accepts the default week and one continuous period (hr2 = hr3)', () => {
    expect(validateWeek(DEFAULT_BUSINESS_HOURS)).toEqual({});
    expect(validateDay(monday({ hr1: '08:00', hr2: '12:00', hr3: '12:00', hr4: '18:00' }))).toEqual({});
  });

  it('marks the field that breaks the order', () => {
    expect(validateDay(monday({ hr2: '07:00' }))).toEqual({ hr2: 'endBeforeStart' });
    expect(validateDay(monday({ hr2: '08:00' }))).toEqual({ hr2: 'endBeforeStart' });
    expect(validateDay(monday({ hr3: '11:00' }))).toEqual({ hr3: 'secondBeforeFirst' });
    expect(validateDay(monday({ hr4: '13:00' }))).toEqual({ hr4: 'endBeforeStart' });
  });

  it('marks a cleared or malformed time, and does not compare it', () => {
    expect(validateDay(monday({ hr1: '' }))).toEqual({ hr1: 'invalidTime' });
    expect(validateDay(monday({ hr4: '24:00' }))).toEqual({ hr4: 'invalidTime' });
    expect(validateDay(monday({ hr3: '1:00' }))).toEqual({ hr3: 'invalidTime' });
  });

  it('ignores the hours of days open or closed all day', () => {
    expect(validateDay(monday({ type: 'O', hr1: '', hr2: '01:00' }))).toEqual({});
    expect(validateDay(monday({ type: 'C', hr4: 'x' }))).toEqual({});
  });

  it('reports failures by weekday', () => {
    const week = DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 3 ? { ...d, hr4: '12:30' } : d));
    expect(validateWeek(week)).toEqual({ 3: { hr4: 'endBeforeStart' } });
  });
});

describe('toRequestDays', () => {
  it('sorts the week and restores the hidden hours of open or closed days', () => {
    const week = [...DEFAULT_BUSINESS_HOURS].reverse().map((d) => (d.day === 0 ? { ...d, type: 'O' as const, hr1: '' } : d));
    const days = toRequestDays(week);
    expect(days.map((d) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(days[0]).toMatchObject({ type: 'O', hr1: '08:00' });
  });

  // The form and the server must agree: what the form lets through, the schema accepts, and
  // what the form stops, the schema refuses too.
  it.each([
    ['the default week', DEFAULT_BUSINESS_HOURS],
    ['a continuous Monday', DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 1 ? { ...d, hr2: '13:00', hr3: '13:00' } : d))],
    [
      'Sunday open with cleared hours',
      DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 0 ? { ...d, type: 'O' as const, hr1: '', hr2: '' } : d)),
    ],
    ['a Friday ending before it starts', DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 5 ? { ...d, hr4: '12:00' } : d))],
    ['a Tuesday with overlapping periods', DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 2 ? { ...d, hr3: '11:00' } : d))],
    ['a Wednesday without its start', DEFAULT_BUSINESS_HOURS.map((d) => (d.day === 3 ? { ...d, hr1: '' } : d))],
  ])('agrees with the server schema on %s', (_label, week) => {
    const formAccepts = Object.keys(validateWeek(week)).length === 0;
    expect(BusinessHoursSchema.safeParse(toRequestDays(week)).success).toBe(formAccepts);
  });
});

describe('validateAbsenceMessage', () => {
  it('limits the message to 4096 characters', () => {
    expect(validateAbsenceMessage('')).toBeNull();
    expect(validateAbsenceMessage('x'.repeat(4096))).toBeNull();
    expect(validateAbsenceMessage('x'.repeat(4097))).toBe('tooLong');
  });
});
