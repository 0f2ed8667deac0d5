import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_COLORS } from '@shared/schemas/tenant-settings';
import { colorEntriesOf, colorsFromEntries } from './customize.logic';

describe('customize palette', () => {
  it('turns the stored palette into editable entries and back, labels kept', () => {
    const entries = colorEntriesOf(DEFAULT_SYSTEM_COLORS);
    expect(entries[0]).toEqual({ name: 'primary', value: '#3b5bdb', label: 'Primary' });
    expect(colorsFromEntries(entries)).toEqual(DEFAULT_SYSTEM_COLORS);
  });
  it('splits an object with several colours and no label', () => {
    expect(colorEntriesOf([{ accent: '#111111', neutral: '#222222' }])).toEqual([
      { name: 'accent', value: '#111111' },
      { name: 'neutral', value: '#222222' },
    ]);
  });
});
