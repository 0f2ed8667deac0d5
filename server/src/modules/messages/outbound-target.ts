import type { ChannelRecord, ChannelType, IdentityKind, OutboundTarget } from '../../channels/channel-adapter';
import type { Queryable } from '../../core/tenant-catalog';

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
