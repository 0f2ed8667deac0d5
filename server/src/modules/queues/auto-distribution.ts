import type { Queryable } from '../../core/tenant-catalog';

/** Spec section 4: chatbot (and channel) auto-distribution is none, random or balanced. */
export type AutoDistributionMode = 'none' | 'random' | 'balanced';

/**
 * The user a ticket routed to a queue goes to, or null (mode none, or nobody in the queue).
 * Candidates: the tenant's users whose `queues` list holds the queue.
 *
 * - random: any candidate, uniformly.
 * - balanced: the candidate with the fewest open tickets (ties: the lowest id). Concurrent
 *   arrivals would all count the same numbers and pick the same user, so the pick takes a
 *   transaction-scoped advisory lock per queue first: the picks of one queue run one after the
 *   other, and each counts the assignments the ones before it committed. The lock is held until
 *   the caller's transaction ends, so call this right before writing the assignment, in the
 *   same transaction, and commit soon.
 *
 * Used by the chatbot's queue routing (chatflow engine) and meant for the channel's
 * `autoDistribution` setting too.
 */
export async function pickQueueUser(
  tx: Queryable,
  tenantId: number,
  queueId: number,
  mode: AutoDistributionMode,
  random: () => number = Math.random,
): Promise<number | null> {
  if (mode === 'none') return null;
  if (mode === 'random') {
    const rows = (await tx.query(
      `SELECT id FROM users WHERE "tenantId" = $1 AND queues @> jsonb_build_array($2::int) ORDER BY id`,
      [tenantId, queueId],
    )) as { id: number }[];
    if (rows.length === 0) return null;
    return rows[Math.min(rows.length - 1, Math.floor(random() * rows.length))].id;
  }
  // Namespace 0x51 ('Q') keeps these keys apart from other advisory locks of the schema.
  await tx.query(`SELECT pg_advisory_xact_lock(81, $1::int)`, [queueId]);
  const rows = (await tx.query(
    `SELECT u.id,
            (SELECT count(*) FROM tickets t WHERE t."tenantId" = u."tenantId" AND t."userId" = u.id AND t.status = 'open')::int AS open
       FROM users u
      WHERE u."tenantId" = $1 AND u.queues @> jsonb_build_array($2::int)
      ORDER BY open, u.id
      LIMIT 1`,
    [tenantId, queueId],
  )) as { id: number; open: number }[];
  return rows[0]?.id ?? null;
}
