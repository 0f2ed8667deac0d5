import type { DesktopOutboxChange } from '@shared/desktop-api';
import type { OutboxItem, OutboxState } from '@shared/schemas/outbox';

/**
 * The desktop outbox as the page sees it (issue #15): every item main reports, kept current by
 * `outbox.onChange`. Small and free of the bridge: the thread reads it for its pending bubbles,
 * the banner for its count; on the web it stays empty.
 */
export type BubbleState = Exclude<OutboxState, 'done'> | 'delivered';

/** A queued action that is not a text: the bubble names it instead of showing a body. */
export type PendingAction = { kind: 'reaction'; emoji: string } | { kind: 'ticketStatus'; status: 'open' | 'pending' | 'closed' };

export interface PendingBubble {
  clientId: string;
  ticketId: number;
  body: string;
  /** Set for a reaction or a status change (body empty). */
  action: PendingAction | null;
  isPrivate: boolean;
  state: BubbleState;
  /** What the server said (conflict, failure): shown under the text. */
  error: string | null;
  /** Conflict or failure: the agent discards it or puts it back in the queue. */
  actionable: boolean;
  createdAt: number;
}

/** Waiting to go (the banner's "N ações aguardando envio"). */
export const isWaiting = (item: Pick<OutboxItem, 'state'>): boolean => item.state === 'queued' || item.state === 'sending';
/** Would be lost by a logout's wipe. */
export const isUnsent = (item: Pick<OutboxItem, 'state'>): boolean => item.state !== 'done';

/**
 * The pending bubbles of a ticket's thread: its queued messages and notes in outbox order, each
 * with its state. A delivered one stays (as 'delivered') only until the thread holds the server's
 * message of the same clientId, and only when it was delivered while this page watched: older
 * delivered items are in the thread already (or in an older page).
 */
export function pendingBubbles(
  items: readonly OutboxItem[],
  ticketId: number,
  threadClientIds: ReadonlySet<string>,
  deliveredHere: ReadonlySet<string>,
): PendingBubble[] {
  return items
    .filter((item) => item.ticketId === ticketId)
    // A reaction or status change shows while it waits or was refused (its conflict is the agent's
    // to see); once done, the thread and the ticket show its effect.
    .filter((item) =>
      item.state === 'done' ? item.kind === 'message' && deliveredHere.has(item.clientId) && !threadClientIds.has(item.clientId) : true,
    )
    .sort((a, b) => a.seq - b.seq)
    .map((item) => {
      const payload = item.payload as { body?: string; isPrivate?: boolean; emoji?: string; status?: 'open' | 'pending' | 'closed' };
      const action: PendingAction | null =
        item.kind === 'reaction'
          ? { kind: 'reaction', emoji: payload.emoji ?? '' }
          : item.kind === 'ticketStatus'
            ? { kind: 'ticketStatus', status: payload.status ?? 'open' }
            : null;
      return {
        clientId: item.clientId,
        ticketId: item.ticketId,
        body: payload.body ?? '',
        action,
        isPrivate: payload.isPrivate === true,
        state: item.state === 'done' ? 'delivered' : item.state,
        error: item.state === 'conflict' || item.state === 'failed' ? (item.lastError?.message ?? null) : null,
        actionable: item.state === 'conflict' || item.state === 'failed',
        createdAt: item.createdAt,
      };
    });
}

/** The items after a change main reported. */
export function applyOutboxChange(items: ReadonlyMap<string, OutboxItem>, change: DesktopOutboxChange): Map<string, OutboxItem> {
  const next = new Map(items);
  if (change.type === 'discarded') next.delete(change.clientId);
  else next.set(change.item.clientId, change.item);
  return next;
}

interface OutboxSnapshot {
  items: ReadonlyMap<string, OutboxItem>;
  /** Items seen going to done while this page watched. */
  deliveredHere: ReadonlySet<string>;
}

let snapshot: OutboxSnapshot = { items: new Map(), deliveredHere: new Set() };
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export const outboxStore = {
  get: (): OutboxSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  replaceAll(items: readonly OutboxItem[]): void {
    snapshot = { items: new Map(items.map((item) => [item.clientId, item])), deliveredHere: new Set() };
    emit();
  },
  apply(change: DesktopOutboxChange): void {
    const wasDone = change.type !== 'discarded' && snapshot.items.get(change.item.clientId)?.state === 'done';
    const deliveredHere =
      change.type !== 'discarded' && change.item.state === 'done' && !wasDone
        ? new Set([...snapshot.deliveredHere, change.item.clientId])
        : snapshot.deliveredHere;
    snapshot = { items: applyOutboxChange(snapshot.items, change), deliveredHere };
    emit();
  },
  clear(): void {
    snapshot = { items: new Map(), deliveredHere: new Set() };
    emit();
  },
  waitingCount: (): number => [...snapshot.items.values()].filter(isWaiting).length,
  unsentCount: (): number => [...snapshot.items.values()].filter(isUnsent).length,
};
