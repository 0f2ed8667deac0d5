import type { ThreadItem } from './message-display';

/**
 * Windowing math of the message thread, whose rows have different heights (text, media, quotes,
 * reactions, date separators): a cache of measured heights with estimates for rows never
 * rendered, prefix offsets, the window of rows to render around the viewport, and the scroll
 * anchor (a row's key and how far the viewport top is below it) that keeps the same message
 * under the agent's eyes when older pages are prepended or rows above are measured. Pure and tested.
 */

/** Measured heights by row key; rows never rendered fall back to an estimate. */
export class HeightCache {
  private readonly heights = new Map<string, number>();

  get(key: string): number | undefined {
    return this.heights.get(key);
  }

  /** Records a measured height; true when it changed what the cache held (sub-pixel noise ignored). */
  set(key: string, height: number): boolean {
    if (!(height >= 0) || !Number.isFinite(height)) return false;
    const known = this.heights.get(key);
    if (known !== undefined && Math.abs(known - height) < 0.5) return false;
    this.heights.set(key, height);
    return true;
  }

  get size(): number {
    return this.heights.size;
  }

  clear(): void {
    this.heights.clear();
  }
}

/** Prefix offsets: offsets[i] is the top of row i, offsets[n] the total height. */
export function buildOffsets(heights: readonly number[]): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + heights[i];
  return offsets;
}

/** Index of the row containing y (the last row whose top is at or above y), clamped to the rows. */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface ThreadWindow {
  start: number;
  /** Exclusive. */
  end: number;
  /** Space above the first rendered row. */
  padTop: number;
  /** Space below the last rendered row. */
  padBottom: number;
  totalHeight: number;
}

export const clampViewTop = (viewTop: number, totalHeight: number, viewportHeight: number): number =>
  Math.min(Math.max(0, viewTop), Math.max(0, totalHeight - viewportHeight));

/** Rows overlapping [viewTop - overscan, viewTop + viewport + overscan]. */
export function computeThreadWindow(offsets: Float64Array, viewTop: number, viewportHeight: number, overscanPx: number): ThreadWindow {
  const n = offsets.length - 1;
  const totalHeight = offsets[n] ?? 0;
  if (n <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, totalHeight: 0 };
  const top = clampViewTop(viewTop, totalHeight, viewportHeight);
  const start = rowAt(offsets, Math.max(0, top - overscanPx));
  const last = rowAt(offsets, top + Math.max(0, viewportHeight) + overscanPx);
  const end = Math.min(n, last + 1);
  return { start, end, padTop: offsets[start], padBottom: totalHeight - offsets[end], totalHeight };
}

/** Where the viewport is, as "`delta` px below the top of row `key`". */
export interface ScrollAnchor {
  key: string;
  delta: number;
}

/**
 * The row at the viewport's top, and how far below its top the viewport starts. Rows whose key
 * can move (`movable`: a day separator moves up when an older page brings more of its day) are
 * passed over for the next row, with a negative delta.
 */
export function anchorAt(
  keys: readonly string[],
  offsets: Float64Array,
  viewTop: number,
  movable: (key: string) => boolean = () => false,
): ScrollAnchor | null {
  if (!keys.length) return null;
  let index = rowAt(offsets, Math.max(0, viewTop));
  while (index < keys.length - 1 && movable(keys[index])) index++;
  return { key: keys[index], delta: viewTop - offsets[index] };
}

/** Day separators are keyed by day: an older page of the same day moves the key above it. */
export const isDaySeparatorKey = (key: string): boolean => key.startsWith('day-');

/** The viewTop that puts the anchor back where it was, with the current offsets (null: the row is gone). */
export function viewTopOfAnchor(indexOf: ReadonlyMap<string, number>, offsets: Float64Array, anchor: ScrollAnchor): number | null {
  const index = indexOf.get(anchor.key);
  if (index === undefined || index >= offsets.length - 1) return null;
  return offsets[index] + anchor.delta;
}

/** An anchor that centres row `index` in the viewport (a rows taller than the viewport shows its top). */
export function centredAnchor(keys: readonly string[], offsets: Float64Array, index: number, viewportHeight: number): ScrollAnchor {
  const height = offsets[index + 1] - offsets[index];
  return { key: keys[index], delta: -Math.max(0, (viewportHeight - height) / 2) };
}

/** True when the viewport bottom is within `threshold` px of the content's end. */
export const isAtBottom = (scrollTop: number, clientHeight: number, scrollHeight: number, threshold = 80): boolean =>
  scrollHeight - scrollTop - clientHeight < threshold;

/** A first guess of a row's height before it is rendered (the real one replaces it once measured). */
export function estimateItemHeight(item: ThreadItem): number {
  if (item.kind === 'day') return 38;
  const m = item.message;
  if (m.isDeleted) return 48;
  let height = 48; // bubble padding, meta line and the gap
  if (m.quotedMsg) height += 44;
  if (m.mediaUrl) height += m.mediaType === 'image' || m.mediaType === 'video' ? 210 : 28;
  const body = m.body && m.body !== m.mediaName ? m.body : '';
  if (body) {
    const lines = body.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 60)), 0);
    height += 19 * lines;
  }
  if (m.buttons?.length) height += 30;
  if (m.reactions?.some((r) => r.emoji)) height += 26;
  if (m.status === 'scheduled') height += 20;
  if (m.status === 'failed') height += 30;
  if (m.isPrivate) height += 16;
  return height;
}
