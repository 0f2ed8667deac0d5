import { Button, Callout, Card, FormGroup, H5, HTMLTable, InputGroup, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  platformMailSettingsSchema,
  type PlatformMailSettings,
  type PlatformMailSettingsRequest,
} from '@shared/schemas/platform-mail';
import { describeError } from '../../api/error-mapper';
import {
  useGetPlatformMailQuery,
  useResetPlatformMailMutation,
  useSendPlatformTestMailMutation,
  useUpdatePlatformMailMutation,
} from '../../api/platform-mail.api';
import {
  useConfirmPendingSignupMutation,
  useGetSignupSettingsQuery,
  useListPendingSignupsQuery,
  useUpdateSignupSettingsMutation,
} from '../../api/signup.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { PageHeader } from '../../app/layout/page-header';
import '../../app/crud/crud.css';
import './platform-mail.css';

interface MailFormValues {
  host: string;
  port: string;
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

const FIELDS = ['host', 'port', 'secure', 'user', 'password', 'from'] as const;

/**
 * /configuracoesTenant/smtp-tenant (super administrator's "E-mail"): the SMTP server of the
 * platform's own mails (sign-up confirmations, password resets), a test e-mail, the sign-up switch
 * and the companies whose sign-up e-mail is not confirmed yet.
 */
export function PlatformMailPage() {
  const { t } = useTranslation();
  const query = useGetPlatformMailQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <div className="page crud-page" data-testid="page-platform-mail">
      <PageHeader title={t('routes.configuracoesTenant/smtp-tenant')} description={t('platformMail.description')} />
      {query.isLoading ? (
        <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />
      ) : query.isError || !query.data ? (
        <NonIdealState
          icon="warning-sign"
          title={t('crud.loadFailed')}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void query.refetch()} />}
        />
      ) : (
        <>
          <MailSettingsForm key={JSON.stringify(query.data)} settings={query.data} />
          <TestMailCard />
        </>
      )}
      <SignupAdministration />
    </div>
  );
}

function MailSettingsForm({ settings }: { settings: PlatformMailSettings }) {
  const { t } = useTranslation();
  const form = useZodForm<MailFormValues, PlatformMailSettingsRequest>(platformMailSettingsSchema, {
    host: settings.host,
    port: String(settings.port),
    secure: settings.secure,
    user: settings.user,
    password: '',
    from: settings.from,
  });
  const [save, saving] = useUpdatePlatformMailMutation();
  const [reset, resetting] = useResetPlatformMailMutation();
  const submit = form.handleSubmit(async (body) => {
    try {
      await save(body).unwrap();
      // The password is write-only: once saved, the field is empty again (the note says it is kept).
      form.resetField('password', { defaultValue: '' });
      showToast(t('platformMail.saved'), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, (key, options) => t(key, options), FIELDS);
    }
  });
  const removeStored = async () => {
    try {
      await reset().unwrap();
      showToast(t('platformMail.removed'), 'success');
    } catch (error) {
      showToast(describeError(error, (key, options) => t(key, options)), 'danger');
    }
  };

  return (
    <Card className="platform-mail-section">
      <H5>
        {t('platformMail.serverTitle')}{' '}
        <Tag minimal intent={settings.source === 'none' ? 'warning' : 'primary'} data-testid="platform-mail-source">
          {t(`platformMail.source.${settings.source}`)}
        </Tag>
      </H5>
      <form
        noValidate
        data-testid="platform-mail-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField control={form.control} name="host" label={t('platformMail.host')} required placeholder="smtp.exemplo.com" testId="platform-mail-host" />
        <TextField control={form.control} name="port" label={t('platformMail.port')} required maxLength={5} testId="platform-mail-port" />
        <Controller
          control={form.control}
          name="secure"
          render={({ field }) => (
            <Switch
              label={t('platformMail.secure')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              data-testid="platform-mail-secure"
            />
          )}
        />
        <TextField control={form.control} name="user" label={t('platformMail.user')} testId="platform-mail-user" />
        <TextField
          control={form.control}
          name="password"
          type="password"
          label={t('platformMail.password')}
          helperText={settings.passwordSet ? t('platformMail.passwordKept') : undefined}
          placeholder={settings.passwordSet ? '••••••••' : undefined}
          testId="platform-mail-password"
        />
        <TextField
          control={form.control}
          name="from"
          label={t('platformMail.from')}
          required
          placeholder="Empresa <no-reply@empresa.com>"
          testId="platform-mail-from"
        />
        <FormErrorSummary control={form.control} testId="platform-mail-summary" />
        <div className="crud-page-actions">
          <Button type="submit" intent="primary" icon="floppy-disk" text={t('platformMail.save')} loading={saving.isLoading} data-testid="platform-mail-save" />
          {settings.source === 'stored' ? (
            <Button
              icon="reset"
              text={t('platformMail.remove')}
              loading={resetting.isLoading}
              onClick={() => void removeStored()}
              data-testid="platform-mail-remove"
            />
          ) : null}
        </div>
      </form>
    </Card>
  );
}

function TestMailCard() {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [send, sending] = useSendPlatformTestMailMutation();
  const [result, setResult] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const sendTest = async () => {
    setResult(null);
    try {
      const answer = await send({ to }).unwrap();
      setResult({ intent: 'success', text: t('platformMail.testSent', { to: to.trim().toLowerCase(), defaultValue: answer.message }) });
    } catch (error) {
      setResult({ intent: 'danger', text: describeError(error, (key, options) => t(key, options)) });
    }
  };
  return (
    <Card className="platform-mail-section">
      <H5>{t('platformMail.testTitle')}</H5>
      <FormGroup label={t('platformMail.testTo')} labelFor="platform-mail-test-to" helperText={t('platformMail.testHelp')}>
        <InputGroup
          id="platform-mail-test-to"
          type="email"
          value={to}
          onChange={(event) => setTo(event.currentTarget.value)}
          data-testid="platform-mail-test-to"
        />
      </FormGroup>
      <Button icon="send-message" text={t('platformMail.sendTest')} loading={sending.isLoading} onClick={() => void sendTest()} data-testid="platform-mail-test-send" />
      {result ? (
        <Callout intent={result.intent} role={result.intent === 'danger' ? 'alert' : 'status'} className="auth-error" data-testid="platform-mail-test-result">
          {result.text}
        </Callout>
      ) : null}
    </Card>
  );
}

function SignupAdministration() {
  const { t, i18n } = useTranslation();
  const settings = useGetSignupSettingsQuery();
  const pending = useListPendingSignupsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [update, updating] = useUpdateSignupSettingsMutation();
  const [confirm, confirming] = useConfirmPendingSignupMutation();
  const fail = (error: unknown) => showToast(describeError(error, (key, options) => t(key, options)), 'danger');
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' });

  return (
    <Card className="platform-mail-section" data-testid="signup-administration">
      <H5>{t('platformMail.signupTitle')}</H5>
      <Switch
        large
        label={t('platformMail.allowSignup')}
        checked={settings.data?.allowSignup ?? false}
        disabled={!settings.data || updating.isLoading}
        onChange={(event) => {
          update({ allowSignup: event.currentTarget.checked })
            .unwrap()
            .then((saved) => showToast(t(saved.allowSignup ? 'platformMail.signupOn' : 'platformMail.signupOff'), 'success'))
            .catch(fail);
        }}
        data-testid="platform-allow-signup"
      />
      <p className="crud-page-description">{t('platformMail.pendingHelp')}</p>
      {pending.isLoading ? (
        <Spinner size={24} />
      ) : pending.isError ? (
        <Callout intent="danger">{t('crud.loadFailed')}</Callout>
      ) : (pending.data ?? []).length === 0 ? (
        <p className="app-form-muted" data-testid="pending-signups-empty">
          {t('platformMail.noPending')}
        </p>
      ) : (
        <HTMLTable compact striped className="crud-table" data-testid="pending-signups">
          <thead>
            <tr>
              <th>{t('platformMail.company')}</th>
              <th>{t('auth.email')}</th>
              <th>{t('signup.phone')}</th>
              <th>{t('signup.plan')}</th>
              <th>{t('platformMail.createdAt')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(pending.data ?? []).map((row) => (
              <tr key={row.tenantId} data-testid={`pending-signup-${row.tenantId}`}>
                <td>{row.tenantName}</td>
                <td>{row.email}</td>
                <td>{row.phone}</td>
                <td>{row.planName ?? '—'}</td>
                <td>{date(row.createdAt)}</td>
                <td>
                  <Button
                    size="small"
                    intent="primary"
                    icon="tick"
                    text={t('platformMail.confirmSignup')}
                    loading={confirming.isLoading && confirming.originalArgs === row.tenantId}
                    onClick={() =>
                      void confirm(row.tenantId)
                        .unwrap()
                        .then(() => showToast(t('platformMail.signupConfirmed', { name: row.tenantName }), 'success'))
                        .catch(fail)
                    }
                    data-testid={`confirm-signup-${row.tenantId}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
