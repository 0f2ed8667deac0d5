import { describe, expect, it } from 'vitest';
import { groupByUser, keepListed, runInBlocks, toBlocks, toggleSelection, type MassProgress } from './mass-actions';

describe('mass resolve in blocks of 10 (spec section 9)', () => {
  it('cuts the selection into blocks of 10', () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    expect(toBlocks(ids).map((b) => b.length)).toEqual([10, 10, 3]);
    expect(toBlocks([])).toEqual([]);
    expect(toBlocks(ids.slice(0, 10))).toHaveLength(1);
    expect(() => toBlocks(ids, 0)).toThrow();
  });

  it('runs one block at a time, never more than 10 in flight, with progress after each block', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => i + 1);
    let inFlight = 0;
    let maxInFlight = 0;
    const started: number[] = [];
    const progress: MassProgress[] = [];
    const outcome = await runInBlocks(
      ids,
      async (id) => {
        started.push(id);
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight -= 1;
        if (id === 12) throw new Error('refused');
      },
      (p) => progress.push(p),
    );
    expect(maxInFlight).toBe(10);
    expect(started).toEqual(ids);
    expect(progress.map((p) => p.done)).toEqual([0, 10, 20, 25]);
    expect(progress.at(-1)).toEqual({ total: 25, done: 25, failed: 1, ratio: 1 });
    expect(outcome.failed).toEqual([12]);
    expect(outcome.succeeded).toHaveLength(24);
  });

  it('stops between blocks when asked', async () => {
    let stop = false;
    const seen: number[] = [];
    await runInBlocks(
      Array.from({ length: 30 }, (_, i) => i),
      async (id) => {
        seen.push(id);
      },
      (p) => {
        if (p.done >= 10) stop = true;
      },
      { shouldStop: () => stop },
    );
    expect(seen).toHaveLength(10);
  });
});

describe('selection and mass transfer grouping', () => {
  it('toggles, and keeps only listed rows', () => {
    const a = toggleSelection(new Set([1]), 2);
    expect([...a]).toEqual([1, 2]);
    expect([...toggleSelection(a, 1)]).toEqual([2]);
    expect([...keepListed(new Set([1, 2, 3]), [3, 1])]).toEqual([1, 3]);
  });

  it('groups the selected tickets by their user, skipping unassigned ones', () => {
    const groups = groupByUser([
      { id: 1, userId: 7 },
      { id: 2, userId: null },
      { id: 3, userId: 7 },
      { id: 4, userId: 8 },
    ]);
    expect([...groups.entries()]).toEqual([
      [7, [1, 3]],
      [8, [4]],
    ]);
  });
});
