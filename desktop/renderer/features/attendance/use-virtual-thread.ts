import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import {
  HeightCache,
  anchorAt,
  buildOffsets,
  centredAnchor,
  clampViewTop,
  computeThreadWindow,
  isAtBottom,
  isDaySeparatorKey,
  viewTopOfAnchor,
  type ScrollAnchor,
  type ThreadWindow,
} from './thread-window';

/** Rendered beyond each edge of the viewport (at least): quick flicks never show blank space. */
const OVERSCAN_MIN_PX = 600;
/** Older messages are asked for when the viewport top is this close to the first loaded row. */
const NEAR_TOP_PX = 800;

export interface VirtualThread {
  /** The scroll container. */
  containerRef: RefObject<HTMLDivElement | null>;
  /** The element holding the rendered rows (each a child with `data-key`), padded above and below. */
  listRef: RefObject<HTMLDivElement | null>;
  window: ThreadWindow;
  onScroll: () => void;
  /** Scrolls a row into the middle of the viewport (rendering it first); false when it is not loaded. */
  scrollToKey: (key: string) => boolean;
}

/**
 * Virtual scrolling of the thread with rows of variable height, measured once rendered (and again
 * by a ResizeObserver when an image loads or a reaction arrives). The viewport sticks to the
 * bottom while the agent is there (new messages stay in view); otherwise it keeps an anchor row in
 * place, so prepending an older page or measuring rows above never moves what is on screen.
 */
export function useVirtualThread({
  keys,
  estimate,
  onNearTop,
}: {
  keys: readonly string[];
  estimate: (index: number) => number;
  onNearTop?: () => void;
}): VirtualThread {
  const containerRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const cache = useRef(new HeightCache()).current;
  const [version, setVersion] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [, setWindowKey] = useState('');
  const stick = useRef(true);
  const anchor = useRef<ScrollAnchor | null>(null);
  /** A jump asked for: position even if the layout did not change. */
  const forcePosition = useRef(false);
  /** Top of the rows' box inside the scrolled content (what sits above it: spinner, notices). */
  const listTop = useRef(0);
  const lastScrollTop = useRef(0);
  const lastLayout = useRef({ offsets: null as Float64Array | null, listTop: 0, scrollHeight: 0, clientHeight: 0 });

  const indexOf = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);
  const offsets = useMemo(
    () => buildOffsets(keys.map((k, i) => cache.get(k) ?? estimate(i))),
    // `version` moves when a measured height changed; `estimate` follows the keys' items.
    [keys, version, cache],
  );
  const totalHeight = offsets[offsets.length - 1];
  const overscan = Math.max(OVERSCAN_MIN_PX, viewport);

  // Where the viewport will be after this render's layout effect: the window is computed for it.
  let viewTop: number;
  const anchored = anchor.current ? viewTopOfAnchor(indexOf, offsets, anchor.current) : null;
  if (stick.current) viewTop = totalHeight - viewport;
  else if (anchored !== null) viewTop = anchored;
  else viewTop = (containerRef.current?.scrollTop ?? 0) - listTop.current;
  viewTop = clampViewTop(viewTop, totalHeight, viewport);
  const win = computeThreadWindow(offsets, viewTop, viewport, overscan);

  const latest = useRef({ keys, indexOf, offsets, win, viewport, overscan, onNearTop });
  latest.current = { keys, indexOf, offsets, win, viewport, overscan, onNearTop };

  // Heights changing after the first layout (images loading, reactions, wrapping on resize).
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  if (observer.current === null && typeof ResizeObserver !== 'undefined')
    observer.current = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset.key;
        if (!key || !entry.target.isConnected) continue;
        const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.target.getBoundingClientRect().height;
        if (cache.set(key, height)) changed = true;
      }
      if (changed) setVersion((v) => v + 1);
    });

  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight || 600);
    measure();
    const resize = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    resize?.observe(el);
    const rows = observed.current;
    return () => {
      resize?.disconnect();
      observer.current?.disconnect();
      rows.clear();
    };
  }, []);

  useLayoutEffect(() => {
    const el = containerRef.current;
    const list = listRef.current;
    if (!el || !list) return;
    // 1. Measure the rows just rendered; a change re-renders before the browser paints.
    let changed = false;
    const present = new Set<Element>();
    for (const child of Array.from(list.children)) {
      const key = (child as HTMLElement).dataset.key;
      if (!key) continue;
      present.add(child);
      if (cache.set(key, child.getBoundingClientRect().height)) changed = true;
      if (!observed.current.has(child)) {
        observed.current.add(child);
        observer.current?.observe(child);
      }
    }
    for (const child of observed.current)
      if (!present.has(child)) {
        observer.current?.unobserve(child);
        observed.current.delete(child);
      }
    if (changed) {
      setVersion((v) => v + 1);
      return;
    }
    // 2. Put the viewport where it belongs when the layout changed (or a jump asked for it).
    listTop.current = list.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    const last = lastLayout.current;
    // The viewport shrinking (the composer grows) counts too: at the bottom, the last message stays in view.
    const layoutChanged =
      last.offsets !== offsets ||
      Math.abs(last.listTop - listTop.current) >= 1 ||
      last.scrollHeight !== el.scrollHeight ||
      last.clientHeight !== el.clientHeight;
    lastLayout.current = { offsets, listTop: listTop.current, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight };
    if (!layoutChanged && !forcePosition.current) return;
    forcePosition.current = false;
    let target: number | null = null;
    if (stick.current) target = el.scrollHeight - el.clientHeight;
    else if (anchor.current) {
      const top = viewTopOfAnchor(indexOf, offsets, anchor.current);
      if (top !== null) target = listTop.current + clampViewTop(top, totalHeight, el.clientHeight);
    }
    if (target !== null && Math.abs(el.scrollTop - target) >= 1) el.scrollTop = target;
  });

  const onScroll = useCallback(() => {
    const el = containerRef.current;
    if (!el) return;
    const { keys: k, offsets: o, win: w, viewport: v, overscan: over, onNearTop: nearTop } = latest.current;
    stick.current = isAtBottom(el.scrollTop, el.clientHeight, el.scrollHeight);
    const top = el.scrollTop - listTop.current;
    const upwards = el.scrollTop < lastScrollTop.current;
    lastScrollTop.current = el.scrollTop;
    anchor.current = stick.current ? null : anchorAt(k, o, top, isDaySeparatorKey);
    // Re-render only when the rows to show change.
    const next = computeThreadWindow(o, top, v, over);
    if (next.start !== w.start || next.end !== w.end) setWindowKey(`${next.start}:${next.end}`);
    // Only the agent scrolling up asks for older pages (not the jump to the bottom on open, nor
    // the anchor moving down over a prepended page).
    if (upwards && top < NEAR_TOP_PX) nearTop?.();
  }, []);

  const scrollToKey = useCallback((key: string) => {
    const { keys: k, indexOf: at, offsets: o, viewport: v } = latest.current;
    const index = at.get(key);
    if (index === undefined) return false;
    stick.current = false;
    anchor.current = centredAnchor(k, o, index, v);
    forcePosition.current = true;
    setVersion((n) => n + 1);
    return true;
  }, []);

  return { containerRef, listRef, window: win, onScroll, scrollToKey };
}
