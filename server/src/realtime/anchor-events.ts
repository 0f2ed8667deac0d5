import { SOCKET_EVENTS } from '@shared/events';
import type { ChannelEventPayload } from '@shared/schemas/channels';
import type { ContactEventPayload } from '@shared/schemas/contacts';
import type { MessageDto, MessageEventPayload } from '@shared/schemas/messages';
import type { TicketDto, TicketEventPayload } from '@shared/schemas/tickets';
import type { EventAudience, TicketAudienceFacts } from '../db/entities';

/**
 * The anchor (Izing) web client's socket events, translated from ours. Its client listens to
 * `<tenantId>:<name>` with these names and shapes (read from its listeners):
 *
 * - `ticketList` `{type, payload}`: `ticket:update` (payload: the ticket; the anchor uses it for
 *   created tickets too), `notification:new` (payload: a ticket that just became pending),
 *   `chat:create` (payload: the message with its `ticket`), `chat:ack` (payload: a changed
 *   message with `ticket.id`; the anchor replaces the message it shows), `chat:delete`.
 * - `contactList` `{type: 'contact:update' | 'contact:delete', payload: contact}`.
 * - `whatsapp` `{action: 'update', whatsapp}` / `{action: 'delete', whatsappId}`.
 * - `whatsappSession` `{action: 'update', session}`: already our own name and shape; plus
 *   `{action: 'readySession', session}` when a session has just connected (its "ready" notice).
 *
 * Only what a recipient was delivered is translated (the hub calls this after the audience
 * rule), so the anchor events reach exactly the sockets our events reach.
 */
export const ANCHOR_EVENTS = {
  ticketList: 'ticketList',
  contactList: 'contactList',
  whatsapp: 'whatsapp',
  whatsappSession: 'whatsappSession',
} as const;

export interface AnchorEmit {
  /** Without the `<tenantId>:` prefix, which the hub adds. */
  name: (typeof ANCHOR_EVENTS)[keyof typeof ANCHOR_EVENTS];
  payload: unknown;
}

/** What the anchor reads of a message's ticket when only the audience facts are at hand. */
export type AnchorTicketStub = Pick<TicketDto, 'id' | 'contactId' | 'queueId' | 'userId' | 'status' | 'isGroup'>;

export type AnchorMessage = MessageDto & { ticket: TicketDto | AnchorTicketStub };

/** Events whose anchor payload needs the whole ticket (the anchor notifies with the contact's name and picture). */
export function needsTicket(name: string): boolean {
  return name === SOCKET_EVENTS.messageCreate;
}

export function anchorEventsFor(
  event: { name: string; payload: unknown; audience: EventAudience },
  ticket: TicketDto | null = null,
): AnchorEmit[] {
  switch (event.name) {
    case SOCKET_EVENTS.ticketCreate:
    case SOCKET_EVENTS.ticketUpdate: {
      const after = (event.payload as Partial<TicketEventPayload> | null)?.ticket;
      if (!after) return [];
      const emits: AnchorEmit[] = [{ name: ANCHOR_EVENTS.ticketList, payload: { type: 'ticket:update', payload: after } }];
      if (becamePending(event.name, after, event.audience)) {
        emits.push({ name: ANCHOR_EVENTS.ticketList, payload: { type: 'notification:new', payload: after } });
      }
      return emits;
    }
    case SOCKET_EVENTS.messageCreate:
    case SOCKET_EVENTS.messageUpdate:
    case SOCKET_EVENTS.messageAck:
    case SOCKET_EVENTS.messageDelete: {
      const message = (event.payload as Partial<MessageEventPayload> | null)?.message;
      if (!message) return [];
      const type =
        event.name === SOCKET_EVENTS.messageCreate
          ? 'chat:create'
          : event.name === SOCKET_EVENTS.messageDelete
            ? 'chat:delete'
            : 'chat:ack';
      const facts = event.audience.scope === 'ticket' ? event.audience.ticket : null;
      const payload: AnchorMessage = { ...message, ticket: ticket ?? stubOf(message.ticketId, facts) };
      return [{ name: ANCHOR_EVENTS.ticketList, payload: { type, payload } }];
    }
    case SOCKET_EVENTS.contactUpdate: {
      const p = (event.payload ?? {}) as ContactEventPayload;
      if ((p.action === 'create' || p.action === 'update') && p.contact) {
        return [{ name: ANCHOR_EVENTS.contactList, payload: { type: 'contact:update', payload: p.contact } }];
      }
      if (p.action === 'delete') {
        return [{ name: ANCHOR_EVENTS.contactList, payload: { type: 'contact:delete', payload: { id: p.contactId } } }];
      }
      // A bulk change (import, duplicate merge) has no anchor event: its client refetches on navigation.
      return [];
    }
    case SOCKET_EVENTS.whatsappUpdate: {
      const p = (event.payload ?? {}) as Partial<Extract<ChannelEventPayload, { whatsapp: unknown }>>;
      if (!p.whatsapp) return [];
      return [{ name: ANCHOR_EVENTS.whatsapp, payload: { action: 'update', whatsapp: p.whatsapp } }];
    }
    case SOCKET_EVENTS.whatsappDelete: {
      const p = (event.payload ?? {}) as Partial<Extract<ChannelEventPayload, { action: 'delete' }>>;
      if (typeof p.id !== 'number') return [];
      return [{ name: ANCHOR_EVENTS.whatsapp, payload: { action: 'delete', whatsappId: p.id } }];
    }
    case SOCKET_EVENTS.whatsappSession: {
      // Sessions are announced on transitions only, so CONNECTED here means "just connected".
      const p = (event.payload ?? {}) as { session?: { status?: string } };
      if (p.session?.status !== 'CONNECTED') return [];
      return [{ name: ANCHOR_EVENTS.whatsappSession, payload: { action: 'readySession', session: p.session } }];
    }
    default:
      return [];
  }
}

/** A new pending ticket, or one moved to pending (a transfer to a queue): the anchor's "new client waiting". */
function becamePending(name: string, ticket: TicketDto, audience: EventAudience): boolean {
  if (ticket.status !== 'pending') return false;
  if (name === SOCKET_EVENTS.ticketCreate) return true;
  return audience.scope === 'ticket' && audience.previous !== undefined && audience.previous.status !== 'pending';
}

function stubOf(ticketId: number, facts: TicketAudienceFacts | null): AnchorTicketStub {
  return {
    id: ticketId,
    contactId: facts?.contactId ?? 0,
    queueId: facts?.queueId ?? null,
    userId: facts?.userId ?? null,
    status: (facts?.status ?? 'open') as TicketDto['status'],
    isGroup: facts?.isGroup ?? false,
  };
}
