import type { ChannelRecord, ChannelType, IdentityKind, OutboundTarget } from '../../channels/channel-adapter';
import type { Queryable } from '../../core/tenant-catalog';
import { MESSAGE_TICKET_COLUMNS, type MessageTicket } from './message-ticket';

/** Identity kinds that address a person on each channel type, best first. */
const KINDS_BY_TYPE: Record<ChannelType, { kinds: IdentityKind[]; contactColumn: string }> = {
  waba: { kinds: ['wa', 'phone'], contactColumn: 'number' },
  baileys: { kinds: ['wa', 'lid', 'phone'], contactColumn: 'number' },
  whatsapp: { kinds: ['wa', 'lid', 'phone'], contactColumn: 'number' },
  meow: { kinds: ['wa', 'lid', 'phone'], contactColumn: 'number' },
  evo: { kinds: ['wa', 'lid', 'phone'], contactColumn: 'number' },
  wuzapi: { kinds: ['wa', 'lid', 'phone'], contactColumn: 'number' },
  telegram: { kinds: ['telegram'], contactColumn: 'telegramId' },
  hub: { kinds: ['hub', 'phone'], contactColumn: 'hubWhatsappId' },
  instagram: { kinds: ['instagram'], contactColumn: 'instagramId' },
  messenger: { kinds: ['messenger'], contactColumn: 'messengerId' },
};

/** A channels row as adapters see it, scoped to the tenant. */
export async function loadChannel(db: Queryable, tenantId: number, channelId: number): Promise<ChannelRecord | null> {
  const rows: ChannelRecord[] = await db.query(
    `SELECT id, "tenantId", type, name, status, number, "providerConfig", secrets
       FROM channels WHERE id = $1 AND "tenantId" = $2`,
    [channelId, tenantId],
  );
  return rows[0] ?? null;
}

/**
 * Where a message to this contact goes on this channel: the contact identity of the channel's
 * kind (one learned on this very channel first), else the contact's own field (a number typed
 * by an agent). Null when the contact has no address on that channel type.
 */
export async function resolveTarget(
  db: Queryable,
  channel: Pick<ChannelRecord, 'id' | 'tenantId' | 'type'>,
  contactId: number,
  isGroup: boolean,
): Promise<OutboundTarget | null> {
  const spec = KINDS_BY_TYPE[channel.type];
  if (!spec) return null;
  const rows: { externalId: string }[] = await db.query(
    `SELECT "externalId" FROM contact_identities
      WHERE "tenantId" = $1 AND "contactId" = $2 AND kind = ANY($3::varchar[])
      ORDER BY ("channelId" IS NOT DISTINCT FROM $4) DESC, array_position($3::varchar[], kind), id
      LIMIT 1`,
    [channel.tenantId, contactId, spec.kinds, channel.id],
  );
  if (rows[0]) return { to: rows[0].externalId, isGroup };
  const [contact] = (await db.query(`SELECT "${spec.contactColumn}" AS address FROM contacts WHERE id = $1 AND "tenantId" = $2`, [
    contactId,
    channel.tenantId,
  ])) as { address: string | null }[];
  const address = contact?.address?.trim();
  return address ? { to: address, isGroup } : null;
}

/** Identity kinds per channel type, as the delivery context statement reads them (a jsonb parameter). */
const KINDS_JSON = JSON.stringify(Object.fromEntries(Object.entries(KINDS_BY_TYPE).map(([type, spec]) => [type, spec.kinds])));

/** What a send needs besides the message: its ticket, the ticket's channel and the recipient. */
export interface DeliveryContext {
  ticket: MessageTicket;
  /** Null when the ticket has no channel or the channel is gone. */
  channel: ChannelRecord | null;
  /** Null when the contact has no address on the channel's type. */
  target: OutboundTarget | null;
  /** The quoted message's provider id, when the message quotes one that has it. */
  quotedProviderMessageId: string | null;
}

/**
 * loadTicket + loadChannel + resolveTarget + the quoted message's provider id in one statement:
 * every outbound send starts with them, and four round trips were most of a chatbot answer's
 * delivery cost besides the provider call (issue #14's inbound benchmark). Same rules as those
 * functions: the identity learned on this channel first, then by kind order, else the contact's
 * own field for the channel's type.
 */
export async function loadDeliveryContext(
  db: Queryable,
  ticketId: number,
  quotedMsgId: number | string | null,
): Promise<DeliveryContext | null> {
  const rows: (MessageTicket & {
    c_id: number | null;
    c_type: ChannelType;
    c_name: string;
    c_status: ChannelRecord['status'];
    c_number: string | null;
    c_providerConfig: Record<string, unknown>;
    c_secrets: Record<string, unknown>;
    identity: string | null;
    co_number: string | null;
    co_telegramId: string | null;
    co_hubWhatsappId: string | null;
    co_instagramId: string | null;
    co_messengerId: string | null;
    quoted: string | null;
  })[] = await db.query(
    `SELECT ${MESSAGE_TICKET_COLUMNS},
            c.id AS c_id, c.type AS c_type, c.name AS c_name, c.status AS c_status, c.number AS c_number,
            c."providerConfig" AS "c_providerConfig", c.secrets AS c_secrets,
            (SELECT i."externalId" FROM contact_identities i
              WHERE i."tenantId" = t."tenantId" AND i."contactId" = t."contactId" AND i.kind = ANY(k.kinds)
              ORDER BY (i."channelId" IS NOT DISTINCT FROM c.id) DESC, array_position(k.kinds, i.kind), i.id
              LIMIT 1) AS identity,
            co.number AS co_number, co."telegramId" AS "co_telegramId", co."hubWhatsappId" AS "co_hubWhatsappId",
            co."instagramId" AS "co_instagramId", co."messengerId" AS "co_messengerId",
            (SELECT q."messageId" FROM messages q WHERE q.id = $2 AND q."tenantId" = t."tenantId") AS quoted
       FROM tickets t
       LEFT JOIN channels c ON c.id = t."whatsappId" AND c."tenantId" = t."tenantId"
       LEFT JOIN contacts co ON co.id = t."contactId" AND co."tenantId" = t."tenantId"
       LEFT JOIN LATERAL (SELECT ARRAY(SELECT jsonb_array_elements_text($3::jsonb -> c.type::text))::varchar[] AS kinds) k ON true
      WHERE t.id = $1`,
    [ticketId, quotedMsgId, KINDS_JSON],
  );
  const row = rows[0];
  if (!row) return null;
  const { c_id, c_type, c_name, c_status, c_number, c_providerConfig, c_secrets, identity, quoted, ...rest } = row;
  const { co_number, co_telegramId, co_hubWhatsappId, co_instagramId, co_messengerId, ...columns } = rest;
  // The ticket's columns as loadTicket answers them (the same column list).
  const ticket: MessageTicket = { ...columns, walletUserIds: columns.walletUserIds.map(Number) };
  const channel: ChannelRecord | null =
    c_id === null
      ? null
      : {
          id: c_id,
          tenantId: ticket.tenantId,
          type: c_type,
          name: c_name,
          status: c_status,
          number: c_number,
          providerConfig: c_providerConfig,
          secrets: c_secrets,
        };
  const spec = channel ? KINDS_BY_TYPE[channel.type] : undefined;
  let target: OutboundTarget | null = null;
  if (spec) {
    const own = {
      number: co_number,
      telegramId: co_telegramId,
      hubWhatsappId: co_hubWhatsappId,
      instagramId: co_instagramId,
      messengerId: co_messengerId,
    }[spec.contactColumn];
    const address = identity ?? own?.trim();
    target = address ? { to: address, isGroup: ticket.isGroup } : null;
  }
  return { ticket, channel, target, quotedProviderMessageId: quoted ?? null };
}
