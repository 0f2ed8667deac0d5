import type { SendMessageResponse } from '@shared/schemas/messages';
import type { TicketDto } from '@shared/schemas/tickets';
import type { HttpOutcome, OutboxHttp } from './outbox-http';
import type { ExpectedTicket, OutboxError, OutboxItem, OutboxResult, TicketStatusPayload } from './outbox-items';

/**
 * One outbox item against the server: the checks before it (has the ticket changed since the
 * agent acted? is a status change already done?) and its request. Each replay must be safe to
 * repeat, because an answer can be lost after the server applied it:
 * - a send carries its client id; the server stores it once and answers the stored message;
 * - a reaction replaces the agent's reaction on the message (the server keeps one per message);
 * - a status change is looked up first: already as wanted is done, and the server treats a
 *   repeated transition as a no-op anyway.
 */

export type Attempt =
  | { kind: 'done'; result: OutboxResult }
  | { kind: 'conflict' | 'failed'; error: OutboxError }
  | { kind: 'transient'; error: OutboxError; retryAfterMs: number | null }
  /** The whole pass stops: no connection, no session, or the server asks to slow down. */
  | { kind: 'stop'; reason: 'offline' | 'unauthenticated' | 'rateLimited'; error: OutboxError; retryAfterMs: number | null };

/** Field paths of a 400 that name what the agent typed, not the ticket's state: retrying cannot help. */
const PAYLOAD_FIELDS = new Set(['body', 'emoji']);

/** Every answer other than 2xx, as the replay acts on it. */
function notOk(outcome: Exclude<HttpOutcome, { kind: 'ok' }>): Attempt {
  switch (outcome.kind) {
    case 'refused': {
      const ownFault =
        outcome.error.code === 'ERR_VALIDATION' &&
        outcome.fields.length > 0 &&
        outcome.fields.every((f) => PAYLOAD_FIELDS.has(f.path));
      // The server's message names the field (ERR_VALIDATION's own text is generic).
      const detail = outcome.fields.map((f) => `${f.path}: ${f.message}`).join('; ');
      const error = detail ? { ...outcome.error, message: `${outcome.error.message} (${detail})` } : outcome.error;
      return { kind: ownFault ? 'failed' : 'conflict', error };
    }
    case 'transient':
      return { kind: 'transient', error: outcome.error, retryAfterMs: outcome.retryAfterMs };
    case 'rateLimited':
      return { kind: 'stop', reason: 'rateLimited', error: outcome.error, retryAfterMs: outcome.retryAfterMs };
    case 'offline':
    case 'unauthenticated':
      return { kind: 'stop', reason: outcome.kind, error: outcome.error, retryAfterMs: null };
  }
}

/** The fields of `expected` the server's ticket no longer has, described for the agent. */
export function ticketChanges(ticket: TicketDto, expected: ExpectedTicket): string[] {
  const changes: string[] = [];
  if (expected.status !== undefined && ticket.status !== expected.status)
    changes.push(`status ${ticket.status} (era ${expected.status})`);
  if (expected.userId !== undefined && ticket.userId !== expected.userId) {
    changes.push(`atendente ${ticket.user?.name ?? ticket.userId ?? 'nenhum'} (era ${expected.userId ?? 'nenhum'})`);
  }
  if (expected.queueId !== undefined && ticket.queueId !== expected.queueId) {
    changes.push(`fila ${ticket.queue?.name ?? ticket.queueId ?? 'nenhuma'} (era ${expected.queueId ?? 'nenhuma'})`);
  }
  return changes;
}

/** Whether the server's ticket already is what the status change asks for. */
export function statusReached(ticket: TicketDto, change: TicketStatusPayload, callerId: number): boolean {
  if (change.status === 'open') return ticket.status === 'open' && ticket.userId === (change.userId ?? callerId);
  if (change.status === 'pending') return ticket.status === 'pending' && ticket.userId === null;
  return ticket.status === 'closed';
}

/**
 * The ticket check before the request. The expected state is compared on the first attempt only
 * for sends and reactions: a later attempt may follow one the server applied (answer lost), and
 * their own replay is safe; a status change is compared after looking whether it is done.
 */
async function checkTicket(http: OutboxHttp, item: OutboxItem, callerId: number): Promise<Attempt | null> {
  const needsTicket = item.kind === 'ticketStatus' || (item.expected !== undefined && item.attempts <= 1);
  if (!needsTicket) return null;
  const answer = await http.request('GET', `/tickets/${item.ticketId}`);
  if (answer.kind !== 'ok') return notOk(answer);
  const ticket = answer.body as TicketDto;
  if (item.kind === 'ticketStatus' && statusReached(ticket, item.payload, callerId)) {
    return { kind: 'done', result: { alreadyApplied: true } };
  }
  const changes = item.expected ? ticketChanges(ticket, item.expected) : [];
  if (changes.length === 0) return null;
  return {
    kind: 'conflict',
    error: {
      code: 'ERR_OUTBOX_TICKET_CHANGED',
      message: `O atendimento mudou enquanto você estava offline: ${changes.join(', ')}.`,
      status: null,
    },
  };
}

/** The request of the item itself. */
async function send(http: OutboxHttp, item: OutboxItem): Promise<Attempt> {
  switch (item.kind) {
    case 'message': {
      const answer = await http.request('POST', `/messages/${item.ticketId}`, { ...item.payload, clientId: item.clientId });
      if (answer.kind !== 'ok') return notOk(answer);
      const body = answer.body as SendMessageResponse;
      return { kind: 'done', result: { messageIds: body.messages.map((m) => m.id), alreadyApplied: answer.status === 200 } };
    }
    case 'reaction': {
      const answer = await http.request('POST', '/messages/reactionMessage', item.payload);
      return answer.kind === 'ok' ? { kind: 'done', result: {} } : notOk(answer);
    }
    case 'ticketStatus': {
      const answer = await http.request('PUT', `/tickets/${item.ticketId}`, item.payload);
      return answer.kind === 'ok' ? { kind: 'done', result: {} } : notOk(answer);
    }
  }
}

export async function replayItem(http: OutboxHttp, item: OutboxItem, callerId: number): Promise<Attempt> {
  return (await checkTicket(http, item, callerId)) ?? send(http, item);
}
