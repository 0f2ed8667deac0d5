import type { DesktopApi } from '@shared/desktop-api';
import { OutboxEntrySchema, type ExpectedTicket } from '@shared/schemas/outbox';
import { connectionStatus } from '../app/connection/connection-status';

/**
 * Sends the desktop console queues in its outbox instead (issue #15): when the console is offline,
 * a text or a private note goes to `window.desktop.outbox` and main delivers it, in order and
 * once (its client id), when the connection is back.
 */

/** The desktop's bridge when this send should be queued: the browser or the cache's sync is offline. */
export function offlineDesktop(): DesktopApi | null {
  const desktop = typeof window === 'undefined' ? undefined : window.desktop;
  if (!desktop) return null;
  const snapshot = connectionStatus.get();
  const offline = !snapshot.browserOnline || (typeof navigator !== 'undefined' && navigator.onLine === false) || snapshot.desktop?.sync?.state === 'offline';
  return offline ? desktop : null;
}

/** The ticket as the agent sees it: a ticket closed or transferred meanwhile is a conflict, not a misplaced reply. */
export function expectedOf(ticket: { status: string; userId: number | null; queueId: number | null } | null | undefined): ExpectedTicket | undefined {
  if (!ticket) return undefined;
  const status = ticket.status as ExpectedTicket['status'];
  return { status, userId: ticket.userId, queueId: ticket.queueId };
}

export interface QueuedText {
  ticketId: number;
  /**
   * The composer's client id when it already tried the send online: a request the server stored
   * before the connection dropped is then found on replay (stored once), not sent again.
   */
  clientId?: string;
  body: string;
  isPrivate?: boolean;
  quotedMsgId?: number | null;
  expected?: ExpectedTicket;
}

/** Queues a text or note; null when the entry is not one the outbox takes (checked with main's own schema). */
export async function enqueueText(desktop: DesktopApi, text: QueuedText): Promise<string | null> {
  const parsed = OutboxEntrySchema.safeParse({
    kind: 'message',
    ticketId: text.ticketId,
    payload: {
      body: text.body,
      ...(text.isPrivate ? { isPrivate: true } : {}),
      ...(text.quotedMsgId ? { quotedMsgId: text.quotedMsgId } : {}),
    },
    ...(text.expected ? { expected: text.expected } : {}),
    ...(text.clientId ? { clientId: text.clientId } : {}),
  });
  if (!parsed.success) return null;
  return desktop.outbox.enqueue(parsed.data);
}

/**
 * Queues a reaction or a ticket status change made offline (accept, return to the queue,
 * resolve, reopen); main replays them in order, idempotently. Null when the outbox refuses the
 * entry (checked with main's own schema).
 */
export async function enqueueAction(
  desktop: DesktopApi,
  action:
    | { kind: 'reaction'; ticketId: number; messageId: number; emoji: string }
    | { kind: 'ticketStatus'; ticketId: number; status: 'open' | 'pending' | 'closed'; sendFarewellMessage?: boolean; requestRating?: boolean; expected?: ExpectedTicket },
): Promise<string | null> {
  const entry =
    action.kind === 'reaction'
      ? { kind: 'reaction', ticketId: action.ticketId, payload: { messageId: action.messageId, emoji: action.emoji } }
      : {
          kind: 'ticketStatus',
          ticketId: action.ticketId,
          payload: {
            status: action.status,
            ...(action.status === 'closed' && action.sendFarewellMessage !== undefined ? { sendFarewellMessage: action.sendFarewellMessage } : {}),
            ...(action.status === 'closed' && action.requestRating !== undefined ? { requestRating: action.requestRating } : {}),
          },
          ...(action.expected ? { expected: action.expected } : {}),
        };
  const parsed = OutboxEntrySchema.safeParse(entry);
  if (!parsed.success) return null;
  return desktop.outbox.enqueue(parsed.data);
}

/**
 * The console's entry point for offline actions: on the desktop while offline, queues the action
 * and answers true (the caller shows that it waits); otherwise false (the caller sends it now).
 */
export async function queueActionIfOffline(action: Parameters<typeof enqueueAction>[1]): Promise<boolean> {
  const desktop = offlineDesktop();
  if (!desktop) return false;
  return (await enqueueAction(desktop, action).catch(() => null)) !== null;
}
