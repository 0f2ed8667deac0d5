import type { EntityManager } from 'typeorm';
import { recordTicketsOpened } from './ticket-metrics';

export interface ActiveTicketRow {
  id: number;
  tenantId: number;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  userId: number | null;
  status: 'open' | 'pending';
  protocol: string | null;
  isGroup: boolean;
  unreadMessages: number;
  botActive: boolean;
  lastMessageAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Finds the open-or-pending ticket of (contact, channel) or creates a pending one, in one
 * statement on the partial unique index `tickets_one_active_uq`: concurrent inbound messages of
 * one contact all land in the same ticket (the anchor's most reported bug was duplicates here).
 * Run it inside the caller's transaction. A created ticket gets its protocol and a `create` log.
 */
export async function upsertActiveTicket(
  tx: EntityManager,
  input: ActiveTicketInput,
): Promise<{ ticket: ActiveTicketRow; created: boolean }> {
  const rows: (ActiveTicketRow & { created: boolean })[] = await tx.query(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", "queueId", "userId", status, "startedAt", "isActiveDemand")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::varchar, CASE WHEN $8::varchar = 'open' THEN now() END, $9)
     ON CONFLICT ("tenantId", "contactId", (COALESCE("whatsappId", 0))) WHERE status IN ('open','pending')
     DO UPDATE SET "updatedAt" = tickets."updatedAt"
     RETURNING *, (xmax = 0) AS created`,
    [
      input.tenantId,
      input.contactId,
      input.channelId,
      input.channelType ?? null,
      input.isGroup ?? false,
      input.queueId ?? null,
      input.userId ?? null,
      input.status ?? 'pending',
      input.isActiveDemand ?? true,
    ],
  );
  const row = rows[0];
  const { created, ...ticket } = row;
  if (created) {
    const [withProtocol] = await tx.query(
      `UPDATE tickets SET protocol = to_char(now(), 'YYYYMMDD') || lpad(id::text, 8, '0') WHERE id = $1 RETURNING protocol`,
      [ticket.id],
    ).then((r: unknown) => (Array.isArray(r) && Array.isArray(r[0]) ? r[0] : r) as { protocol: string }[]);
    ticket.protocol = withProtocol?.protocol ?? null;
    await tx.query(`INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data) VALUES ($1, $2, $3, 'create', $4)`, [
      input.tenantId,
      ticket.id,
      input.actorUserId ?? null,
      JSON.stringify({ status: ticket.status, channelId: input.channelId }),
    ]);
    await recordTicketsOpened(tx, [ticket.id]);
  }
  return { ticket: ticket as ActiveTicketRow, created };
}

export interface ActiveTicketInput {
  tenantId: number;
  contactId: number;
  channelId: number | null;
  channelType?: string | null;
  isGroup?: boolean;
  queueId?: number | null;
  userId?: number | null;
  status?: 'open' | 'pending';
  actorUserId?: number | null;
  /**
   * Started by us (an agent, a schedule, a greeting) rather than by a message from the customer:
   * the anchor's "demanda ativa". upsertActiveTicket defaults to true (every caller but the
   * inbound pipeline starts tickets outbound), upsertActiveTickets (the pipeline) to false.
   */
  isActiveDemand?: boolean;
}

/**
 * upsertActiveTicket for several (contact, channel) pairs of one tenant in three statements
 * whatever their number (the inbound pipeline's batches): the same insert-or-reuse on
 * `tickets_one_active_uq`, then protocols and `create` logs of the created ones. Pairs must be
 * distinct; rows are locked in the order given, so callers that sort the same way cannot
 * deadlock each other. Answers in input order.
 */
export async function upsertActiveTickets(
  tx: EntityManager,
  inputs: readonly ActiveTicketInput[],
): Promise<{ ticket: ActiveTicketRow; created: boolean }[]> {
  if (inputs.length === 0) return [];
  const rows: (ActiveTicketRow & { created: boolean; ord: number })[] = await tx.query(
    `WITH x AS (
       SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::varchar[], $5::boolean[], $6::int[], $7::int[], $8::varchar[], $9::boolean[])
              WITH ORDINALITY AS x("tenantId", "contactId", "whatsappId", channel, "isGroup", "queueId", "userId", status, "isActiveDemand", ord)
     ), upserted AS (
       INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", "queueId", "userId", status, "startedAt", "isActiveDemand")
       SELECT "tenantId", "contactId", "whatsappId", channel, "isGroup", "queueId", "userId", status, CASE WHEN status = 'open' THEN now() END,
              "isActiveDemand"
         FROM x ORDER BY ord
       ON CONFLICT ("tenantId", "contactId", (COALESCE("whatsappId", 0))) WHERE status IN ('open','pending')
       DO UPDATE SET "updatedAt" = tickets."updatedAt"
       RETURNING *, (xmax = 0) AS created
     )
     SELECT upserted.*, x.ord::int AS ord FROM upserted
       JOIN x ON x."tenantId" = upserted."tenantId" AND x."contactId" = upserted."contactId"
            AND COALESCE(x."whatsappId", 0) = COALESCE(upserted."whatsappId", 0)
      ORDER BY x.ord`,
    [
      inputs.map((i) => i.tenantId),
      inputs.map((i) => i.contactId),
      inputs.map((i) => i.channelId),
      inputs.map((i) => i.channelType ?? null),
      inputs.map((i) => i.isGroup ?? false),
      inputs.map((i) => i.queueId ?? null),
      inputs.map((i) => i.userId ?? null),
      inputs.map((i) => i.status ?? 'pending'),
      inputs.map((i) => i.isActiveDemand ?? false),
    ],
  );
  const results = rows.map(({ created, ord: _ord, ...ticket }) => ({ ticket: ticket as ActiveTicketRow, created }));
  const created = results.filter((r) => r.created);
  if (created.length > 0) {
    const numbered: [{ id: number; protocol: string }[], number] = await tx.query(
      `UPDATE tickets SET protocol = to_char(now(), 'YYYYMMDD') || lpad(id::text, 8, '0') WHERE id = ANY($1::int[]) RETURNING id, protocol`,
      [created.map((r) => r.ticket.id)],
    );
    const protocols = new Map(numbered[0].map((r) => [r.id, r.protocol]));
    for (const r of created) r.ticket.protocol = protocols.get(r.ticket.id) ?? null;
    const byTicket = new Map(created.map((r) => [r.ticket.id, inputs[results.indexOf(r)]]));
    await tx.query(
      `INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data)
       SELECT x."tenantId", x."ticketId", x."userId", 'create', x.data FROM unnest($1::int[], $2::int[], $3::int[], $4::jsonb[]) AS x("tenantId", "ticketId", "userId", data)`,
      [
        created.map((r) => r.ticket.tenantId),
        created.map((r) => r.ticket.id),
        created.map((r) => byTicket.get(r.ticket.id)?.actorUserId ?? null),
        created.map((r) => JSON.stringify({ status: r.ticket.status, channelId: byTicket.get(r.ticket.id)?.channelId ?? null })),
      ],
    );
    await recordTicketsOpened(tx, created.map((r) => r.ticket.id));
  }
  return results;
}

/**
 * Tickets created by the current transaction put into another queue before anyone saw them (the
 * inbound pipeline's opening hooks: a campaign answer opens in the campaign's queue): the ticket,
 * and its 'opened' (and 'assigned') facts, which recordTicketsOpened wrote with the first queue.
 * Not a transfer: nothing was announced or logged in the first queue.
 */
export async function moveOpenedTickets(tx: EntityManager, moves: readonly { ticketId: number; queueId: number }[]): Promise<void> {
  if (moves.length === 0) return;
  const params = [moves.map((m) => m.ticketId), moves.map((m) => m.queueId)];
  await tx.query(
    `UPDATE tickets t SET "queueId" = x.queue FROM unnest($1::int[], $2::int[]) AS x(id, queue) WHERE t.id = x.id`,
    params,
  );
  await tx.query(
    `UPDATE ticket_metric_events e SET "queueId" = x.queue
       FROM unnest($1::int[], $2::int[]) AS x(id, queue)
      WHERE e."ticketId" = x.id AND e.kind IN ('opened', 'assigned')`,
    params,
  );
}
