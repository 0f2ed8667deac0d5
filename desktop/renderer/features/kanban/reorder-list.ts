/**
 * Reordering a positioned list (kanban columns, lanes) by drag and drop or by the keyboard, as
 * pure functions: the screen computes the new order, shows it at once and sends every id in
 * that order to PUT .../reorder.
 */

/** The list with the item at `from` moved so that it ends at index `to`. Out-of-range: unchanged copy. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= items.length || to < 0 || to >= items.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/**
 * Where a dragged row lands when dropped on row `over`: before it when the pointer is on the
 * upper half, after it on the lower half. Answers the final index of the dragged row.
 */
export function dropIndex(from: number, over: number, placeAfter: boolean): number {
  const insertAt = over + (placeAfter ? 1 : 0);
  return from < insertAt ? insertAt - 1 : insertAt;
}

/** The ids in their new order, or null when the move changes nothing (no request needed). */
export function reorderedIds<T extends { id: number }>(items: readonly T[], from: number, to: number): number[] | null {
  if (from === to) return null;
  const moved = moveItem(items, from, to);
  const ids = moved.map((item) => item.id);
  return ids.every((id, index) => id === items[index].id) ? null : ids;
}

/** Upper or lower half of a row, from the pointer's vertical position. */
export function isLowerHalf(pointerY: number, rowTop: number, rowHeight: number): boolean {
  return pointerY > rowTop + rowHeight / 2;
}
