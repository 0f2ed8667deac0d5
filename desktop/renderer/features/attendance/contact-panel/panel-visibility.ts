import { useSyncExternalStore } from 'react';

/** Whether the contact panel shows beside the chat; kept in localStorage, open by default. */
const KEY = 'attendance.contactPanel';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'closed';
  } catch {
    return true;
  }
}

let open = typeof localStorage === 'undefined' ? true : read();

export function setContactPanelOpen(next: boolean): void {
  open = next;
  try {
    localStorage.setItem(KEY, next ? 'open' : 'closed');
  } catch {
    // Only this session remembers it.
  }
  for (const listener of listeners) listener();
}

export function useContactPanelOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
  );
}
