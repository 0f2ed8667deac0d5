import { useLayoutEffect, useRef, useState, type ReactNode, type UIEvent } from 'react';
import { computeListWindow, isNearEnd } from './list-window';

/**
 * A fixed-row-height windowed list: only the rows on screen (plus overscan) are in the DOM, so
 * thousands of tickets scroll smoothly. `onNearEnd` fires when the viewport reaches the end.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  onNearEnd,
  testId,
}: {
  items: readonly T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ReactNode;
  /** A stable key per item: rows that stay in the window keep their DOM (and memoised rows skip rendering). */
  getKey?: (item: T) => string | number;
  onNearEnd?: () => void;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight || 600);
    measure();
    const observer = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  const window = computeListWindow(items.length, rowHeight, scrollTop, height);

  useLayoutEffect(() => {
    // A short first page that does not fill the viewport still asks for more.
    if (onNearEnd && isNearEnd(scrollTop, height, window.totalHeight)) onNearEnd();
  }, [items.length, height]);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const top = e.currentTarget.scrollTop;
    setScrollTop(top);
    if (onNearEnd && isNearEnd(top, height, window.totalHeight)) onNearEnd();
  };

  return (
    <div ref={ref} className="virtual-list" onScroll={onScroll} data-testid={testId} data-rendered={window.end - window.start}>
      <div style={{ height: window.totalHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: window.offsetTop, left: 0, right: 0 }}>
          {items.slice(window.start, window.end).map((item, i) => (
            <div key={getKey ? getKey(item) : window.start + i} style={{ height: rowHeight }}>
              {renderRow(item, window.start + i)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
