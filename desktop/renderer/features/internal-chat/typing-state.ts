import { INTERNAL_CHAT_TYPING_TTL_MS } from '@shared/schemas/internal-chat';
import { conversationKey, type ConversationRef } from './chat-cache';

/**
 * Who is typing where: each `chat:typing` received shows its author for
 * INTERNAL_CHAT_TYPING_TTL_MS, renewed by the next one; a message from that author ends it at
 * once. A tiny external store (useSyncExternalStore) with the clock passed in, for the tests.
 */

interface Typist {
  userId: number;
  name: string;
  until: number;
}

export interface TypingClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: TypingClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createTypingState(clock: TypingClock = realClock, ttlMs = INTERNAL_CHAT_TYPING_TTL_MS) {
  const typists = new Map<string, Typist[]>();
  const listeners = new Set<() => void>();
  const timers = new Map<string, unknown>();
  let version = 0;

  const changed = () => {
    version += 1;
    for (const listener of [...listeners]) listener();
  };

  const prune = (key: string) => {
    const now = clock.now();
    const alive = (typists.get(key) ?? []).filter((t) => t.until > now);
    if (alive.length) typists.set(key, alive);
    else typists.delete(key);
  };

  /** Wakes up when the next typist of the conversation expires. */
  const schedule = (key: string) => {
    const pending = timers.get(key);
    if (pending !== undefined) clock.clearTimeout(pending);
    timers.delete(key);
    const list = typists.get(key);
    if (!list?.length) return;
    const next = Math.min(...list.map((t) => t.until)) - clock.now();
    timers.set(
      key,
      clock.setTimeout(
        () => {
          timers.delete(key);
          prune(key);
          schedule(key);
          changed();
        },
        Math.max(0, next),
      ),
    );
  };

  return {
    typing(ref: ConversationRef, userId: number, name: string): void {
      const key = conversationKey(ref);
      const list = (typists.get(key) ?? []).filter((t) => t.userId !== userId);
      list.push({ userId, name, until: clock.now() + ttlMs });
      typists.set(key, list);
      schedule(key);
      changed();
    },
    /** The author's message arrived: they stopped typing. */
    stopped(ref: ConversationRef, userId: number): void {
      const key = conversationKey(ref);
      const list = typists.get(key);
      if (!list?.some((t) => t.userId === userId)) return;
      const rest = list.filter((t) => t.userId !== userId);
      if (rest.length) typists.set(key, rest);
      else typists.delete(key);
      schedule(key);
      changed();
    },
    /** The names typing in a conversation now, in the order they started. */
    namesIn(ref: ConversationRef): string[] {
      const now = clock.now();
      return (typists.get(conversationKey(ref)) ?? []).filter((t) => t.until > now).map((t) => t.name);
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
    clear(): void {
      for (const handle of timers.values()) clock.clearTimeout(handle);
      timers.clear();
      typists.clear();
      changed();
    },
  };
}

export type TypingState = ReturnType<typeof createTypingState>;

/** The app's one typing state, fed by the socket (chat-realtime.ts) and read by the open conversation. */
export const typingState = createTypingState();

/** Emit `chat:typing` at most once per `intervalMs` while the user types (the first keystroke at once). */
export function createTypingEmitter(emit: () => void, intervalMs = 2000, now: () => number = () => Date.now()) {
  let last = -Infinity;
  return {
    keystroke(): void {
      const at = now();
      if (at - last < intervalMs) return;
      last = at;
      emit();
    },
    /** After a send: the next keystroke announces typing again at once. */
    reset(): void {
      last = -Infinity;
    },
  };
}
