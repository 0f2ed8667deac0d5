import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import {
  CreateTenantApiTokenSchema,
  TENANT_API_TOKEN_NAME_MAX,
  type CreatedTenantApiTokenView,
  type TenantApiTokenView,
} from '@shared/schemas/platform-ops';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateTenantApiTokenMutation,
  useListTenantApiTokensQuery,
  useListTenantOptionsQuery,
  useRevokeTenantApiTokenMutation,
} from '../../api/tenant-api.api';
import { CrudPage } from '../../app/crud/crud-page';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';

const FIELDS = ['tenantId', 'name'] as const;

function CreateTokenDialog({ onClose, onCreated }: { onClose(): void; onCreated(token: CreatedTenantApiTokenView): void }) {
  const { t } = useTranslation();
  const tenants = useListTenantOptionsQuery();
  const [create, creating] = useCreateTenantApiTokenMutation();
  const form = useZodForm<{ tenantId: string; name: string }, unknown>(CreateTenantApiTokenSchema, { tenantId: '', name: '' });
  const submit = form.handleSubmit(async (values) => {
    try {
      onCreated(await create(values as { tenantId: number; name: string }).unwrap());
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });
  return (
    <FormDialog
      isOpen
      title={t('tenantApi.createTitle')}
      icon="key"
      saving={form.formState.isSubmitting || creating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="tenant-api-form"
    >
      <SelectField
        control={form.control}
        name="tenantId"
        label={t('tenantApi.tenant')}
        required
        emptyLabel={t('tenantApi.selectTenant')}
        options={(tenants.data ?? []).map((tenant) => ({ value: String(tenant.id), label: `${tenant.id} · ${tenant.name}` }))}
      />
      <TextField
        control={form.control}
        name="name"
        label={t('tenantApi.name')}
        required
        maxLength={TENANT_API_TOKEN_NAME_MAX}
        autoFocus
      />
    </FormDialog>
  );
}

function CreatedTokenDialog({ token, onClose }: { token: CreatedTenantApiTokenView; onClose(): void }) {
  const { t } = useTranslation();
  const copy = async () => {
    await navigator.clipboard?.writeText(token.token);
    showToast(t('tenantApi.copied'), 'success');
  };
  return (
    <Dialog isOpen title={t('tenantApi.createdTitle')} icon="key" onClose={onClose} className="crud-dialog">
      <DialogBody>
        <Callout intent="warning" icon="warning-sign">
          {t('tenantApi.createdWarning')}
        </Callout>
        <p>
          {token.tenantName} · {token.name}
        </p>
        <InputGroup
          readOnly
          value={token.token}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="tenant-api-created-token"
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button icon="duplicate" text={t('tenantApi.copy')} onClick={() => void copy()} />
            <Button intent="primary" text={t('tenantApi.close')} onClick={onClose} data-testid="tenant-api-created-close" />
          </>
        }
      />
    </Dialog>
  );
}

/** /tenantApi: API tokens of every tenant; created here (shown once), revoked here. */
export function TenantApiPage() {
  const { t, i18n } = useTranslation();
  const list = useListTenantApiTokensQuery();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedTenantApiTokenView | null>(null);
  const [revoking, setRevoking] = useState<TenantApiTokenView | null>(null);
  const [revoke, revocation] = useRevokeTenantApiTokenMutation();
  const tokens = list.data ?? [];
  const when = (value: string) => new Date(value).toLocaleString(i18n.language);

  const confirmRevoke = async () => {
    if (!revoking) return;
    const result = await revoke(revoking.id);
    setRevoking(null);
    if (!('error' in result)) showToast(t('tenantApi.revoked'), 'success');
  };

  return (
    <CrudPage
      routeId="tenantApi"
      description={t('tenantApi.description')}
      add={{ label: t('tenantApi.add'), onClick: () => setCreating(true), testId: 'tenant-api-add' }}
      list={list}
      isEmpty={tokens.length === 0}
      empty={{ icon: 'key', title: t('tenantApi.empty'), description: t('tenantApi.emptyHelp') }}
      dialogs={
        <>
          {creating ? (
            <CreateTokenDialog
              onClose={() => setCreating(false)}
              onCreated={(token) => {
                setCreating(false);
                setCreated(token);
              }}
            />
          ) : null}
          {created ? <CreatedTokenDialog token={created} onClose={() => setCreated(null)} /> : null}
          <Alert
            isOpen={revoking !== null}
            icon="disable"
            intent="danger"
            confirmButtonText={t('tenantApi.revoke')}
            cancelButtonText={t('common.cancel')}
            loading={revocation.isLoading}
            onConfirm={() => void confirmRevoke()}
            onCancel={() => setRevoking(null)}
          >
            {t('tenantApi.revokeConfirm', { name: revoking?.name ?? '', tenant: revoking?.tenantName ?? '' })}
          </Alert>
        </>
      }
    >
      <HTMLTable className="crud-table" striped data-testid="tenant-api-table">
        <thead>
          <tr>
            <th className="crud-col-narrow">ID</th>
            <th>{t('tenantApi.columns.tenant')}</th>
            <th>{t('tenantApi.columns.name')}</th>
            <th>{t('tenantApi.columns.prefix')}</th>
            <th>{t('tenantApi.columns.createdAt')}</th>
            <th>{t('tenantApi.columns.status')}</th>
            <th className="crud-col-actions">{t('crud.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} data-testid="tenant-api-row">
              <td className="crud-col-narrow">{token.id}</td>
              <td>{token.tenantName}</td>
              <td>{token.name}</td>
              <td>
                <code>{token.tokenPrefix}…</code>
              </td>
              <td>{when(token.createdAt)}</td>
              <td>
                {token.revokedAt ? (
                  <Tag minimal intent="danger">
                    {t('tenantApi.revokedAt', { date: when(token.revokedAt) })}
                  </Tag>
                ) : (
                  <Tag minimal intent="success">
                    {t('tenantApi.active')}
                  </Tag>
                )}
              </td>
              <td className="crud-col-actions">
                {token.revokedAt ? null : (
                  <Button
                    variant="minimal"
                    size="small"
                    icon="disable"
                    intent="danger"
                    text={t('tenantApi.revoke')}
                    onClick={() => setRevoking(token)}
                    data-testid="tenant-api-revoke"
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
