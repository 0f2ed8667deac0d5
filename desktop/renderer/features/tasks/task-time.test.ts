import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, toDateTimeLocal } from './task-time';

describe('task limit date in the datetime-local input', () => {
  it('shows an instant in the browser zone and sends it back as the same instant', () => {
    const iso = '2026-11-26T13:45:00.000Z';
    const local = toDateTimeLocal(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromDateTimeLocal(local)).toBe(iso);
  });

  it('leaves any other text as typed, for the schema to judge', () => {
    expect(fromDateTimeLocal('26/11/2026 10:00')).toBe('26/11/2026 10:00');
    expect(fromDateTimeLocal('')).toBe('');
  });
});
