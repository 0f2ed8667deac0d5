import type { Team, TeamMember } from '@shared/schemas/teams';
import { isoDate, type Queryable } from '../../core/tenant-catalog';

export interface TeamRow {
  id: number;
  tenantId: number;
  name: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Teams with their members, in one query for the whole batch. */
export async function presentTeams(rows: TeamRow[], db: Queryable): Promise<Team[]> {
  if (rows.length === 0) return [];
  const members: (TeamMember & { teamId: number })[] = await db.query(
    `SELECT tu."teamId", u.id, u.name, u.email, u.profile
       FROM team_users tu
       JOIN users u ON u.id = tu."userId" AND u."tenantId" = tu."tenantId"
      WHERE tu."tenantId" = $1 AND tu."teamId" = ANY($2::int[])
      ORDER BY lower(u.name), u.id`,
    [rows[0].tenantId, rows.map((r) => r.id)],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    active: row.active,
    users: members.filter((m) => m.teamId === row.id).map(({ id, name, email, profile }) => ({ id, name, email, profile })),
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  }));
}
