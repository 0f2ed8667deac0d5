import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { GroupDto, GroupParticipantDto } from '@shared/schemas/groups';
import type { ChannelGroup, GroupMember, GroupParticipantsEvent } from '../../channels/channel-adapter';
import type { Queryable } from '../../core/tenant-catalog';
import type { EventAudience } from '../../db/entities';
import type { AppDeps } from '../../deps';

/** Group changes go to the people who manage groups. */
/** Groups are for every profile of the tenant (the spec's main menu). */
export const GROUP_AUDIENCE: EventAudience = { scope: 'tenant' };

export interface GroupRow {
  id: number;
  tenantId: number;
  channelId: number;
  jid: string;
  subject: string;
  description: string | null;
  owner: string | null;
  announce: boolean;
  restrict: boolean;
  size: number;
  isMember: boolean;
  syncedAt: Date;
  isAdmin?: boolean;
}

export function presentGroup(row: GroupRow): GroupDto {
  return {
    id: row.id,
    whatsappId: row.channelId,
    jid: row.jid,
    subject: row.subject,
    description: row.description,
    size: row.size,
    announce: row.announce,
    restrict: row.restrict,
    isMember: row.isMember,
    isAdmin: row.isAdmin === true,
    syncedAt: new Date(row.syncedAt).toISOString(),
  };
}

/** Whether the channel's own number is an admin in the group (read with the groups). */
const IS_ADMIN = `EXISTS (SELECT 1 FROM wa_group_participants p JOIN channels c ON c.id = g."channelId"
                    WHERE p."groupId" = g.id AND p.admin IS NOT NULL AND c.number IS NOT NULL AND p.phone = c.number) AS "isAdmin"`;

export async function listGroups(db: Queryable, tenantId: number, channelId: number): Promise<GroupRow[]> {
  return db.query(
    `SELECT g.*, ${IS_ADMIN} FROM wa_groups g WHERE g."tenantId" = $1 AND g."channelId" = $2 ORDER BY g."isMember" DESC, lower(g.subject), g.id`,
    [tenantId, channelId],
  );
}

/** The tenant's groups of one channel with these ids; an id that is not one of them is missing from the answer. */
export async function groupsByIds(db: Queryable, tenantId: number, channelId: number, ids: number[]): Promise<GroupRow[]> {
  return db.query(
    `SELECT g.*, ${IS_ADMIN} FROM wa_groups g WHERE g."tenantId" = $1 AND g."channelId" = $2 AND g.id = ANY($3::int[]) ORDER BY g.id`,
    [tenantId, channelId, ids],
  );
}

export async function participantsOf(db: Queryable, tenantId: number, groupIds: number[]): Promise<(GroupParticipantDto & { groupId: number })[]> {
  const rows: { groupId: number; jid: string; phone: string | null; admin: GroupParticipantDto['admin'] }[] = await db.query(
    `SELECT "groupId", jid, phone, admin FROM wa_group_participants WHERE "tenantId" = $1 AND "groupId" = ANY($2::int[])
      ORDER BY "groupId", admin NULLS LAST, phone, jid`,
    [tenantId, groupIds],
  );
  return rows.map((r) => ({ groupId: r.groupId, jid: r.jid, number: r.phone, admin: r.admin }));
}

/** The group row of a provider group id, or null. */
export async function groupByJid(db: Queryable, channelId: number, jid: string): Promise<GroupRow | null> {
  const rows: GroupRow[] = await db.query(`SELECT * FROM wa_groups WHERE "channelId" = $1 AND jid = $2`, [channelId, jid]);
  return rows[0] ?? null;
}

async function replaceParticipants(tx: Queryable, tenantId: number, groupId: number, members: GroupMember[]): Promise<void> {
  await tx.query(`DELETE FROM wa_group_participants WHERE "groupId" = $1`, [groupId]);
  const unique = [...new Map(members.map((m) => [m.id, m])).values()];
  if (unique.length === 0) return;
  await tx.query(
    `INSERT INTO wa_group_participants ("groupId", "tenantId", jid, phone, admin)
     SELECT $1, $2, u.jid, u.phone, u.admin FROM unnest($3::text[], $4::text[], $5::text[]) AS u(jid, phone, admin)`,
    [groupId, tenantId, unique.map((m) => m.id), unique.map((m) => m.phone), unique.map((m) => m.admin)],
  );
}

/**
 * Writes groups as the provider reports them: full groups (a sync, a join, a creation) replace
 * the stored details and members; partial changes (`groups.update`) set only what they carry.
 * With `complete` (a sync of every group) the groups not listed are marked as left.
 * Announced as `group:update`. Answers the rows written.
 */
export async function storeGroups(
  deps: Pick<AppDeps, 'events'>,
  channel: { id: number; tenantId: number },
  groups: (Partial<ChannelGroup> & { id: string })[],
  opts: { complete?: boolean } = {},
): Promise<GroupRow[]> {
  return deps.events.transaction(async (tx: EntityManager, emit) => {
    const written: GroupRow[] = [];
    for (const g of groups) {
      const size = g.participants?.length ?? null;
      const [row] = (await tx.query(
        `INSERT INTO wa_groups ("tenantId", "channelId", jid, subject, description, owner, announce, restrict, size, "isMember", "syncedAt")
         VALUES ($1, $2, $3, COALESCE($4, ''), $5, $6, COALESCE($7, false), COALESCE($8, false), COALESCE($9, 0), true, now())
         ON CONFLICT ("channelId", jid) DO UPDATE SET
           subject = COALESCE($4, wa_groups.subject),
           description = CASE WHEN $10 THEN $5 ELSE wa_groups.description END,
           owner = COALESCE($6, wa_groups.owner),
           announce = COALESCE($7, wa_groups.announce),
           restrict = COALESCE($8, wa_groups.restrict),
           size = COALESCE($9, wa_groups.size),
           "isMember" = true,
           "syncedAt" = now()
         RETURNING *`,
        [
          channel.tenantId,
          channel.id,
          g.id,
          g.subject ?? null,
          g.description ?? null,
          g.owner ?? null,
          g.announce ?? null,
          g.restrict ?? null,
          size,
          g.description !== undefined,
        ],
      )) as GroupRow[];
      if (g.participants) await replaceParticipants(tx, channel.tenantId, row.id, g.participants);
      written.push(row);
    }
    if (opts.complete) {
      await tx.query(
        `UPDATE wa_groups SET "isMember" = false WHERE "tenantId" = $1 AND "channelId" = $2 AND NOT (jid = ANY($3::text[])) AND "isMember"`,
        [channel.tenantId, channel.id, groups.map((g) => g.id)],
      );
    }
    await emit(channel.tenantId, SOCKET_EVENTS.groupUpdate, { action: 'update', whatsappId: channel.id }, GROUP_AUDIENCE);
    return written;
  });
}

/**
 * Applies a members change to the stored group (members added, removed, promoted, demoted).
 * A group not stored yet is left for the next sync. The phone itself removed: the group is left.
 */
export async function applyParticipantsChange(
  deps: Pick<AppDeps, 'events'>,
  event: GroupParticipantsEvent,
  ownNumber: string | null,
): Promise<void> {
  await deps.events.transaction(async (tx, emit) => {
    const [group] = (await tx.query(`SELECT id FROM wa_groups WHERE "channelId" = $1 AND jid = $2 AND "tenantId" = $3`, [
      event.channelId,
      event.groupId,
      event.tenantId,
    ])) as { id: number }[];
    if (!group) return;
    const ids = event.participants.map((p) => p.id);
    if (event.action === 'add') {
      await tx.query(
        `INSERT INTO wa_group_participants ("groupId", "tenantId", jid, phone, admin)
         SELECT $1, $2, u.jid, u.phone, u.admin FROM unnest($3::text[], $4::text[], $5::text[]) AS u(jid, phone, admin)
         ON CONFLICT ("groupId", jid) DO UPDATE SET phone = COALESCE(EXCLUDED.phone, wa_group_participants.phone)`,
        [group.id, event.tenantId, ids, event.participants.map((p) => p.phone), event.participants.map((p) => p.admin)],
      );
    } else if (event.action === 'remove') {
      await tx.query(`DELETE FROM wa_group_participants WHERE "groupId" = $1 AND jid = ANY($2::text[])`, [group.id, ids]);
      if (ownNumber && event.participants.some((p) => p.phone === ownNumber)) {
        await tx.query(`UPDATE wa_groups SET "isMember" = false WHERE id = $1`, [group.id]);
      }
    } else if (event.action === 'promote' || event.action === 'demote') {
      await tx.query(`UPDATE wa_group_participants SET admin = $3 WHERE "groupId" = $1 AND jid = ANY($2::text[])`, [
        group.id,
        ids,
        event.action === 'promote' ? 'admin' : null,
      ]);
    }
    await tx.query(`UPDATE wa_groups SET size = (SELECT count(*) FROM wa_group_participants WHERE "groupId" = $1) WHERE id = $1`, [group.id]);
    await emit(event.tenantId, SOCKET_EVENTS.groupUpdate, { action: 'update', whatsappId: event.channelId }, GROUP_AUDIENCE);
  });
}
