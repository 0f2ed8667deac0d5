import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/messages.api';
import {
  HeightCache,
  anchorAt,
  buildOffsets,
  centredAnchor,
  clampViewTop,
  computeThreadWindow,
  estimateItemHeight,
  isAtBottom,
  isDaySeparatorKey,
  rowAt,
  viewTopOfAnchor,
} from './thread-window';

const message = (over: Partial<Message> = {}): Message =>
  ({
    id: 1,
    messageId: null,
    clientId: null,
    ticketId: 1,
    contactId: 1,
    userId: null,
    body: 'oi',
    fromMe: false,
    mediaType: 'chat',
    mediaName: null,
    mimeType: null,
    mediaUrl: null,
    status: 'received',
    ack: 0,
    isEdited: false,
    isDeleted: false,
    isPrivate: false,
    lastError: null,
    timestamp: null,
    createdAt: new Date().toISOString(),
    ...over,
  }) as Message;

describe('height cache', () => {
  it('keeps measured heights, reports real changes only', () => {
    const cache = new HeightCache();
    expect(cache.get('m-1')).toBeUndefined();
    expect(cache.set('m-1', 40)).toBe(true);
    expect(cache.set('m-1', 40.2)).toBe(false); // sub-pixel noise
    expect(cache.get('m-1')).toBe(40);
    expect(cache.set('m-1', 64)).toBe(true); // an image loaded
    expect(cache.get('m-1')).toBe(64);
    expect(cache.set('m-2', Number.NaN)).toBe(false);
    expect(cache.set('m-2', -1)).toBe(false);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});

describe('offsets and row lookup', () => {
  const offsets = buildOffsets([10, 20, 30, 40]);
  it('prefix sums: the top of each row and the total', () => {
    expect(Array.from(offsets)).toEqual([0, 10, 30, 60, 100]);
  });
  it('finds the row containing a y, clamped to the rows', () => {
    expect(rowAt(offsets, -5)).toBe(0);
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 9.9)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 59)).toBe(2);
    expect(rowAt(offsets, 60)).toBe(3);
    expect(rowAt(offsets, 1000)).toBe(3);
    expect(rowAt(buildOffsets([]), 10)).toBe(0);
  });
  it('clamps the view to the content', () => {
    expect(clampViewTop(-10, 100, 30)).toBe(0);
    expect(clampViewTop(90, 100, 30)).toBe(70);
    expect(clampViewTop(50, 20, 30)).toBe(0);
  });
});

describe('window computation', () => {
  it('renders the rows overlapping the viewport plus the overscan, with spacers for the rest', () => {
    // 100 rows of 50 px: 5000 px; viewport 400 at 1000, overscan 100 -> rows of [900, 1500].
    const offsets = buildOffsets(Array.from({ length: 100 }, () => 50));
    const w = computeThreadWindow(offsets, 1000, 400, 100);
    expect(w).toEqual({ start: 18, end: 31, padTop: 900, padBottom: 5000 - 31 * 50, totalHeight: 5000 });
    expect(w.padTop + (w.end - w.start) * 50 + w.padBottom).toBe(w.totalHeight);
  });
  it('at the bottom of a 10,000-row thread renders a few dozen rows', () => {
    const heights = Array.from({ length: 10_000 }, (_, i) => (i % 7 === 0 ? 240 : 48));
    const offsets = buildOffsets(heights);
    const total = offsets[offsets.length - 1];
    const w = computeThreadWindow(offsets, total - 600, 600, 600);
    expect(w.end).toBe(10_000);
    expect(w.end - w.start).toBeLessThan(60);
    expect(w.padBottom).toBe(0);
    expect(w.padTop).toBe(offsets[w.start]);
  });
  it('with variable heights the window follows the offsets', () => {
    const offsets = buildOffsets([300, 20, 20, 20, 300, 20]);
    expect(computeThreadWindow(offsets, 0, 100, 0)).toMatchObject({ start: 0, end: 1 });
    expect(computeThreadWindow(offsets, 310, 40, 0)).toMatchObject({ start: 1, end: 4 });
    // Beyond the end: clamped to the last viewport.
    expect(computeThreadWindow(offsets, 10_000, 100, 0)).toMatchObject({ start: 4, end: 6, padBottom: 0 });
  });
  it('an empty thread renders nothing', () => {
    expect(computeThreadWindow(buildOffsets([]), 0, 500, 100)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0, totalHeight: 0 });
  });
});

describe('scroll anchor', () => {
  const keys = ['day-a', 'm-1', 'm-2', 'm-3'];
  const offsets = buildOffsets([30, 50, 80, 40]);
  const indexOf = (k: readonly string[]) => new Map(k.map((key, i) => [key, i]));

  it('is the row at the viewport top and the distance into it', () => {
    expect(anchorAt(keys, offsets, 0)).toEqual({ key: 'day-a', delta: 0 });
    expect(anchorAt(keys, offsets, 100)).toEqual({ key: 'm-2', delta: 20 });
    expect(anchorAt([], buildOffsets([]), 10)).toBeNull();
  });

  it('keeps the same message on screen when an older page is prepended', () => {
    const anchor = anchorAt(keys, offsets, 100)!; // 20 px into m-2
    const older = ['day-z', 'm-(-2)', 'm-(-1)', ...keys];
    const olderOffsets = buildOffsets([30, 60, 45, 30, 50, 80, 40]);
    const viewTop = viewTopOfAnchor(indexOf(older), olderOffsets, anchor)!;
    // m-2 now starts at 30+60+45+30+50 = 215: the viewport follows it.
    expect(viewTop).toBe(235);
    expect(anchorAt(older, olderOffsets, viewTop)).toEqual(anchor);
  });

  it('keeps its place when rows above are measured taller than estimated', () => {
    const anchor = anchorAt(keys, offsets, 100)!;
    const measured = buildOffsets([30, 150, 80, 40]); // m-1 holds an image
    expect(viewTopOfAnchor(indexOf(keys), measured, anchor)).toBe(200);
  });

  it('passes over a day separator (its key moves up when an older page brings more of its day)', () => {
    const anchor = anchorAt(keys, offsets, 10, isDaySeparatorKey)!;
    expect(anchor).toEqual({ key: 'm-1', delta: -20 });
    // The older page holds more of the same day: 'day-a' now sits above it, m-1 did not move on screen.
    const older = ['day-a', 'm-0', 'm-1', 'm-2', 'm-3'];
    const olderOffsets = buildOffsets([30, 70, 50, 80, 40]);
    expect(viewTopOfAnchor(indexOf(older), olderOffsets, anchor)).toBe(80);
    expect(anchorAt(['day-a'], buildOffsets([30]), 5, isDaySeparatorKey)).toEqual({ key: 'day-a', delta: 5 });
  });

  it('is lost when its row left the thread', () => {
    expect(viewTopOfAnchor(indexOf(['m-1']), buildOffsets([50]), { key: 'm-9', delta: 0 })).toBeNull();
  });

  it('centres a jump target in the viewport, a tall row showing its top', () => {
    const anchor = centredAnchor(keys, offsets, 2, 200); // m-2: 80 px high, viewport 200
    expect(anchor).toEqual({ key: 'm-2', delta: -60 });
    expect(viewTopOfAnchor(indexOf(keys), offsets, anchor)).toBe(80 - 60);
    expect(centredAnchor(keys, offsets, 2, 50)).toEqual({ key: 'm-2', delta: -0 });
  });

  it('sticks to the bottom within the threshold', () => {
    expect(isAtBottom(930, 500, 1500)).toBe(true);
    expect(isAtBottom(920, 500, 1500)).toBe(false);
    expect(isAtBottom(900, 500, 1500)).toBe(false);
    expect(isAtBottom(0, 500, 300)).toBe(true);
  });
});

describe('height estimates', () => {
  it('grows with what the row shows', () => {
    const text = estimateItemHeight({ kind: 'message', key: 'm-1', message: message() });
    expect(estimateItemHeight({ kind: 'day', key: 'day-1', label: '01/01/2026' })).toBeLessThan(text);
    expect(estimateItemHeight({ kind: 'message', key: 'm-1', message: message({ body: 'x'.repeat(300) }) })).toBeGreaterThan(text);
    expect(
      estimateItemHeight({ kind: 'message', key: 'm-1', message: message({ mediaUrl: '/m/1', mediaType: 'image', body: 'a.png', mediaName: 'a.png' }) }),
    ).toBeGreaterThan(200);
    const quoted = message({ quotedMsg: { id: 2, body: 'q', fromMe: true, mediaType: 'chat', mediaName: null, isDeleted: false } });
    expect(estimateItemHeight({ kind: 'message', key: 'm-1', message: quoted })).toBeGreaterThan(text);
    const reacted = message({ reactions: [{ emoji: '👍', fromMe: true }] });
    expect(estimateItemHeight({ kind: 'message', key: 'm-1', message: reacted })).toBeGreaterThan(text);
  });
});
