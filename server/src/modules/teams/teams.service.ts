import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { Team } from '@shared/schemas/teams';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { teamPolicy } from './teams.policy';
import { presentTeams, type TeamRow } from './teams.presenter';
import type { CreateTeamInput, UpdateTeamInput } from './teams.schema';

/** Teams (equipes): a name, an active flag and members who are users of the same tenant. */
export class TeamsService {
  private readonly catalog: TenantCatalog<TeamRow, Team>;

  constructor(deps: Pick<AppDeps, 'dataSource' | 'events'>) {
    this.catalog = new TenantCatalog(deps, {
      table: 'teams',
      writable: ['name', 'active'],
      orderBy: 'lower(name), id',
      policy: teamPolicy,
      uniqueIndexes: { teams_tenant_name_uq: { code: 'ERR_TEAM_EXISTS', field: 'name' } },
      events: { update: SOCKET_EVENTS.teamUpdate, delete: SOCKET_EVENTS.teamDelete, key: 'team' },
      present: presentTeams,
    });
  }

  list(auth: AuthContext): Promise<Team[]> {
    return this.catalog.list(auth);
  }

  create(auth: AuthContext, input: CreateTeamInput): Promise<Team> {
    const { users, ...fields } = input;
    return this.catalog.create(auth, fields, { afterWrite: (tx, team) => setMembers(tx, team, users ?? []) });
  }

  /** `users`, when sent, replaces the members; when absent they are kept. */
  update(auth: AuthContext, id: number, input: UpdateTeamInput): Promise<Team> {
    const { users, ...fields } = input;
    return this.catalog.update(auth, id, fields, {
      afterWrite: users === undefined ? undefined : (tx, team) => setMembers(tx, team, users),
    });
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id);
  }
}

/**
 * Replaces the members. Every id must be a user of the team's tenant; an unknown id and
 * another tenant's user get the same answer, so nothing is learnt about other tenants.
 */
async function setMembers(tx: EntityManager, team: TeamRow, userIds: number[]): Promise<void> {
  if (userIds.length > 0) {
    const found: { id: number }[] = await tx.query(`SELECT id FROM users WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [
      team.tenantId,
      userIds,
    ]);
    const known = new Set(found.map((r) => r.id));
    const missing = userIds.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'users', message: `usuários não encontrados nesta empresa: ${missing.join(', ')}` }],
      });
    }
  }
  await tx.query(`DELETE FROM team_users WHERE "teamId" = $1 AND "tenantId" = $2`, [team.id, team.tenantId]);
  if (userIds.length > 0) {
    await tx.query(`INSERT INTO team_users ("teamId", "userId", "tenantId") SELECT $1, u, $2 FROM unnest($3::int[]) AS u`, [
      team.id,
      team.tenantId,
      userIds,
    ]);
  }
}
