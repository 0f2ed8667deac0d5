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
