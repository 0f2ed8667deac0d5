import { describe, expect, it } from 'vitest';
import { createTypingEmitter, createTypingState, type TypingClock } from './typing-state';

/** A clock the test moves by hand; timers fire when it passes them. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; run: () => void; handle: number }[] = [];
  let next = 1;
  const clock: TypingClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const handle = next++;
      timers.push({ at: now + ms, run, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.handle !== handle);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      due.run();
    }
  };
  return { clock, advance };
}

const room = { kind: 'team' as const, id: 7 };
const ana = { kind: 'user' as const, id: 2 };

describe('who is typing', () => {
  it('shows a typist for the TTL after the last chat:typing, renewed by the next one', () => {
    const { clock, advance } = fakeClock();
    const state = createTypingState(clock, 5000);
    let changes = 0;
    state.subscribe(() => (changes += 1));
    state.typing(ana, 2, 'Ana');
    expect(state.namesIn(ana)).toEqual(['Ana']);
    expect(state.namesIn(room)).toEqual([]);
    advance(4000);
    state.typing(ana, 2, 'Ana');
    advance(4000);
    expect(state.namesIn(ana)).toEqual(['Ana']);
    const before = changes;
    advance(1000);
    expect(state.namesIn(ana)).toEqual([]);
    // The expiry itself tells the screen (no keystroke needed to clear the line).
    expect(changes).toBe(before + 1);
  });

  it('lists several typists of a room in order, and drops one whose message arrived', () => {
    const { clock } = fakeClock();
    const state = createTypingState(clock, 5000);
    state.typing(room, 2, 'Ana');
    state.typing(room, 3, 'Bruno');
    state.typing(room, 2, 'Ana');
    expect(state.namesIn(room)).toEqual(['Bruno', 'Ana']);
    state.stopped(room, 3);
    expect(state.namesIn(room)).toEqual(['Ana']);
  });
});

describe('sending chat:typing while typing', () => {
  it('goes out on the first keystroke and at most once every 2 s after, and at once after a send', () => {
    let now = 0;
    let sent = 0;
    const emitter = createTypingEmitter(
      () => (sent += 1),
      2000,
      () => now,
    );
    emitter.keystroke();
    for (let t = 100; t < 2000; t += 100) {
      now = t;
      emitter.keystroke();
    }
    expect(sent).toBe(1);
    now = 2000;
    emitter.keystroke();
    expect(sent).toBe(2);
    now = 2100;
    emitter.reset();
    emitter.keystroke();
    expect(sent).toBe(3);
  });
});
