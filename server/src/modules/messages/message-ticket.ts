import type { Profile } from '@shared/profiles';
import type { EventAudience } from '../../db/entities';
import type { Queryable } from '../../core/tenant-catalog';

/** What the messages module needs of a ticket: visibility facts, channel and variables. */
export interface MessageTicket {
  id: number;
  tenantId: number;
  contactId: number;
  queueId: number | null;
  userId: number | null;
  status: string;
  isGroup: boolean;
  botActive: boolean;
  whatsappId: number | null;
  protocol: string | null;
  unreadMessages: number;
  kanbanId: number | null;
  walletUserIds: number[];
}

export const MESSAGE_TICKET_COLUMNS = `t.id, t."tenantId", t."contactId", t."queueId", t."userId", t.status, t."isGroup", t."botActive",
  t."whatsappId", t.protocol, t."unreadMessages", t."kanbanId",
  COALESCE((SELECT array_agg(w."userId" ORDER BY w."userId") FROM contact_wallets w WHERE w."contactId" = t."contactId"), '{}') AS "walletUserIds"`;

/**
 * Loads a ticket by id whatever its tenant (the policy answers another tenant's ticket as not
 * found). `lock` takes the ticket row lock for a write that must not race with another one on the
 * same ticket.
 */
export async function loadTicket(db: Queryable, ticketId: number, opts: { lock?: boolean } = {}): Promise<MessageTicket | null> {
  const rows: MessageTicket[] = await db.query(
    `SELECT ${MESSAGE_TICKET_COLUMNS} FROM tickets t WHERE t.id = $1 ${opts.lock ? 'FOR UPDATE OF t' : ''}`,
    [ticketId],
  );
  return rows[0] ? { ...rows[0], walletUserIds: rows[0].walletUserIds.map(Number) } : null;
}

/** The caller's user row as ticket visibility reads it (buildViewer). */
export interface CallerRow {
  profile: Profile;
  email: string;
  queues: unknown;
}

/**
 * The ticket and the caller's user row in one statement: every message route starts with both,
 * and one round trip instead of two is most of a thread page's cost besides the page itself.
 */
export async function loadTicketWithCaller(
  db: Queryable,
  ticketId: number,
  caller: { userId: number; tenantId: number },
): Promise<{ ticket: MessageTicket | null; caller: CallerRow | null }> {
  const rows: (MessageTicket & { callerProfile: Profile | null; callerEmail: string | null; callerQueues: unknown })[] =
    await db.query(
      `SELECT ${MESSAGE_TICKET_COLUMNS}, u.profile AS "callerProfile", u.email AS "callerEmail", u.queues AS "callerQueues"
       FROM tickets t LEFT JOIN users u ON u.id = $2 AND u."tenantId" = $3
      WHERE t.id = $1`,
      [ticketId, caller.userId, caller.tenantId],
    );
  const row = rows[0];
  if (!row) return { ticket: null, caller: null };
  const { callerProfile, callerEmail, callerQueues, ...ticket } = row;
  return {
    ticket: { ...ticket, walletUserIds: ticket.walletUserIds.map(Number) },
    caller: callerProfile ? { profile: callerProfile, email: callerEmail ?? '', queues: callerQueues } : null,
  };
}

/** Message events go to whoever may see the ticket (realtime/audience.ts decides with these facts). */
export function ticketAudience(ticket: MessageTicket): EventAudience {
  return {
    scope: 'ticket',
    ticket: {
      ticketId: ticket.id,
      contactId: ticket.contactId,
      queueId: ticket.queueId,
      userId: ticket.userId,
      status: ticket.status,
      isGroup: ticket.isGroup,
      botActive: ticket.botActive,
      walletUserIds: ticket.walletUserIds,
    },
  };
}

/** Preview text of a message in the ticket list. */
export function lastMessagePreview(message: { body: string; mediaType: string; mediaName: string | null }): string {
  const text = message.body.trim();
  if (text) return text.slice(0, 255);
  return message.mediaName ?? message.mediaType;
}
