import { describe, expect, it } from 'vitest';
import { instantOf, shortcutWallTime, wallTimeOf, wallTimeProblem } from './schedule-time';

const SP = 'America/Sao_Paulo';

describe('schedule dates in the tenant time zone', () => {
  // 2026-03-10 23:40 in São Paulo (UTC-3) is already the 11th in UTC.
  const now = new Date('2026-03-11T02:40:10Z');

  it('reads and writes wall times in the zone, whatever the browser’s zone', () => {
    expect(wallTimeOf(now, SP)).toBe('2026-03-10T23:40');
    expect(wallTimeOf(now, 'Asia/Tokyo')).toBe('2026-03-11T11:40');
    expect(instantOf('2026-03-10T23:40', SP)?.toISOString()).toBe('2026-03-11T02:40:00.000Z');
    expect(instantOf('2026-02-31T10:00', SP)).toBeNull();
    expect(instantOf('10/03/2026 10:00', SP)).toBeNull();
  });

  it('fills the quick shortcuts of spec section 9: in 30 minutes, tomorrow and next week at 09:00', () => {
    expect(shortcutWallTime('in30Minutes', now, SP)).toBe('2026-03-11T00:11');
    expect(shortcutWallTime('tomorrow', now, SP)).toBe('2026-03-11T09:00');
    expect(shortcutWallTime('nextWeek', now, SP)).toBe('2026-03-17T09:00');
    expect(shortcutWallTime('custom', now, SP)).toBeNull();
    // Tomorrow in Tokyo is the 12th there.
    expect(shortcutWallTime('tomorrow', now, 'Asia/Tokyo')).toBe('2026-03-12T09:00');
  });

  it('tells why a date cannot be scheduled', () => {
    expect(wallTimeProblem('', now, SP)).toBe('required');
    expect(wallTimeProblem('2026-13-01T10:00', now, SP)).toBe('invalid');
    expect(wallTimeProblem('2026-03-10T23:40', now, SP)).toBe('past');
    expect(wallTimeProblem('2026-03-10T23:41', now, SP)).toBeNull();
  });
});
