import { PRESENCE_AWAY_AFTER_SECONDS } from '@shared/limits';
import type { AppPresence } from '../realtime/realtime-client';

/**
 * This app's presence (issue #18) from the idle counter of spec section 9: away once the user has
 * been idle PRESENCE_AWAY_AFTER_SECONDS (read at the counter's checks, every 30 s), online again
 * at the next click, mouse move or key press. Only changes are sent. The server combines the
 * apps of a user: online if any is active, away when all are idle.
 */
export interface PresenceTracker {
  /** The idle counter's check: seconds since the last activity. */
  idleFor(seconds: number): void;
  /** A click, mouse move or key press. */
  active(): void;
  current(): AppPresence;
}

export function createPresenceTracker(
  send: (presence: AppPresence) => void,
  awayAfterSeconds = PRESENCE_AWAY_AFTER_SECONDS,
): PresenceTracker {
  let current: AppPresence = 'online';
  const set = (next: AppPresence) => {
    if (next === current) return;
    current = next;
    send(next);
  };
  return {
    idleFor: (seconds) => {
      if (seconds >= awayAfterSeconds) set('away');
    },
    active: () => set('online'),
    current: () => current,
  };
}
