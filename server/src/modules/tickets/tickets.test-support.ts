import { randomBytes } from 'node:crypto';
import type { TestServer, TestTenant, TestUser } from '../../../../tests/helpers/test-server';
import { settingsCacheFor } from '../settings/settings.cache';

/** Helpers shared by the tickets test files (not loaded by the server). Rows are written directly. */

export type LoggedUser = TestUser & { token: string };

export interface TicketWorld {
  tenant: TestTenant;
  users: Record<'admin' | 'super' | 'user', LoggedUser>;
  /** A second agent, in queue B only. */
  other: LoggedUser;
  queueA: number;
  queueB: number;
  /** The tenant's default channel. */
  channel: number;
}

const unique = () => randomBytes(4).toString('hex');

export async function insertQueue(server: TestServer, tenantId: number, name = `Fila ${unique()}`): Promise<number> {
  const [row] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name) VALUES ($1, $2) RETURNING id`, [
    tenantId,
    name,
  ]);
  return row.id;
}

export async function insertChannel(
  server: TestServer,
  tenantId: number,
  fields: { isDefault?: boolean; farewellMessage?: string | null; type?: string; name?: string } = {},
): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type, status, "isDefault", "farewellMessage") VALUES ($1, $2, $3, 'CONNECTED', $4, $5) RETURNING id`,
    [
      tenantId,
      fields.name ?? `Canal ${unique()}`,
      fields.type ?? 'waba',
      fields.isDefault ?? false,
      fields.farewellMessage ?? null,
    ],
  );
  return row.id;
}

export async function insertContact(
  server: TestServer,
  tenantId: number,
  name = `Contato ${unique()}`,
  number?: string,
): Promise<number> {
  const digits = number ?? `5511${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, $2, $3) RETURNING id`,
    [tenantId, name, digits],
  );
  return row.id;
}

export interface TicketFields {
  contactId?: number;
  status?: 'open' | 'pending' | 'closed';
  queueId?: number | null;
  userId?: number | null;
  whatsappId?: number | null;
  isGroup?: boolean;
  botActive?: boolean;
  unreadMessages?: number;
  lastMessageAt?: Date;
  protocol?: string | null;
  kanbanId?: number | null;
}

export async function insertTicket(server: TestServer, tenantId: number, fields: TicketFields = {}): Promise<number> {
  const contactId = fields.contactId ?? (await insertContact(server, tenantId));
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO tickets ("tenantId", "contactId", status, "queueId", "userId", "whatsappId", "isGroup", "botActive", "unreadMessages",
                          "lastMessageAt", protocol, "kanbanId", "closedAt")
     VALUES ($1, $2, $3::varchar, $4, $5, $6, $7, $8, $9, COALESCE($10::timestamptz, now()), $11, $12, CASE WHEN $3::varchar = 'closed' THEN now() END) RETURNING id`,
    [
      tenantId,
      contactId,
      fields.status ?? 'pending',
      fields.queueId ?? null,
      fields.userId ?? null,
      fields.whatsappId ?? null,
      fields.isGroup ?? false,
      fields.botActive ?? false,
      fields.unreadMessages ?? 0,
      fields.lastMessageAt ?? null,
      fields.protocol ?? null,
      fields.kanbanId ?? null,
    ],
  );
  return row.id;
}

export async function setUserQueues(server: TestServer, userId: number, queueIds: number[]): Promise<void> {
  await server.deps.dataSource.query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [userId, JSON.stringify(queueIds)]);
}

/** Writes settings rows directly (even combinations the API refuses) and drops the cached copy. */
export async function setSettings(server: TestServer, tenantId: number, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await server.deps.dataSource.query(
      `INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3)
       ON CONFLICT ("tenantId", key) DO UPDATE SET value = EXCLUDED.value`,
      [tenantId, key, value],
    );
  }
  settingsCacheFor(server.deps.dataSource, server.deps.clock).invalidate(tenantId);
}

export async function setWallets(server: TestServer, tenantId: number, contactId: number, userIds: number[]): Promise<void> {
  for (const userId of userIds) {
    await server.deps.dataSource.query(`INSERT INTO contact_wallets ("contactId", "userId", "tenantId") VALUES ($1, $2, $3)`, [
      contactId,
      userId,
      tenantId,
    ]);
  }
}

/** A tenant with admin, super and user (queue A), another agent (queue B) and a default channel. */
export async function ticketWorld(server: TestServer): Promise<TicketWorld> {
  const { tenant, users } = await server.createTenantWithUsers();
  const queueA = await insertQueue(server, tenant.id, `A ${unique()}`);
  const queueB = await insertQueue(server, tenant.id, `B ${unique()}`);
  const otherUser = await server.createUser(tenant.id, { profile: 'user', name: 'Outro agente' });
  const other = { ...otherUser, token: (await server.login(otherUser)).token };
  await setUserQueues(server, users.user.id, [queueA]);
  await setUserQueues(server, users.super.id, [queueA]);
  await setUserQueues(server, other.id, [queueB]);
  const channel = await insertChannel(server, tenant.id, { isDefault: true });
  return { tenant, users, other, queueA, queueB, channel };
}

export async function ticketRow(server: TestServer, id: number): Promise<Record<string, any>> {
  const [row] = await server.deps.dataSource.query(`SELECT * FROM tickets WHERE id = $1`, [id]);
  return row;
}

export async function logTypes(server: TestServer, ticketId: number): Promise<string[]> {
  const rows = await server.deps.dataSource.query(`SELECT type FROM ticket_logs WHERE "ticketId" = $1 ORDER BY id`, [ticketId]);
  return rows.map((r: { type: string }) => r.type);
}

export async function ticketEvents(
  server: TestServer,
  tenantId: number,
): Promise<{ name: string; payload: any; audience: any }[]> {
  return server.deps.dataSource.query(
    `SELECT name, payload, audience FROM domain_events WHERE "tenantId" = $1 AND name LIKE 'ticket%' ORDER BY seq`,
    [tenantId],
  );
}
