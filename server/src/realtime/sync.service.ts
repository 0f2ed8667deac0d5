import type { DataSource } from 'typeorm';
import type { SyncResponse } from '@shared/events';
import type { AuthContext } from '../core/auth-context';
import type { DomainEvent } from '../db/entities';
import type { TicketViewer } from '../modules/tickets/ticket-visibility.policy';
import { deliveryFor } from './audience';
import { toEnvelope } from './domain-events';

/**
 * Replay for a client that missed events (LESSONS 3). The tenant comes only from the caller's
 * session, never from the request. A tenant's seqs have no holes (the seq is taken in the
 * event's own transaction), so `lastSeq - since` is exactly the number of events missed and a
 * first retained seq above `since + 1` means some were pruned: both are known before reading
 * any event, and the read is one range scan of the unique ("tenantId", seq) index.
 *
 * Ticket events follow the same rule as the socket fan-out (deliveryFor): the caller's facts
 * (queues, visibility settings) are loaded once, and only when the range holds a ticket event.
 */
export async function readEventsSince(
  dataSource: DataSource,
  auth: AuthContext,
  since: number,
  maxEvents: number,
  loadViewer: (auth: AuthContext) => Promise<TicketViewer>,
): Promise<SyncResponse> {
  const [head] = (await dataSource.query(
    `SELECT t."eventSeq" AS "lastSeq",
            (SELECT min(e.seq) FROM domain_events e WHERE e."tenantId" = t.id) AS "oldestSeq"
       FROM tenants t WHERE t.id = $1`,
    [auth.tenantId],
  )) as { lastSeq: string; oldestSeq: string | null }[];
  const lastSeq = Number(head?.lastSeq ?? 0);
  const reload: SyncResponse = { events: [], lastSeq, reload: true };
  if (since > lastSeq) return reload; // a cursor from another database or a reset tenant
  if (since === lastSeq) return { events: [], lastSeq, reload: false };
  if (lastSeq - since > maxEvents) return reload;
  if (head.oldestSeq === null || Number(head.oldestSeq) > since + 1) return reload;

  // Bounded by lastSeq so the answer is a consistent cut: the client continues from lastSeq.
  const rows = (await dataSource.query(
    `SELECT id, "tenantId", seq, name, payload, audience, "createdAt"
       FROM domain_events
      WHERE "tenantId" = $1 AND seq > $2 AND seq <= $3
      ORDER BY seq`,
    [auth.tenantId, since, lastSeq],
  )) as DomainEvent[];
  const viewer = rows.some((e) => e.audience.scope === 'ticket') ? await loadViewer(auth) : undefined;
  const recipient = { ...auth, viewer };
  const events = rows.flatMap((e) => {
    const delivery = deliveryFor(recipient, e);
    return delivery ? [{ ...toEnvelope(e), name: delivery.name, payload: delivery.payload }] : [];
  });
  return { events, lastSeq, reload: false };
}
