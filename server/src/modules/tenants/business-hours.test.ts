import { describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_HOURS, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { isWithinBusinessHours, weekOfTicket } from './business-hours';

const week = (overrides: Partial<Record<number, Partial<BusinessHoursDay>>>): BusinessHoursDay[] =>
  DEFAULT_BUSINESS_HOURS.map((d) => ({ ...d, ...overrides[d.day] }));

// Mon-Fri 08:00-12:00 and 13:00-18:00, Sat and Sun closed (the default week).
const standard = week({});
// Monday open all day, Tuesday closed, Wednesday one continuous period 09:00-17:00.
const mixed = week({
  1: { type: 'O' },
  2: { type: 'C' },
  3: { type: 'H', hr1: '09:00', hr2: '12:00', hr3: '12:00', hr4: '17:00' },
});

describe('isWithinBusinessHours', () => {
  // 2026-11-23 is a Monday. São Paulo is UTC-3 (no DST), Tokyo UTC+9, New York UTC-5 in November.
  it.each([
    ['Monday 08:00 local opens (start inclusive)', standard, '2026-11-23T11:00:00Z', 'America/Sao_Paulo', true],
    ['Monday 07:59 local is before opening', standard, '2026-11-23T10:59:00Z', 'America/Sao_Paulo', false],
    ['Monday 12:00 local is the lunch break (end exclusive)', standard, '2026-11-23T15:00:00Z', 'America/Sao_Paulo', false],
    ['Monday 12:59 local is still the break', standard, '2026-11-23T15:59:00Z', 'America/Sao_Paulo', false],
    ['Monday 13:00 local reopens', standard, '2026-11-23T16:00:00Z', 'America/Sao_Paulo', true],
    ['Monday 17:59 local is open', standard, '2026-11-23T20:59:00Z', 'America/Sao_Paulo', true],
    ['Monday 18:00 local closes', standard, '2026-11-23T21:00:00Z', 'America/Sao_Paulo', false],
    // Across midnight: Tuesday in UTC is still Monday evening in São Paulo.
    ['Tuesday 01:00 UTC is Monday 22:00 in São Paulo (closed)', standard, '2026-11-24T01:00:00Z', 'America/Sao_Paulo', false],
    ['Monday 23:59 local', standard, '2026-11-24T02:59:00Z', 'America/Sao_Paulo', false],
    ['Tuesday 00:00 local', standard, '2026-11-24T03:00:00Z', 'America/Sao_Paulo', false],
    // Across midnight the other way: Sunday 23:30 UTC is Monday 08:30 in Tokyo.
    ['Sunday 23:30 UTC is Monday 08:30 in Tokyo (open)', standard, '2026-11-22T23:30:00Z', 'Asia/Tokyo', true],
    ['the same instant in São Paulo is Sunday 20:30 (closed)', standard, '2026-11-22T23:30:00Z', 'America/Sao_Paulo', false],
    ['Friday 17:30 in New York is Friday 22:30 UTC', standard, '2026-11-27T22:30:00Z', 'America/New_York', true],
    ['Saturday 10:00 local is closed (C)', standard, '2026-11-28T13:00:00Z', 'America/Sao_Paulo', false],
    // Day types.
    ['O: Monday 03:00 local is open', mixed, '2026-11-23T06:00:00Z', 'America/Sao_Paulo', true],
    ['O: Monday 23:59 local is open', mixed, '2026-11-24T02:59:00Z', 'America/Sao_Paulo', true],
    ['C: Tuesday 10:00 local is closed', mixed, '2026-11-24T13:00:00Z', 'America/Sao_Paulo', false],
    ['O ends at midnight: Tuesday 00:00 local follows Tuesday (C)', mixed, '2026-11-24T03:00:00Z', 'America/Sao_Paulo', false],
    ['H with hr2 = hr3: Wednesday 12:00 local is open', mixed, '2026-11-25T15:00:00Z', 'America/Sao_Paulo', true],
    ['H: Wednesday 17:00 local is closed', mixed, '2026-11-25T20:00:00Z', 'America/Sao_Paulo', false],
    // An unknown zone reads as the default (São Paulo) rather than failing.
    ['an invalid zone falls back to America/Sao_Paulo', standard, '2026-11-23T11:00:00Z', 'Not/AZone', true],
  ] as const)('%s', (_label, days, iso, zone, expected) => {
    expect(isWithinBusinessHours(days, new Date(iso), zone)).toBe(expected);
  });

  it('a week never saved (null) is the default week', () => {
    expect(isWithinBusinessHours(null, new Date('2026-11-23T14:00:00Z'), 'America/Sao_Paulo')).toBe(true);
    expect(isWithinBusinessHours(null, new Date('2026-11-22T14:00:00Z'), 'America/Sao_Paulo')).toBe(false);
  });

  it('follows a zone with daylight saving time (New York, March change)', () => {
    // 2026-03-09 is a Monday after the DST change (UTC-4): 08:00 local = 12:00 UTC.
    expect(isWithinBusinessHours(standard, new Date('2026-03-09T12:00:00Z'), 'America/New_York')).toBe(true);
    expect(isWithinBusinessHours(standard, new Date('2026-03-09T11:59:00Z'), 'America/New_York')).toBe(false);
  });
});

describe('weekOfTicket (the queue\'s own week, else the tenant\'s)', () => {
  const allDays = (type: 'O' | 'C') => week({ 0: { type }, 1: { type }, 2: { type }, 3: { type }, 4: { type }, 5: { type }, 6: { type } });
  const openAll = allDays('O');
  const closedAll = allDays('C');
  // Queue: Monday open all day, Tuesday closed. Tenant: the opposite.
  const queueMonOpen = week({ 1: { type: 'O' }, 2: { type: 'C' } });
  const tenantMonClosed = week({ 1: { type: 'C' }, 2: { type: 'O' } });
  // 2026-11-23 is a Monday.
  it.each([
    ['queue open all week, tenant closed', openAll, closedAll, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'queue', true],
    ['queue closed all week, tenant open', closedAll, openAll, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'queue', false],
    ['queue without its own hours (null): the tenant\'s, closed', null, closedAll, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'tenant', false],
    ['queue without its own hours (null): the tenant\'s, open', null, openAll, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'tenant', true],
    ['an empty queue week counts as none', [], openAll, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'tenant', true],
    ['neither saved: the default week (Monday 11:00 open)', null, null, '2026-11-23T14:00:00Z', 'America/Sao_Paulo', 'tenant', true],
    // Across midnight: Tuesday 01:30 UTC is Monday 22:30 in São Paulo (the queue's Monday: open).
    ['Tuesday 01:30 UTC is the queue\'s Monday in São Paulo', queueMonOpen, tenantMonClosed, '2026-11-24T01:30:00Z', 'America/Sao_Paulo', 'queue', true],
    ['Tuesday 00:30 local is the queue\'s Tuesday (closed)', queueMonOpen, tenantMonClosed, '2026-11-24T03:30:00Z', 'America/Sao_Paulo', 'queue', false],
    ['the tenant\'s week across the same midnight (Monday 22:30 local closed)', null, tenantMonClosed, '2026-11-24T01:30:00Z', 'America/Sao_Paulo', 'tenant', false],
    ['the tenant\'s week after midnight (Tuesday 00:30 local open)', null, tenantMonClosed, '2026-11-24T03:30:00Z', 'America/Sao_Paulo', 'tenant', true],
    // Sunday 23:30 UTC is Monday 08:30 in Tokyo: the queue's Monday.
    ['the queue\'s week read in the tenant zone (Tokyo)', queueMonOpen, tenantMonClosed, '2026-11-22T23:30:00Z', 'Asia/Tokyo', 'queue', true],
  ] as const)('%s', (_label, queueWeek, tenantWeek, iso, zone, source, open) => {
    const chosen = weekOfTicket(queueWeek, tenantWeek);
    expect(chosen.source).toBe(source);
    expect(chosen.week.map((d) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(isWithinBusinessHours(chosen.week, new Date(iso), zone)).toBe(open);
  });
});
