import { IDLE_CHECK_INTERVAL_MS, IDLE_TICKS } from '@shared/limits';

/**
 * Idle timeout of spec section 9: a counter of 7200 ticks (one per second, so 2 hours) is
 * checked every 30 s and reset by a click, a mouse move or a key press; at zero the page reloads.
 * Each check subtracts the seconds that really elapsed, so a laptop waking from sleep after
 * three hours reloads at the first check instead of counting on from where it stopped.
 */
export interface IdleClock {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface IdleCounter {
  /** Called on user activity. */
  reset(): void;
  /** Remaining ticks (seconds). */
  remaining(): number;
  start(): void;
  stop(): void;
}

export interface IdleCounterOptions {
  ticks: number;
  checkEveryMs: number;
  /** After each check: the seconds since the last activity (presence: away after a while). */
  onCheck?: (idleSeconds: number) => void;
}

export function createIdleCounter(
  onIdle: () => void,
  clock: IdleClock,
  options: IdleCounterOptions = { ticks: IDLE_TICKS, checkEveryMs: IDLE_CHECK_INTERVAL_MS },
): IdleCounter {
  let remaining = options.ticks;
  let lastCheck = clock.now();
  let handle: unknown = null;

  const check = () => {
    const now = clock.now();
    const elapsedTicks = Math.max(0, Math.round((now - lastCheck) / 1000));
    lastCheck = now;
    remaining = Math.max(0, remaining - elapsedTicks);
    options.onCheck?.(options.ticks - remaining);
    if (remaining === 0) {
      stop();
      onIdle();
    }
  };

  function stop() {
    if (handle !== null) clock.clearInterval(handle);
    handle = null;
  }

  return {
    reset() {
      remaining = options.ticks;
      lastCheck = clock.now();
    },
    remaining: () => remaining,
    start() {
      if (handle !== null) return;
      remaining = options.ticks;
      lastCheck = clock.now();
      handle = clock.setInterval(check, options.checkEveryMs);
    },
    stop,
  };
}

/** DOM events that count as activity (spec section 9: click, mouse move, key press). */
export const ACTIVITY_EVENTS = ['click', 'mousemove', 'keydown'] as const;
