import type { EntityManager } from 'typeorm';
import type { ChannelType, InboundMessage } from '../../../channels/channel-adapter';

/**
 * Hook points of the inbound pipeline: what runs after an inbound message is stored (rating
 * replies, business hours, chatbot, AI ...).
 *
 * - A hook receives the stored message with its ticket and contact, after the commit: it can
 *   never lose or duplicate the message, and its own writes are its own transactions
 *   (`deps.events.transaction`).
 * - Hooks run in `order` (ascending; ties in registration order), one message at a time per
 *   ticket, in the background: the webhook has already been answered.
 * - Answering 'handled' stops the chain for this message (a rating reply is not also a chatbot
 *   input). A hook that throws is logged and the chain goes on.
 * - Not called for duplicates, reactions or delivery statuses.
 */
export interface InboundEvent {
  tenantId: number;
  channel: { id: number; type: ChannelType; queueId: number | null };
  /** The normalised message as the adapter gave it. */
  inbound: InboundMessage;
  /** messages.id of the stored message. */
  messageId: number;
  ticket: {
    id: number;
    status: string;
    queueId: number | null;
    userId: number | null;
    botActive: boolean;
    chatFlowId: number | null;
    isGroup: boolean;
    /** The ticket waits for the customer's rating (a rating request was sent). */
    ratingRequested: boolean;
    /** The ticket was created for this very message. */
    created: boolean;
    /**
     * A new ticket an opening hook already put into its queue (a campaign answer): the channel
     * rules give it the queue entry (distribution, greeting) even on a channel with a chatflow,
     * and the bots (chatflow, keyword bot) do not start on it.
     */
    routed?: boolean;
  };
  contact: { id: number; name: string; number: string | null; created: boolean };
}

export type InboundHook = (event: InboundEvent) => Promise<void | 'handled'>;

export interface InboundHookRegistration {
  /** Unique name; registering the same name again replaces the hook (idempotent app wiring). */
  name: string;
  /** Rating 100, channel rules 150, business hours 200, auto-reply 250, chatflow 300, AI 400. */
  order: number;
  run: InboundHook;
}

export class InboundHooks {
  private hooks: InboundHookRegistration[] = [];

  use(hook: InboundHookRegistration): void {
    const existing = this.hooks.findIndex((h) => h.name === hook.name);
    if (existing >= 0) this.hooks[existing] = hook;
    else this.hooks.push(hook);
    // Array.prototype.sort is stable: equal orders keep registration order.
    this.hooks.sort((a, b) => a.order - b.order);
  }

  remove(name: string): void {
    this.hooks = this.hooks.filter((h) => h.name !== name);
  }

  list(): readonly InboundHookRegistration[] {
    return this.hooks;
  }
}

/** A ticket the inbound pipeline creates in the current batch, as an opening hook sees it. */
export interface OpeningTicket {
  tenantId: number;
  ticketId: number;
  contactId: number;
  channelId: number;
  /** The queue it was created in (the channel's). */
  queueId: number | null;
}

/** What an opening hook does to a new ticket. */
export interface TicketOpening {
  ticketId: number;
  /** The queue the ticket opens in instead of the channel's (the pipeline writes it, with its 'opened' facts). */
  queueId?: number;
  /**
   * Messages the hook stored in the ticket, before the customer's first one (they get lower ids):
   * the pipeline announces them (appMessage:create) with the batch, before the customer's.
   */
  messageIds: number[];
}

/**
 * Opening hooks run INSIDE the batch's transaction, for the tickets it creates (not groups),
 * after the tickets are written and before the customer's messages are: what they write commits
 * with the message or not at all, and is seen by the ticket:create event. Keep them to a few
 * indexed statements for the whole batch: they are on the inbound hot path, though only for new
 * tickets. A ticket of the batch whose messages all turn out to be duplicates is deleted with what
 * the hooks wrote into it.
 */
export interface TicketOpeningHook {
  /** Unique name; registering the same name again replaces the hook. */
  name: string;
  run(tx: EntityManager, tickets: readonly OpeningTicket[]): Promise<TicketOpening[]>;
}
