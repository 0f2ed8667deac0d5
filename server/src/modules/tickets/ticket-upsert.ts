import type { EntityManager } from 'typeorm';

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
  input: { tenantId: number; contactId: number; channelId: number | null; channelType?: string | null; isGroup?: boolean; queueId?: number | null; userId?: number | null; status?: 'open' | 'pending'; actorUserId?: number | null },
): Promise<{ ticket: ActiveTicketRow; created: boolean }> {
  const rows: (ActiveTicketRow & { created: boolean })[] = await tx.query(
    `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", "queueId", "userId", status, "startedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::varchar, CASE WHEN $8::varchar = 'open' THEN now() END)
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
  }
  return { ticket: ticket as ActiveTicketRow, created };
}
