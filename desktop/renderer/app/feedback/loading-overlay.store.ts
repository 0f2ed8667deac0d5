import { createLoadingOverlayTiming } from './loading-overlay-timing';

/** The overlay's visibility as a tiny external store, fed by the HTTP base query. */
const listeners = new Set<() => void>();
let visible = false;

const timing = createLoadingOverlayTiming(
  (next) => {
    visible = next;
    for (const listener of listeners) listener();
  },
  {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
);

export const loadingOverlay = {
  requestStarted: timing.requestStarted,
  requestFinished: timing.requestFinished,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isVisible: (): boolean => visible,
};
