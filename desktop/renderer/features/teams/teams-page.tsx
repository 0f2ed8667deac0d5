import { HTMLTable, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteTeamMutation, useListTeamsQuery, type Team } from '../../api/teams.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { TeamFormDialog } from './team-form-dialog';

/** How many member names a row shows before "+N". */
const MEMBERS_SHOWN = 6;

/** /equipes: teams of agents (spec section 3, "Team: name, active, users"). */
export function TeamsPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListTeamsQuery();
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const [deleteTeam, deletion] = useDeleteTeamMutation();
  const teams = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteTeam(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId="equipes"
      description={t('teams.description')}
      add={canWrite ? { label: t('teams.add'), onClick: () => setEditing('new'), testId: 'team-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={teams.length === 0}
      empty={{ icon: 'team', title: t('teams.empty'), description: t('teams.emptyHelp') }}
      dialogs={
        <>
          {editing ? <TeamFormDialog team={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="team-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th>{t('teams.members')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {teams.map((team) => (
            <tr key={team.id} data-testid="team-row">
              <td>{team.name}</td>
              <td>
                {team.users.length === 0 ? (
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
                )}
              </td>
              <td className="crud-col-narrow">
                <ActiveTag active={team.active} />
              </td>
              {canWrite ? (
                <td className="crud-col-actions">
                  <RowActions name={team.name} onEdit={() => setEditing(team)} onDelete={() => setDeleting(team)} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
