/**
 * Windowing math of the virtual list: which rows of fixed height are on screen (plus an
 * overscan margin), and how tall the spacers above and below are. Pure and tested.
 */
export interface ListWindow {
  start: number;
  /** Exclusive. */
  end: number;
  offsetTop: number;
  totalHeight: number;
}

export function computeListWindow(
  rowCount: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan = 4,
): ListWindow {
  const totalHeight = Math.max(0, rowCount * rowHeight);
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight };
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalHeight - viewportHeight));
  const first = Math.floor(top / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(rowCount, first + visible + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** True when the viewport bottom is within `threshold` px of the end: time to load more. */
export const isNearEnd = (scrollTop: number, viewportHeight: number, totalHeight: number, threshold = 200): boolean =>
  totalHeight > 0 && scrollTop + viewportHeight >= totalHeight - threshold;

/** Load-more throttle (spec section 9: at most once every TICKET_LIST_LOAD_MORE_MS). */
export function createLoadMoreGate(intervalMs: number, now: () => number = Date.now) {
  let last = -Infinity;
  return {
    tryPass(): boolean {
      const t = now();
      if (t - last < intervalMs) return false;
      last = t;
      return true;
    },
  };
}
