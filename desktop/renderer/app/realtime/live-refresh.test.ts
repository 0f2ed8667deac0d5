import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThrottle, notifyRealtimeListeners, onRealtimeNotice, SettledRefetch, type Refetchable } from './live-refresh';

describe('createThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const timers = {
    now: () => Date.now(),
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };

  it('runs the first trigger at once and folds a burst into one run at the end of the interval', () => {
    const run = vi.fn();
    const throttle = createThrottle(run, 2500, timers);
    throttle.trigger();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(20);
      throttle.trigger();
    }
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2500 - 1000 - 1);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    // Quiet afterwards: nothing more.
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('never runs twice within the interval, and runs again at once after a quiet interval', () => {
    const times: number[] = [];
    const throttle = createThrottle(() => times.push(Date.now()), 2500, timers);
    const start = Date.now();
    for (let i = 0; i < 200; i++) {
      throttle.trigger();
      vi.advanceTimersByTime(97);
    }
    const gaps = times.slice(1).map((time, index) => time - times[index]);
    expect(gaps.every((gap) => gap >= 2500)).toBe(true);
    expect(times.length).toBeGreaterThanOrEqual(Math.floor((200 * 97) / 2500));
    vi.advanceTimersByTime(5000);
    const before = times.length;
    throttle.trigger();
    expect(times.length).toBe(before + 1);
    expect(times[0]).toBe(start);
  });

  it('waits a full interval after markRun, and cancel drops the pending run', () => {
    const run = vi.fn();
    const throttle = createThrottle(run, 1000, timers);
    throttle.markRun();
    throttle.trigger();
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
    throttle.trigger();
    throttle.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('realtime notices', () => {
  it('reaches every listener until it unsubscribes, and one failing listener does not stop the others', () => {
    const heard: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const offBroken = onRealtimeNotice(() => {
      throw new Error('broken');
    });
    const off = onRealtimeNotice((notice) => heard.push(notice.name));
    notifyRealtimeListeners({ name: 'ticket:update' });
    off();
    notifyRealtimeListeners({ name: 'ticket:create' });
    offBroken();
    expect(heard).toEqual(['ticket:update']);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });
});

describe('SettledRefetch', () => {
  const query = (): Refetchable & { refetch: ReturnType<typeof vi.fn<() => unknown>> } => ({ refetch: vi.fn<() => unknown>(), isFetching: false, isUninitialized: false });

  it('refetches an idle query at once', () => {
    const q = query();
    new SettledRefetch(() => [q]).request();
    expect(q.refetch).toHaveBeenCalledTimes(1);
  });

  it('remembers a refetch asked while the query is in flight and runs it once the fetch settled, once', () => {
    const q = query();
    const refetcher = new SettledRefetch(() => [q]);
    q.isFetching = true;
    refetcher.request();
    refetcher.request();
    expect(q.refetch).not.toHaveBeenCalled();
    refetcher.settle(); // a render while still fetching
    expect(q.refetch).not.toHaveBeenCalled();
    q.isFetching = false;
    refetcher.settle();
    expect(q.refetch).toHaveBeenCalledTimes(1);
    refetcher.settle();
    expect(q.refetch).toHaveBeenCalledTimes(1);
  });

  it('leaves skipped queries alone and treats each query on its own', () => {
    const skipped = { ...query(), isUninitialized: true };
    const busy = { ...query(), isFetching: true };
    const idle = query();
    const refetcher = new SettledRefetch(() => [skipped, busy, idle]);
    refetcher.request();
    expect(skipped.refetch).not.toHaveBeenCalled();
    expect(busy.refetch).not.toHaveBeenCalled();
    expect(idle.refetch).toHaveBeenCalledTimes(1);
    busy.isFetching = false;
    refetcher.settle();
    expect(busy.refetch).toHaveBeenCalledTimes(1);
    expect(idle.refetch).toHaveBeenCalledTimes(1);
  });
});
