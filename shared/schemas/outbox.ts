import { z } from 'zod';
import { clientIdSchema, MESSAGE_BODY_MAX, ReactionMessageSchema } from './messages';
import { TICKET_STATUSES } from './tickets';

/**
 * The desktop outbox's entries (issue #15): the agent's actions taken while offline, in the
 * shapes the renderer hands over the preload bridge. The renderer checks them with these schemas
 * before queueing and the main process checks them again at the door: a row that cannot be
 * replayed must not wait in the queue until the connection comes back to fail.
 */

export const OUTBOX_KINDS = ['message', 'reaction', 'ticketStatus'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export const OUTBOX_STATES = ['queued', 'sending', 'done', 'conflict', 'failed'] as const;
/**
 * queued: waits for its turn (or its backoff); sending: a request is out; done: the server has
 * it; conflict: the server refused it because the ticket changed meanwhile (closed, deleted,
 * transferred); failed: refused for what it is. conflict and failed stay until the agent acts.
 */
export type OutboxState = (typeof OUTBOX_STATES)[number];

const recordId = z.number().int().positive();

/** POST /messages/{ticketId}: a text (a private note with isPrivate), optionally quoting a message. */
const MessagePayloadSchema = z.strictObject({
  body: z
    .string()
    .max(MESSAGE_BODY_MAX)
    .refine((v) => v.trim().length > 0, { error: 'Mensagem é obrigatório' }),
  quotedMsgId: recordId.nullable().optional(),
  isPrivate: z.boolean().optional(),
});

/** POST /messages/reactionMessage: one emoji per message; '' removes the agent's reaction. */
const ReactionPayloadSchema = z.strictObject({ messageId: recordId, emoji: ReactionMessageSchema.shape.emoji });

/**
 * PUT /tickets/{id} with a status: accept or reopen (open, by default for the caller), return to
 * the queue (pending), resolve (closed, with the close dialog's two choices). `userId` assigns
 * an open ticket to someone else.
 */
const TicketStatusPayloadSchema = z
  .strictObject({
    status: z.enum(['open', 'pending', 'closed']),
    userId: recordId.optional(),
    sendFarewellMessage: z.boolean().optional(),
    requestRating: z.boolean().optional(),
  })
  .refine((v) => v.status === 'closed' || (v.sendFarewellMessage === undefined && v.requestRating === undefined), {
    error: "sendFarewellMessage e requestRating valem só com status 'closed'",
  })
  .refine((v) => v.status === 'open' || v.userId === undefined, { error: "userId vale só com status 'open'" });

/**
 * The ticket as the agent saw it when acting (from the cache). Before replaying, the outbox
 * compares it with the server's ticket: one transferred or closed meanwhile is a conflict, not
 * a reply landing in a colleague's conversation. Only the fields given are compared.
 */
const ExpectedTicketSchema = z.strictObject({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: recordId.nullable().optional(),
  queueId: recordId.nullable().optional(),
});

/**
 * `clientId`: a send the console already tried online carries its client id into the outbox, so
 * a request the server stored before the connection dropped is found by its id on replay (stored
 * once), not sent again under a new one. Absent, the outbox makes one.
 */
const common = { ticketId: recordId, expected: ExpectedTicketSchema.optional(), clientId: clientIdSchema.optional() };

export const OutboxEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), payload: MessagePayloadSchema, ...common }),
  z.strictObject({ kind: z.literal('reaction'), payload: ReactionPayloadSchema, ...common }),
  z.strictObject({ kind: z.literal('ticketStatus'), payload: TicketStatusPayloadSchema, ...common }),
]);

export type OutboxEntry = z.output<typeof OutboxEntrySchema>;
export type MessagePayload = z.output<typeof MessagePayloadSchema>;
export type ReactionPayload = z.output<typeof ReactionPayloadSchema>;
export type TicketStatusPayload = z.output<typeof TicketStatusPayloadSchema>;
export type ExpectedTicket = z.output<typeof ExpectedTicketSchema>;

/** Why the server (or the network) did not take an item, as the agent is shown it. */
export interface OutboxError {
  /** The server's `error` code (ERR_NO_TICKET_FOUND, ...) or the outbox's own (ERR_OUTBOX_*). */
  code: string;
  message: string;
  /** The HTTP status; null when no answer came. */
  status: number | null;
}

/** One row of the outbox as list() and the listeners see it. */
export type OutboxItem = OutboxEntry & {
  clientId: string;
  /** Replay order: FIFO across the whole outbox. */
  seq: number;
  createdAt: number;
  attempts: number;
  state: OutboxState;
  /** Epoch ms before which a transient failure is not retried; 0: now. */
  nextAttemptAt: number;
  lastError: OutboxError | null;
  /** What the server answered when done: the stored messages' ids for a send. */
  result: OutboxResult | null;
};

export interface OutboxResult {
  messageIds?: number[];
  /** The server already was in the wanted state (a replayed status change, a lost answer). */
  alreadyApplied?: boolean;
}
