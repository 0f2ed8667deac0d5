import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleCounter } from './idle-counter';

const clock = {
  now: () => Date.now(),
  setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
  clearInterval: (handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>),
};

describe('idle counter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after 7200 ticks (2 hours) without activity, checked every 30 s', () => {
    const onIdle = vi.fn();
    const counter = createIdleCounter(onIdle, clock);
    counter.start();
    vi.advanceTimersByTime(30_000);
    expect(counter.remaining()).toBe(7170);
    vi.advanceTimersByTime(2 * 3600_000 - 60_000);
    expect(onIdle).not.toHaveBeenCalled();
    expect(counter.remaining()).toBe(30);
    vi.advanceTimersByTime(30_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3600_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('starts over on activity', () => {
    const onIdle = vi.fn();
    const counter = createIdleCounter(onIdle, clock);
    counter.start();
    vi.advanceTimersByTime(3600_000);
    counter.reset();
    expect(counter.remaining()).toBe(7200);
    vi.advanceTimersByTime(2 * 3600_000 - 30_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts real elapsed time when the timer was held back (sleep)', () => {
    const onIdle = vi.fn();
    const counter = createIdleCounter(onIdle, clock);
    counter.start();
    vi.setSystemTime(Date.now() + 3 * 3600_000); // clock jumps, no interval ran meanwhile
    vi.advanceTimersByTime(30_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stops checking after stop()', () => {
    const onIdle = vi.fn();
    const counter = createIdleCounter(onIdle, clock);
    counter.start();
    counter.stop();
    vi.advanceTimersByTime(3 * 3600_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
