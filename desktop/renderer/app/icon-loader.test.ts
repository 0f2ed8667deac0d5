import { IconNames, Icons, IconSize } from '@blueprintjs/icons';
import { describe, expect, it, vi } from 'vitest';
import { iconExportName, installIconLoader } from './icon-loader';

describe('icon loader', () => {
  it('finds the paths of every Blueprint icon name (the large size is the same lookup in the 20 px module)', async () => {
    installIconLoader();
    const error = vi.spyOn(console, 'error');
    const names = Object.values(IconNames);
    await Icons.load(names, IconSize.STANDARD);
    // 'blank' is drawn with no path at all.
    expect(names.filter((name) => !Array.isArray(Icons.getPaths(name, IconSize.STANDARD)))).toEqual([]);
    expect(Icons.getPaths('add', IconSize.STANDARD)?.[0]).toMatch(/^M/);
    expect(error).not.toHaveBeenCalled();
    await Icons.load('add', IconSize.LARGE);
    expect(Icons.getPaths('add', IconSize.LARGE)).not.toEqual(Icons.getPaths('add', IconSize.STANDARD));
  });

  it('names exports as Blueprint does', () => {
    expect(iconExportName('add-row-top')).toBe('AddRowTop');
    expect(iconExportName('th')).toBe('Th');
  });
});
