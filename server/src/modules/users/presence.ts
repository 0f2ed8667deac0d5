import { SOCKET_EVENTS } from '@shared/events';
import type { Presence } from '@shared/schemas/internal-chat';
import type { UserStatusPayload } from '@shared/schemas/users';
import type { AppDeps } from '../../deps';

/**
 * Presence (issue #18): online, away or offline, stored as `users."isOnline"` (the anchor's flag,
 * kept) and `users.away` (online, but idle on every connected app).
 *
 * Who writes it: the socket hub (server/src/realtime/presence.ts: a socket announcing itself,
 * reporting idle or active, leaving), login and logout, and PUT /usersIsOnline.
 */

/** The presence of a user row: the one rule every answer that shows presence uses. */
export function presenceOf(row: { isOnline: boolean; away?: boolean | null }): Presence {
  if (!row.isOnline) return 'offline';
  return row.away ? 'away' : 'online';
}

/** The stored columns of a presence. */
export function presenceColumns(presence: Presence): { isOnline: boolean; away: boolean } {
  return { isOnline: presence !== 'offline', away: presence === 'away' };
}

/** The `user:status` payload announcing a user's presence. */
export function userStatusOf(userId: number, presence: Presence, lastOnline?: string | null): UserStatusPayload {
  return { userId, isOnline: presence !== 'offline', presence, ...(lastOnline !== undefined ? { lastOnline } : {}) };
}

/**
 * Stores the presence `decide` answers for a user and tells the tenant (`user:status`) when it
 * changed; `lastOnline` moves every time (a repeated "I'm here" is still a sign of life).
 * `decide` runs with the user row locked: of two settlements at once, the later one decides
 * after the earlier one wrote, from the sockets as they are by then, so the stored presence is
 * always the last decision and never an older one that committed late. Answers the stored
 * presence, or null when the user is gone.
 */
export async function settlePresence(
  deps: Pick<AppDeps, 'events'>,
  user: { tenantId: number; userId: number },
  decide: (current: Presence) => Presence | Promise<Presence>,
): Promise<Presence | null> {
  return deps.events.transaction(async (tx, emit) => {
    // NO KEY UPDATE: serialises settlements without blocking writers that only reference the
    // user (a ticket or notification for them takes KEY SHARE on the row).
    const [row] = (await tx.query(`SELECT "isOnline", away FROM users WHERE id = $1 AND "tenantId" = $2 FOR NO KEY UPDATE`, [
      user.userId,
      user.tenantId,
    ])) as { isOnline: boolean; away: boolean }[];
    if (!row) return null;
    const current = presenceOf(row);
    const next = await decide(current);
    const columns = presenceColumns(next);
    await tx.query(`UPDATE users SET "isOnline" = $1, away = $2, "lastOnline" = now() WHERE id = $3`, [
      columns.isOnline,
      columns.away,
      user.userId,
    ]);
    if (next !== current) await emit(user.tenantId, SOCKET_EVENTS.userStatus, userStatusOf(user.userId, next));
    return next;
  });
}
