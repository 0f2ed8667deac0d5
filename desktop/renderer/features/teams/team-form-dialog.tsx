import { Button, FormGroup, InputGroup, Spinner, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateTeamMutation, useUpdateTeamMutation, type Team, type TeamBody } from '../../api/teams.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { showToast } from '../../app/feedback/toaster';
import { CheckboxListField } from '../../app/crud/checkbox-list-field';
import { checkName, fieldTexts } from '../../app/crud/catalog-validation';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';

/** Create or edit a team: name, active and its members, chosen among the tenant's users. */
export function TeamFormDialog({ team, onClose }: { team: Team | null; onClose(): void }) {
  const { t } = useTranslation();
  const users = useListAllTenantUsersQuery();
  const [form, setForm] = useState<TeamBody>(() => ({
    name: team?.name ?? '',
    active: team?.active ?? true,
    users: team?.users.map((member) => member.id) ?? [],
  }));
  const [errors, setErrors] = useState<Partial<Record<'name' | 'users', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [createTeam, creating] = useCreateTeamMutation();
  const [updateTeam, updating] = useUpdateTeamMutation();

  const submit = async () => {
    const local = fieldTexts<'name'>({ name: checkName(form.name) }, t);
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    const body: TeamBody = { ...form, name: form.name.trim() };
    try {
      if (team) await updateTeam({ id: team.id, body }).unwrap();
      else await createTeam(body).unwrap();
      showToast(t('teams.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      setFailure(refused.message);
      setErrors(refused.fields);
    }
  };

  const options = (users.data ?? []).map((user) => ({ id: user.id, label: user.name, hint: user.email }));

  return (
    <FormDialog
      isOpen
      wide
      title={team ? t('teams.editTitle') : t('teams.createTitle')}
      icon="team"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="team-form"
    >
      <FormGroup
        label={t('crud.name')}
        labelFor="team-name"
        labelInfo="*"
        intent={errors.name ? 'danger' : 'none'}
        helperText={errors.name}
      >
        <InputGroup
          id="team-name"
          autoFocus
          value={form.name}
          intent={errors.name ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
      </FormGroup>
      {users.isLoading ? (
        <FormGroup label={t('teams.members')}>
          <Spinner size={20} />
        </FormGroup>
      ) : users.isError ? (
        <FormGroup label={t('teams.members')} intent="danger" helperText={t('teams.usersFailed')}>
          <Button icon="refresh" text={t('common.retry')} onClick={() => void users.refetch()} />
        </FormGroup>
      ) : (
        <CheckboxListField
          label={t('teams.members')}
          options={options}
          value={form.users}
          onChange={(ids) => setForm({ ...form, users: ids })}
          emptyText={t('teams.noUsers')}
          helperText={errors.users}
          testId="team-members"
        />
      )}
      <Switch
        label={t('crud.active')}
        checked={form.active}
        onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
      />
    </FormDialog>
  );
}
