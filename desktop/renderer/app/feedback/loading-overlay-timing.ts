import { LOADING_OVERLAY_GAP_MS, LOADING_OVERLAY_HIDE_MS } from '@shared/limits';

/**
 * When the loading overlay shows (spec section 7): only for a request that starts more than
 * 2 s after the previous one (so bursts and quick follow-ups do not flash it), and it hides 1 s
 * after the last pending request has finished. Time and timers are injected for tests.
 */
export interface OverlayClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LoadingOverlayTiming {
  requestStarted(): void;
  requestFinished(): void;
  isVisible(): boolean;
}

export function createLoadingOverlayTiming(
  onChange: (visible: boolean) => void,
  clock: OverlayClock,
  options = { gapMs: LOADING_OVERLAY_GAP_MS, hideAfterMs: LOADING_OVERLAY_HIDE_MS },
): LoadingOverlayTiming {
  let visible = false;
  let pending = 0;
  let lastRequestAt: number | null = null;
  let hideTimer: unknown = null;

  const setVisible = (next: boolean) => {
    if (next === visible) return;
    visible = next;
    onChange(visible);
  };

  return {
    requestStarted() {
      const now = clock.now();
      const quiet = lastRequestAt === null || now - lastRequestAt > options.gapMs;
      lastRequestAt = now;
      pending += 1;
      if (hideTimer !== null) {
        clock.clearTimeout(hideTimer);
        hideTimer = null;
      }
      if (quiet) setVisible(true);
    },
    requestFinished() {
      pending = Math.max(0, pending - 1);
      if (pending > 0 || !visible) return;
      if (hideTimer !== null) clock.clearTimeout(hideTimer);
      hideTimer = clock.setTimeout(() => {
        hideTimer = null;
        if (pending === 0) setVisible(false);
      }, options.hideAfterMs);
    },
    isVisible: () => visible,
  };
}
