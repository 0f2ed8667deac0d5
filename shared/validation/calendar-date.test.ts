import { describe, expect, it } from 'vitest';
import { calendarDateOfUtc, formatCalendarDate, parseCalendarDate } from './calendar-date';

describe('parseCalendarDate', () => {
  it('reads day-first dates by default and month-first dates when asked', () => {
    expect(parseCalendarDate('17/05/1990')).toBe('1990-05-17');
    expect(parseCalendarDate('05/17/1990', 'MM/dd/yyyy')).toBe('1990-05-17');
    expect(parseCalendarDate('1/2/2001')).toBe('2001-02-01');
    expect(parseCalendarDate('1/2/2001', 'MM/dd/yyyy')).toBe('2001-01-02');
  });

  it('always accepts ISO dates', () => {
    expect(parseCalendarDate('1990-05-17')).toBe('1990-05-17');
    expect(parseCalendarDate('1990-05-17', 'MM/dd/yyyy')).toBe('1990-05-17');
    expect(parseCalendarDate('1990-05-17T00:00:00.000Z')).toBe('1990-05-17');
  });

  it('rejects days that do not exist and other text', () => {
    for (const bad of ['31/02/1990', '05/17/1990', '17/05/90', '1990/05/17', 'ontem', '', '00/01/2000', '01/01/1800']) {
      expect(parseCalendarDate(bad), bad).toBeNull();
    }
    expect(parseCalendarDate('17/05/1990', 'MM/dd/yyyy')).toBeNull();
  });
});

describe('calendar date helpers', () => {
  it('reads spreadsheet dates in UTC and formats for the interface', () => {
    expect(calendarDateOfUtc(new Date(Date.UTC(1990, 4, 17)))).toBe('1990-05-17');
    expect(formatCalendarDate('1990-05-17')).toBe('17/05/1990');
    expect(formatCalendarDate(null)).toBe('');
  });
});
