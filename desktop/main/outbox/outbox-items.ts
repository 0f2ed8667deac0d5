import { randomUUID } from 'node:crypto';
import { clientIdSchema } from '@shared/schemas/messages';
import { OutboxEntrySchema, type OutboxEntry } from '@shared/schemas/outbox';

/** Validation at the door of the outbox (schemas in shared/schemas/outbox.ts) and its client ids. */

export {
  OUTBOX_KINDS,
  OUTBOX_STATES,
  OutboxEntrySchema,
  type ExpectedTicket,
  type MessagePayload,
  type OutboxEntry,
  type OutboxError,
  type OutboxItem,
  type OutboxKind,
  type OutboxResult,
  type OutboxState,
  type ReactionPayload,
  type TicketStatusPayload,
} from '@shared/schemas/outbox';

export class OutboxEntryError extends Error {
  readonly code = 'ERR_OUTBOX_INVALID_ENTRY';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid outbox entry: ${issues.map((i) => `${i.path || '(entry)'}: ${i.message}`).join('; ')}`);
    this.name = 'OutboxEntryError';
  }
}

export function parseOutboxEntry(input: unknown): OutboxEntry {
  const parsed = OutboxEntrySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new OutboxEntryError(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
}

/**
 * A new client id: the prefix tells support an id came from a desktop outbox; the UUID makes it
 * unique per tenant (the server's key is (tenant, clientId)). Checked against the server's own
 * schema so a change there cannot make every replay a 400.
 */
export function newClientId(): string {
  return clientIdSchema.parse(`dsk:${randomUUID()}`);
}
