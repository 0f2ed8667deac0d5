import { INTERNAL_CHAT_ERRORS, type ChatKind } from '@shared/schemas/internal-chat';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { Queryable } from '../../core/tenant-catalog';

/**
 * Who may use which conversation (one rule for every route, the media, the socket relay and the
 * events' audience; any profile, since the chat is for the whole team):
 * - a one-to-one `{kind: 'user', id}` exists for the caller when `id` is another user of the
 *   caller's tenant (not the caller: ERR_CHAT_SELF); a user of another tenant is not found;
 * - a team room `{kind: 'team', id}` exists for the caller when the team is of the caller's
 *   tenant, active, and the caller is one of its members NOW (membership changes apply at once:
 *   a removed member reads, writes and receives nothing more; an added one sees the history);
 * - not found is ERR_CHAT_CONVERSATION_NOT_FOUND (404) whatever the reason, so ids of other
 *   tenants and rooms of others leak nothing;
 * - a message is edited or deleted by its author only (ERR_CHAT_NOT_OWN_MESSAGE, 403), while they
 *   are still in its conversation; a deleted one cannot be edited (ERR_CHAT_MESSAGE_DELETED).
 * Events go to `Conversation.userIds` (both users; the team's current members).
 */

/** How a conversation's messages are found in chat_messages (the indexes of the migration). */
export type ConversationKey = { kind: 'user'; low: number; high: number } | { kind: 'team'; teamId: number };

export interface Conversation {
  kind: ChatKind;
  /** As the caller names it: the other user, or the team. */
  id: number;
  tenantId: number;
  /** The other user's name, or the team's. */
  name: string;
  /** Every user of the conversation, the caller included: the audience of its events. */
  users: { id: number; name: string }[];
  key: ConversationKey;
  /** A new chat_messages id, when asked for (a send takes it with this read). */
  nextMessageId?: number;
}

/** A new message id in the same statement as the conversation's read (an InitPlan: evaluated once). */
const NEXT_ID = `(SELECT nextval('chat_messages_id_seq'))::int AS "nextId"`;

export const chatError = (which: keyof typeof INTERNAL_CHAT_ERRORS, message?: string): AppError => {
  const def = INTERNAL_CHAT_ERRORS[which];
  return new AppError(def.code, { message: message ?? def.message });
};

export const userIdsOf = (conversation: Conversation): number[] => conversation.users.map((u) => u.id);

export const keyOf = (kind: ChatKind, callerId: number, id: number): ConversationKey =>
  kind === 'team' ? { kind, teamId: id } : { kind, low: Math.min(callerId, id), high: Math.max(callerId, id) };

/**
 * The SQL condition selecting one conversation's messages (alias `m`), with parameters numbered
 * from `first`. Written on the partial indexes' own columns and predicate only.
 */
export function conversationCondition(key: ConversationKey, first: number, alias = 'm'): { sql: string; params: number[] } {
  if (key.kind === 'team') return { sql: `${alias}.kind = 'team' AND ${alias}."toId" = $${first}`, params: [key.teamId] };
  return {
    sql: `${alias}.kind = 'user' AND ${alias}."userLow" = $${first} AND ${alias}."userHigh" = $${first + 1}`,
    params: [key.low, key.high],
  };
}

/** The caller's conversation `{kind, id}`, or ERR_CHAT_CONVERSATION_NOT_FOUND / ERR_CHAT_SELF. */
export async function loadConversation(
  db: Queryable,
  auth: AuthContext,
  kind: ChatKind,
  id: number,
  opts: { allocateMessageId?: boolean } = {},
): Promise<Conversation> {
  const nextId = opts.allocateMessageId ? `, ${NEXT_ID}` : '';
  if (kind === 'user') {
    if (id === auth.userId) throw chatError('selfConversation');
    const rows = (await db.query(`SELECT id, name${nextId} FROM users WHERE id = ANY($1::int[]) AND "tenantId" = $2`, [
      [auth.userId, id],
      auth.tenantId,
    ])) as { id: number; name: string; nextId?: number }[];
    const other = rows.find((u) => u.id === id);
    if (!other || !rows.some((u) => u.id === auth.userId)) throw chatError('conversationNotFound');
    const users = rows.map((u) => ({ id: u.id, name: u.name }));
    return {
      kind,
      id,
      tenantId: auth.tenantId,
      name: other.name,
      users,
      key: keyOf(kind, auth.userId, id),
      nextMessageId: other.nextId,
    };
  }
  const [team] = (await db.query(
    `SELECT t.name, coalesce(array_agg(u.id ORDER BY u.id) FILTER (WHERE u.id IS NOT NULL), '{}') AS ids,
            coalesce(array_agg(u.name ORDER BY u.id) FILTER (WHERE u.id IS NOT NULL), '{}') AS names${nextId}
       FROM teams t
       LEFT JOIN team_users tu ON tu."teamId" = t.id
       LEFT JOIN users u ON u.id = tu."userId" AND u."tenantId" = t."tenantId"
      WHERE t.id = $1 AND t."tenantId" = $2 AND t.active
      GROUP BY t.id`,
    [id, auth.tenantId],
  )) as { name: string; ids: number[]; names: string[]; nextId?: number }[];
  if (!team || !team.ids.includes(auth.userId)) throw chatError('conversationNotFound');
  return {
    kind,
    id,
    tenantId: auth.tenantId,
    name: team.name,
    users: team.ids.map((uid, i) => ({ id: uid, name: team.names[i] })),
    key: { kind, teamId: id },
    nextMessageId: team.nextId,
  };
}

/** Edit and delete: the author only. */
export function authorizeOwnMessage(auth: AuthContext, message: { fromUserId: number | null }): void {
  if (message.fromUserId !== auth.userId) throw chatError('notOwnMessage');
}
