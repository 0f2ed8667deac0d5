import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_CHECK_INTERVAL_MS, IDLE_TICKS, PRESENCE_AWAY_AFTER_SECONDS } from '@shared/limits';
import { createIdleCounter } from './idle-counter';
import { createPresenceTracker } from './presence-tracker';

const clock = {
  now: () => Date.now(),
  setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
  clearInterval: (handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>),
};

describe('presence tracker', () => {
  it('goes away once past the idle threshold and online at the next activity, sending only changes', () => {
    const sent: string[] = [];
    const tracker = createPresenceTracker((p) => sent.push(p), 300);
    tracker.active();
    tracker.idleFor(299);
    expect(sent).toEqual([]);
    tracker.idleFor(300);
    tracker.idleFor(330);
    expect(sent).toEqual(['away']);
    expect(tracker.current()).toBe('away');
    tracker.active();
    tracker.active();
    expect(sent).toEqual(['away', 'online']);
  });
});

describe('presence from the idle counter (spec section 9 counter, issue #18)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports away after PRESENCE_AWAY_AFTER_SECONDS without activity, read at the 30 s checks; activity makes it online', () => {
    const sent: string[] = [];
    const tracker = createPresenceTracker((p) => sent.push(p));
    const counter = createIdleCounter(vi.fn(), clock, {
      ticks: IDLE_TICKS,
      checkEveryMs: IDLE_CHECK_INTERVAL_MS,
      onCheck: tracker.idleFor,
    });
    counter.start();
    vi.advanceTimersByTime(PRESENCE_AWAY_AFTER_SECONDS * 1000 - IDLE_CHECK_INTERVAL_MS);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(IDLE_CHECK_INTERVAL_MS);
    expect(sent).toEqual(['away']);
    vi.advanceTimersByTime(10 * 60_000);
    expect(sent).toEqual(['away']);

    // A click: the counter starts over and the app is online again.
    counter.reset();
    tracker.active();
    expect(sent).toEqual(['away', 'online']);
    vi.advanceTimersByTime(PRESENCE_AWAY_AFTER_SECONDS * 1000 - IDLE_CHECK_INTERVAL_MS);
    expect(sent).toEqual(['away', 'online']);
    vi.advanceTimersByTime(IDLE_CHECK_INTERVAL_MS);
    expect(sent).toEqual(['away', 'online', 'away']);
    counter.stop();
  });
});
