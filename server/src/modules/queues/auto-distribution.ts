import type { Queryable } from '../../core/tenant-catalog';

export type AutoDistributionMode = 'random' | 'balanced';

/** First key of the advisory lock that serialises the picks of one queue. */
const DISTRIBUTION_LOCK_KEY = 0x51554555; // "QUEU"

/**
 * Picks the user a new ticket of a queue goes to (spec section 4, chatbot auto-distribution):
 * one of the tenant's users who has the queue in their list, at random or, balanced, the one
 * with the fewest open tickets (ties: the lowest id, so a burst spreads evenly). Answers null
 * when the queue has no user.
 *
 * Race-free: a transaction-scoped advisory lock per queue makes concurrent picks of one queue
 * take turns, and each pick sees the tickets the previous one assigned once it committed. The
 * caller assigns the ticket in the same transaction `tx`, so the lock is held until then.
 */
export async function pickQueueUser(
  tx: Queryable,
  opts: { tenantId: number; queueId: number; mode: AutoDistributionMode },
): Promise<number | null> {
  await tx.query(`SELECT pg_advisory_xact_lock($1::int, $2::int)`, [DISTRIBUTION_LOCK_KEY, opts.queueId]);
  const order = opts.mode === 'balanced' ? `open, u.id` : `random()`;
  const rows = (await tx.query(
    `SELECT u.id,
            (SELECT count(*) FROM tickets t
              WHERE t."tenantId" = u."tenantId" AND t."userId" = u.id AND t.status = 'open')::int AS open
       FROM users u
      WHERE u."tenantId" = $1
        AND (u.queues @> jsonb_build_array($2::int) OR u.queues @> jsonb_build_array($2::text))
      ORDER BY ${order}
      LIMIT 1`,
    [opts.tenantId, opts.queueId],
  )) as { id: number }[];
  return rows[0]?.id ?? null;
}
