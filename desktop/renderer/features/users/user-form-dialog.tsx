import { Callout, FormGroup, HTMLSelect, Icon, InputGroup, Spinner, Switch } from '@blueprintjs/core';
import { USER_EMAIL_MAX, USER_NAME_MAX } from '@shared/schemas/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListQueuesQuery } from '../../api/queues.api';
import {
  useCreateUserMutation,
  useListConnectionOptionsQuery,
  useUpdateUserMutation,
  type TenantUser,
  type UserBody,
} from '../../api/users.api';
import { showToast } from '../../app/feedback/toaster';
import { CheckboxListField } from '../../app/crud/checkbox-list-field';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';
import { ASSIGNABLE_PROFILES, passwordChecklist, validateUser, type UserFailure, type UserField } from './user-form.logic';

interface FormState {
  name: string;
  email: string;
  password: string;
  profile: string;
  queues: number[];
  allowedConnections: number[];
  blockVoice: boolean;
}

/**
 * Create or edit a user of the tenant (spec section 3, "User"): name, e-mail, password (by the
 * policy of spec section 5), profile, queues, allowed connections and the block-voice flag.
 */
export function UserFormDialog({ user, onClose }: { user: TenantUser | null; onClose(): void }) {
  const { t } = useTranslation();
  const queues = useListQueuesQuery();
  const connections = useListConnectionOptionsQuery();
  const [form, setForm] = useState<FormState>(() => ({
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    profile: user?.profile ?? 'user',
    queues: user?.queues ?? [],
    allowedConnections: user?.allowedConnections ?? [],
    blockVoice: user?.blockVoice ?? false,
  }));
  const [errors, setErrors] = useState<Partial<Record<UserField | 'queues' | 'allowedConnections', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [createUser, creating] = useCreateUserMutation();
  const [updateUser, updating] = useUpdateUserMutation();

  /** Changing a field clears what was said about it: the message described the old value. */
  const change = <K extends keyof FormState>(field: K, value: FormState[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFailure(null);
  };

  const failureText = (failure: UserFailure, field: UserField): string => {
    switch (failure) {
      case 'required':
        return t('validation.required');
      case 'tooLong':
        return t('crud.validation.tooLong', { max: field === 'email' ? USER_EMAIL_MAX : USER_NAME_MAX });
      case 'invalidEmail':
        return t('validation.invalidEmail');
      case 'weakPassword':
        return t('validation.passwordPolicy');
      case 'invalidProfile':
        return t('validation.required');
    }
  };

  const submit = async () => {
    const local = validateUser(form, user ? 'edit' : 'create');
    const texts = Object.fromEntries(
      (Object.entries(local) as [UserField, UserFailure][]).map(([field, code]) => [field, failureText(code, field)]),
    );
    setErrors(texts);
    setFailure(Object.keys(texts).length > 0 ? t('validation.formHasErrors') : null);
    if (Object.keys(texts).length > 0) return;
    const body: UserBody = {
      name: form.name.trim(),
      email: form.email.trim(),
      profile: form.profile as UserBody['profile'],
      queues: form.queues,
      allowedConnections: form.allowedConnections,
      blockVoice: form.blockVoice,
      ...(form.password ? { password: form.password } : {}),
    };
    try {
      if (user) await updateUser({ id: user.id, body }).unwrap();
      else await createUser(body).unwrap();
      showToast(t('users.saved'), 'success');
      onClose();
    } catch (error) {
      // ERR_USER_LIMIT ('Limite de usuários atingido.'), ERR_EMAIL_ALREADY_EXISTS, ERR_LAST_ADMIN...
      const refused = formFailureOf(error, t);
      setFailure(refused.message);
      setErrors(refused.fields);
    }
  };

  const queueOptions = (queues.data ?? []).map((queue) => ({ id: queue.id, label: queue.name }));
  const connectionOptions = (connections.data ?? []).map((connection) => ({
    id: connection.id,
    label: connection.name,
    hint: connection.type,
  }));

  return (
    <FormDialog
      isOpen
      wide
      title={user ? t('users.editTitle') : t('users.createTitle')}
      icon="person"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="user-form"
    >
      <div className="user-form-grid">
        <FormGroup
          label={t('crud.name')}
          labelFor="user-name"
          labelInfo="*"
          intent={errors.name ? 'danger' : 'none'}
          helperText={errors.name}
        >
          <InputGroup
            id="user-name"
            autoFocus
            value={form.name}
            intent={errors.name ? 'danger' : 'none'}
            onChange={(event) => change('name', event.currentTarget.value)}
          />
        </FormGroup>
        <FormGroup
          label={t('users.email')}
          labelFor="user-email"
          labelInfo="*"
          intent={errors.email ? 'danger' : 'none'}
          helperText={errors.email}
        >
          <InputGroup
            id="user-email"
            type="email"
            autoComplete="off"
            value={form.email}
            intent={errors.email ? 'danger' : 'none'}
            onChange={(event) => change('email', event.currentTarget.value)}
          />
        </FormGroup>
        <FormGroup
          label={t('users.password')}
          labelFor="user-password"
          labelInfo={user ? undefined : '*'}
          intent={errors.password ? 'danger' : 'none'}
          helperText={
            <>
              {errors.password ? <div>{errors.password}</div> : user ? <div>{t('users.passwordKeep')}</div> : null}
              {form.password || !user ? (
                <ul className="password-checklist" data-testid="password-checklist">
                  {passwordChecklist(form.password).map(({ rule, met }) => (
                    <li key={rule} className={met ? 'is-met' : undefined}>
                      <Icon icon={met ? 'tick' : 'dot'} size={12} /> {t(`users.passwordRules.${rule}`)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          }
        >
          <InputGroup
            id="user-password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="new-password"
            value={form.password}
            intent={errors.password ? 'danger' : 'none'}
            onChange={(event) => change('password', event.currentTarget.value)}
            rightElement={
              <button
                type="button"
                className="bp6-button bp6-minimal"
                aria-label={showPassword ? t('users.hidePassword') : t('users.showPassword')}
                onClick={() => setShowPassword(!showPassword)}
              >
                <Icon icon={showPassword ? 'eye-off' : 'eye-open'} />
              </button>
            }
          />
        </FormGroup>
        <FormGroup
          label={t('users.profile')}
          labelFor="user-profile"
          intent={errors.profile ? 'danger' : 'none'}
          helperText={errors.profile ?? t(`users.profileHelp.${form.profile === 'superadmin' ? 'admin' : form.profile}`)}
        >
          <HTMLSelect
            id="user-profile"
            fill
            value={form.profile}
            disabled={form.profile === 'superadmin'}
            onChange={(event) => change('profile', event.currentTarget.value)}
          >
            {ASSIGNABLE_PROFILES.map((profile) => (
              <option key={profile} value={profile}>
                {t(`profiles.${profile}`)}
              </option>
            ))}
            {form.profile === 'superadmin' ? <option value="superadmin">{t('profiles.superadmin')}</option> : null}
          </HTMLSelect>
        </FormGroup>
      </div>
      <div className="user-form-grid">
        {queues.isLoading ? (
          <Spinner size={20} />
        ) : (
          <CheckboxListField
            label={t('users.queues')}
            options={queueOptions}
            value={form.queues}
            onChange={(ids) => change('queues', ids)}
            emptyText={t('users.noQueues')}
            helperText={errors.queues ?? t('users.queuesHelp')}
            testId="user-queues"
          />
        )}
        {connections.isLoading ? (
          <Spinner size={20} />
        ) : connections.isError ? (
          <FormGroup label={t('users.allowedConnections')}>
            <Callout intent="warning" icon="warning-sign" data-testid="connections-unavailable">
              {t('users.connectionsUnavailable', { count: form.allowedConnections.length })}
            </Callout>
          </FormGroup>
        ) : (
          <CheckboxListField
            label={t('users.allowedConnections')}
            options={connectionOptions}
            value={form.allowedConnections}
            onChange={(ids) => change('allowedConnections', ids)}
            emptyText={t('users.noConnections')}
            helperText={errors.allowedConnections ?? t('users.allowedConnectionsHelp')}
            testId="user-connections"
          />
        )}
      </div>
      <Switch
        label={t('users.blockVoice')}
        checked={form.blockVoice}
        onChange={(event) => change('blockVoice', event.currentTarget.checked)}
      />
    </FormDialog>
  );
}
