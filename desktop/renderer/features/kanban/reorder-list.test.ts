import { describe, expect, it } from 'vitest';
import { dropIndex, isLowerHalf, moveItem, reorderedIds } from './reorder-list';

const columns = [{ id: 10 }, { id: 20 }, { id: 30 }, { id: 40 }];

describe('moveItem', () => {
  it('moves an item down and up', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('returns an unchanged copy for a move out of range or in place', () => {
    const list = ['a', 'b'];
    expect(moveItem(list, 0, 5)).toEqual(list);
    expect(moveItem(list, -1, 0)).toEqual(list);
    expect(moveItem(list, 1, 1)).not.toBe(list);
  });
});

describe('dropIndex', () => {
  it('drops before the row under the pointer on its upper half', () => {
    expect(dropIndex(3, 0, false)).toBe(0); // last onto the top of the first: becomes first
    expect(dropIndex(0, 2, false)).toBe(1); // first onto the top of the third: lands between 2nd and 3rd
  });

  it('drops after the row on its lower half', () => {
    expect(dropIndex(0, 2, true)).toBe(2);
    expect(dropIndex(0, 3, true)).toBe(3); // onto the bottom of the last: becomes last
    expect(dropIndex(3, 0, true)).toBe(1);
  });

  it('dropping a row on itself keeps its place', () => {
    expect(dropIndex(2, 2, false)).toBe(2);
    expect(dropIndex(2, 2, true)).toBe(2);
    // Just below the row above / just above the row below: still the same place.
    expect(dropIndex(2, 1, true)).toBe(2);
    expect(dropIndex(2, 3, false)).toBe(2);
  });
});

describe('reorderedIds', () => {
  it('lists every id in the new order', () => {
    expect(reorderedIds(columns, 3, 0)).toEqual([40, 10, 20, 30]);
    expect(reorderedIds(columns, 1, 2)).toEqual([10, 30, 20, 40]);
  });

  it('is null when nothing moves, so no request is sent', () => {
    expect(reorderedIds(columns, 2, 2)).toBeNull();
    expect(reorderedIds(columns, 0, 9)).toBeNull();
  });
});

describe('isLowerHalf', () => {
  it('splits a row at its middle', () => {
    expect(isLowerHalf(110, 100, 40)).toBe(false);
    expect(isLowerHalf(121, 100, 40)).toBe(true);
  });
});
