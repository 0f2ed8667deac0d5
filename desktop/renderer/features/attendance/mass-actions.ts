import { MASS_RESOLVE_BLOCK } from '@shared/limits';

/**
 * Mass actions of administrators (spec sections 4 and 9): the selected tickets are resolved in
 * blocks of 10, one block after the other, reporting progress after each block. Pure.
 */
export function toBlocks<T>(items: readonly T[], size: number = MASS_RESOLVE_BLOCK): T[][] {
  if (size < 1) throw new Error('block size must be at least 1');
  const blocks: T[][] = [];
  for (let i = 0; i < items.length; i += size) blocks.push(items.slice(i, i + size));
  return blocks;
}

export interface MassProgress {
  total: number;
  done: number;
  failed: number;
  /** 0..1 */
  ratio: number;
}

export interface MassOutcome<T> {
  succeeded: T[];
  failed: T[];
}

/**
 * Runs `work` for every item, a block at a time (the items of a block in parallel), and calls
 * `onProgress` after each block. A failed item never stops the others. `shouldStop` is read
 * between blocks (the dialog was closed).
 */
export async function runInBlocks<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
  onProgress: (progress: MassProgress) => void = () => {},
  options: { size?: number; shouldStop?: () => boolean } = {},
): Promise<MassOutcome<T>> {
  const outcome: MassOutcome<T> = { succeeded: [], failed: [] };
  const total = items.length;
  onProgress({ total, done: 0, failed: 0, ratio: total ? 0 : 1 });
  for (const block of toBlocks(items, options.size ?? MASS_RESOLVE_BLOCK)) {
    if (options.shouldStop?.()) break;
    const results = await Promise.allSettled(block.map((item) => work(item)));
    results.forEach((result, i) => (result.status === 'fulfilled' ? outcome.succeeded : outcome.failed).push(block[i]));
    const done = outcome.succeeded.length + outcome.failed.length;
    onProgress({ total, done, failed: outcome.failed.length, ratio: total ? done / total : 1 });
  }
  return outcome;
}

/** The selection of the list in mass mode: toggling, selecting all loaded rows, keeping only listed ones. */
export function toggleSelection(selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

export function keepListed(selected: ReadonlySet<number>, listedIds: readonly number[]): Set<number> {
  const listed = new Set(listedIds);
  return new Set([...selected].filter((id) => listed.has(id)));
}

/**
 * POST /tickets/mass-transfer moves the tickets of one user: the selected tickets grouped by
 * their user (tickets without a user cannot be mass-transferred).
 */
export function groupByUser<T extends { id: number; userId: number | null }>(tickets: readonly T[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const ticket of tickets) {
    if (ticket.userId === null) continue;
    const list = groups.get(ticket.userId) ?? [];
    list.push(ticket.id);
    groups.set(ticket.userId, list);
  }
  return groups;
}
