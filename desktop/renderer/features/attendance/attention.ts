import type { Message } from '../../api/messages.api';
import type { Ticket, TicketListPage } from '../../api/tickets.api';
import type { RootState } from '../../app/store';
import { translate } from '../../i18n/i18n-instance';
import { unreadTotal } from './ticket-list-cache';

/**
 * Getting the agent's attention: a notification for a new inbound message (the desktop's native
 * one when present, else the browser's when permitted) and the unread count in the document
 * title and the launcher badge.
 */
const desktop = () =>
  (globalThis as { desktop?: { notify?(r: { title: string; body: string; ticketId?: number }): Promise<void>; setBadgeCount?(n: number): Promise<void> } })
    .desktop ?? null;

let baseTitle: string | null = null;
let lastCount = -1;

function cachedListPages(state: RootState): TicketListPage[] {
  const queries = (state as unknown as { api: { queries: Record<string, { endpointName?: string; data?: unknown }> } }).api.queries;
  return Object.values(queries)
    .filter((q) => q?.endpointName === 'getTickets' && q.data)
    .map((q) => q.data as TicketListPage);
}

function findTicket(state: RootState, ticketId: number): Ticket | null {
  for (const page of cachedListPages(state)) {
    const t = page.tickets.find((x) => x.id === ticketId);
    if (t) return t;
  }
  return null;
}

/** Title "(n) App" and badge n from the unread counters of the cached active tickets. */
export function refreshUnreadAttention(state: RootState): void {
  if (typeof document === 'undefined') return;
  const count = unreadTotal(cachedListPages(state));
  if (count === lastCount) return;
  lastCount = count;
  const current = document.title.replace(/^\(\d+\)\s*/, '');
  baseTitle = current || baseTitle || '';
  document.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle;
  void desktop()?.setBadgeCount?.(count)?.catch(() => undefined);
}

export function resetUnreadAttention(): void {
  lastCount = -1;
}

export function announceInboundMessage(state: RootState, message: Message): void {
  const ticket = findTicket(state, message.ticketId);
  const title = ticket?.contact?.name ?? ticket?.name ?? translate('attendance.notification.title');
  const body = message.body?.trim() || translate('attendance.notification.media');
  const bridge = desktop();
  if (bridge?.notify) {
    void bridge.notify({ title, body: body.slice(0, 200), ticketId: message.ticketId }).catch(() => undefined);
    return;
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    try {
      new Notification(title, { body: body.slice(0, 200), tag: `ticket-${message.ticketId}` });
    } catch {
      // Some browsers only allow notifications from a service worker: the title still counts.
    }
  }
}

/** Asks once, from a user gesture, for the browser's notification permission. */
export function requestNotificationPermission(): void {
  if (desktop()?.notify) return;
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
}

