import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useDeleteTeamMutation, useListTeamsQuery, type Team } from '../../api/teams.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { TeamFormDialog } from './team-form-dialog';

/** How many member names a row shows before "+N". */
const MEMBERS_SHOWN = 6;

/** /equipes: teams of agents (spec section 3, "Team: name, active, users"). */
export function TeamsPage() {
  const { t } = useTranslation();
  const [deleteTeam, deletion] = useDeleteTeamMutation();
  const members = (team: Team) =>
    team.users.length === 0 ? (
      <span className="crud-muted">{t('teams.noMembers')}</span>
    ) : (
      <span className="team-members">
        {team.users.slice(0, MEMBERS_SHOWN).map((member) => (
          <Tag key={member.id} minimal round icon="person" title={member.email}>
            {member.name}
          </Tag>
        ))}
        {team.users.length > MEMBERS_SHOWN ? (
          <Tag minimal round>
            {t('teams.moreMembers', { count: team.users.length - MEMBERS_SHOWN })}
          </Tag>
        ) : null}
      </span>
    );
  return (
    <CatalogPage<Team>
      routeId="equipes"
      description={t('teams.description')}
      list={useListTeamsQuery()}
      testId="team"
      addLabel={t('teams.add')}
      empty={{ icon: 'team', title: t('teams.empty'), description: t('teams.emptyHelp') }}
      remove={deleteTeam}
      removing={deletion.isLoading}
      form={(team, close) => <TeamFormDialog team={team} onClose={close} />}
      columns={[
        { header: t('crud.name'), cell: (team) => team.name },
        { header: t('teams.members'), cell: members },
        { header: t('crud.status'), className: 'crud-col-narrow', cell: (team) => <ActiveTag active={team.active} /> },
      ]}
    />
  );
}
