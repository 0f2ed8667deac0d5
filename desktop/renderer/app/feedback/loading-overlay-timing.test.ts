import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoadingOverlayTiming } from './loading-overlay-timing';

const clock = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

describe('loading overlay timing', () => {
  let changes: boolean[];
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T10:00:00Z'));
    changes = [];
  });
  afterEach(() => vi.useRealTimers());

  const make = () => createLoadingOverlayTiming((visible) => changes.push(visible), clock);

  it('shows for the first request and hides 1 s after it finishes', () => {
    const overlay = make();
    overlay.requestStarted();
    expect(overlay.isVisible()).toBe(true);
    vi.advanceTimersByTime(300);
    overlay.requestFinished();
    vi.advanceTimersByTime(999);
    expect(overlay.isVisible()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(overlay.isVisible()).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('does not show for a request less than 2 s after the previous one', () => {
    const overlay = make();
    overlay.requestStarted();
    overlay.requestFinished();
    vi.advanceTimersByTime(1000);
    expect(overlay.isVisible()).toBe(false);
    vi.advanceTimersByTime(1000); // exactly 2 s after the previous request: not "more than"
    overlay.requestStarted();
    expect(overlay.isVisible()).toBe(false);
    overlay.requestFinished();
    vi.advanceTimersByTime(2001);
    overlay.requestStarted();
    expect(overlay.isVisible()).toBe(true);
  });

  it('stays up while any request is pending and restarts the hide delay', () => {
    const overlay = make();
    overlay.requestStarted();
    overlay.requestStarted();
    overlay.requestFinished();
    vi.advanceTimersByTime(5000);
    expect(overlay.isVisible()).toBe(true);
    overlay.requestFinished();
    vi.advanceTimersByTime(600);
    overlay.requestStarted(); // a follow-up within the hide delay keeps it up
    vi.advanceTimersByTime(600);
    expect(overlay.isVisible()).toBe(true);
    overlay.requestFinished();
    vi.advanceTimersByTime(1000);
    expect(overlay.isVisible()).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('ignores extra finish calls', () => {
    const overlay = make();
    overlay.requestFinished();
    expect(changes).toEqual([]);
  });
});
