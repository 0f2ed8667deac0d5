import { Alert, Button, Checkbox, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, ProgressBar, Tag, Tooltip } from '@blueprintjs/core';
import type { AdminTenantDto } from '@shared/schemas/admin-tenants';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteAdminTenantMutation,
  useListAdminTenantsQuery,
  useListSupportSessionsQuery,
  useListTenantDeletionsQuery,
  useSetTenantStatusMutation,
  useStartSupportMutation,
} from '../../api/admin-tenants.api';
import { describeError } from '../../api/error-mapper';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { enterSupportAccess } from './support-access';
import { TenantFormDialog } from './tenant-form-dialog';

const PLATFORM_TENANT_ID = 1;
/** A deletion's progress is read again this often while one runs. */
const DELETION_POLL_MS = 2000;

const day = (iso: string) => new Date(iso).toLocaleDateString('pt-BR');
const dateTime = (iso: string) => new Date(iso).toLocaleString('pt-BR');

/**
 * /tenants: the platform super administrator's tenants: plan, status, trial and its end, users
 * and connections against their limits; create (with the first admin), edit, activate or
 * deactivate, support access, delete (a background job whose progress shows in the list).
 */
export function TenantsPage() {
  const { t } = useTranslation();
  const deletions = useListTenantDeletionsQuery();
  const running = (deletions.data ?? []).filter((d) => d.status === 'queued' || d.status === 'running');
  const list = useListAdminTenantsQuery(undefined, { pollingInterval: running.length ? DELETION_POLL_MS : 0 });
  useListTenantDeletionsQuery(undefined, { pollingInterval: running.length ? DELETION_POLL_MS : 0 });
  // When the last deletion finishes, the list is read once more (its tenant is gone).
  const wasRunning = useRef(0);
  useEffect(() => {
    if (wasRunning.current > 0 && running.length === 0) void list.refetch();
    wasRunning.current = running.length;
  }, [running.length, list]);
  const [editing, setEditing] = useState<AdminTenantDto | 'new' | null>(null);
  const [toggling, setToggling] = useState<AdminTenantDto | null>(null);
  const [deleting, setDeleting] = useState<AdminTenantDto | null>(null);
  const [force, setForce] = useState(false);
  const [supporting, setSupporting] = useState<AdminTenantDto | null>(null);
  const [reason, setReason] = useState('');
  const [detail, setDetail] = useState<AdminTenantDto | null>(null);
  const [setStatus, statusCall] = useSetTenantStatusMutation();
  const [deleteTenant, deleteCall] = useDeleteAdminTenantMutation();
  const [startSupport, supportCall] = useStartSupportMutation();
  const tenants = list.data ?? [];
  const warn = (error: unknown) => showToast(describeError(error, t), 'warning');

  return (
    <CrudPage
      routeId="tenants"
      description={t('platformTenants.description')}
      add={{ label: t('platformTenants.add'), onClick: () => setEditing('new'), testId: 'tenant-add' }}
      list={list}
      isEmpty={tenants.length === 0}
      empty={{ icon: 'office', title: t('platformTenants.empty') }}
      dialogs={
        <>
          {editing ? <TenantFormDialog tenant={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          <Alert
            isOpen={toggling !== null}
            intent={toggling?.status === 'active' ? 'danger' : 'primary'}
            icon="power"
            loading={statusCall.isLoading}
            cancelButtonText={t('common.cancel')}
            confirmButtonText={toggling?.status === 'active' ? t('platformTenants.deactivate') : t('platformTenants.activate')}
            onCancel={() => setToggling(null)}
            onConfirm={() => {
              if (!toggling) return;
              void setStatus({ id: toggling.id, status: toggling.status === 'active' ? 'inactive' : 'active' })
                .unwrap()
                .then(() => showToast(t('platformTenants.saved'), 'success'))
                .catch(warn)
                .finally(() => setToggling(null));
            }}
          >
            <p data-testid="tenant-status-confirm">
              {toggling?.status === 'active'
                ? t('platformTenants.deactivateConfirm', { name: toggling?.name })
                : t('platformTenants.activateConfirm', { name: toggling?.name })}
            </p>
          </Alert>
          <Alert
            isOpen={deleting !== null}
            intent="danger"
            icon="trash"
            loading={deleteCall.isLoading}
            cancelButtonText={t('common.cancel')}
            confirmButtonText={t('crud.delete')}
            onCancel={() => setDeleting(null)}
            onConfirm={() => {
              if (!deleting) return;
              void deleteTenant({ id: deleting.id, force })
                .unwrap()
                .then(() => showToast(t('platformTenants.deletionQueued'), 'success'))
                .catch(warn)
                .finally(() => {
                  setDeleting(null);
                  setForce(false);
                  void deletions.refetch();
                });
            }}
          >
            <p>{t('platformTenants.deleteConfirm', { name: deleting?.name })}</p>
            <Checkbox checked={force} label={t('platformTenants.forceDelete')} onChange={(e) => setForce(e.currentTarget.checked)} />
          </Alert>
          <Dialog isOpen={supporting !== null} title={t('platformTenants.supportTitle', { name: supporting?.name })} icon="eye-open" onClose={() => setSupporting(null)}>
            <DialogBody>
              <p>{t('platformTenants.supportHelp')}</p>
              <InputGroup value={reason} placeholder={t('platformTenants.supportReason')} onChange={(e) => setReason(e.currentTarget.value)} data-testid="support-reason" />
            </DialogBody>
            <DialogFooter
              actions={
                <Button
                  intent="warning"
                  text={t('platformTenants.supportEnter')}
                  loading={supportCall.isLoading}
                  disabled={reason.trim().length < 3}
                  data-testid="support-enter"
                  onClick={() =>
                    supporting &&
                    void startSupport({ tenantId: supporting.id, reason })
                      .unwrap()
                      .then(enterSupportAccess)
                      .catch(warn)
                  }
                />
              }
            />
          </Dialog>
          {detail ? <SupportSessionsDialog tenant={detail} onClose={() => setDetail(null)} /> : null}
        </>
      }
    >
      {running.length ? (
        <div data-testid="tenant-deletions">
          {running.map((d) => (
            <div key={d.id} className="tenant-deletion" data-testid="tenant-deletion">
              {t('platformTenants.deleting', { name: d.tenantName, progress: d.progress, step: d.step ?? '' })}
              <ProgressBar value={d.progress / 100} intent="danger" />
            </div>
          ))}
        </div>
      ) : null}
      <HTMLTable className="crud-table" striped data-testid="tenant-table">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('crud.name')}</th>
            <th>{t('platformTenants.plan')}</th>
            <th>{t('crud.status')}</th>
            <th>{t('plans.trial')}</th>
            <th>{t('platformTenants.users')}</th>
            <th>{t('platformTenants.connections')}</th>
            <th>{t('platformTenants.createdAt')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tenants.map((tenant) => (
            <tr key={tenant.id} data-testid="tenant-row" data-tenant-name={tenant.name}>
              <td>{tenant.id}</td>
              <td>{tenant.name}</td>
              <td>{tenant.planName ?? '—'}</td>
              <td>
                <Tag minimal round intent={tenant.status === 'active' ? 'success' : 'danger'} data-testid="tenant-status">
                  {tenant.status === 'active' ? t('crud.activeState') : t('crud.inactiveState')}
                </Tag>
                {tenant.deletion?.status === 'failed' ? (
                  <Tag minimal intent="danger" title={tenant.deletion.error ?? ''}>
                    {t('platformTenants.deletionFailed')}
                  </Tag>
                ) : null}
              </td>
              <td>{tenant.trialEndsAt ? t('platformTenants.trialUntil', { date: day(tenant.trialEndsAt) }) : t('plans.noTrial')}</td>
              <td>
                {tenant.userCount}/{tenant.maxUsers}
                {tenant.limitsOverride ? ' *' : ''}
              </td>
              <td>
                {tenant.connectionCount}/{tenant.maxConnections}
                {tenant.limitsOverride ? ' *' : ''}
              </td>
              <td>{day(tenant.createdAt)}</td>
              <td className="crud-row-actions">
                <Tooltip content={t('crud.edit')}>
                  <Button variant="minimal" icon="edit" aria-label={`${t('crud.edit')}: ${tenant.name}`} onClick={() => setEditing(tenant)} data-testid="row-edit" />
                </Tooltip>
                {tenant.id === PLATFORM_TENANT_ID ? null : (
                  <>
                    <Tooltip content={tenant.status === 'active' ? t('platformTenants.deactivate') : t('platformTenants.activate')}>
                      <Button variant="minimal" icon="power" intent={tenant.status === 'active' ? 'none' : 'success'} onClick={() => setToggling(tenant)} data-testid="row-status" aria-label={t('platformTenants.toggleStatus')} />
                    </Tooltip>
                    <Tooltip content={t('platformTenants.supportEnter')}>
                      <Button variant="minimal" icon="eye-open" disabled={tenant.status !== 'active'} onClick={() => { setReason(''); setSupporting(tenant); }} data-testid="row-support" aria-label={t('platformTenants.supportEnter')} />
                    </Tooltip>
                    <Tooltip content={t('platformTenants.supportSessions')}>
                      <Button variant="minimal" icon="history" onClick={() => setDetail(tenant)} data-testid="row-support-sessions" aria-label={t('platformTenants.supportSessions')} />
                    </Tooltip>
                    <Tooltip content={t('crud.delete')}>
                      <Button variant="minimal" intent="danger" icon="trash" onClick={() => setDeleting(tenant)} data-testid="row-delete" aria-label={`${t('crud.delete')}: ${tenant.name}`} />
                    </Tooltip>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}

/** Every support access to a tenant: who, why, when it started and ended. */
function SupportSessionsDialog({ tenant, onClose }: { tenant: AdminTenantDto; onClose(): void }) {
  const { t } = useTranslation();
  const sessions = useListSupportSessionsQuery(tenant.id);
  return (
    <Dialog isOpen title={t('platformTenants.supportSessionsOf', { name: tenant.name })} icon="history" onClose={onClose} style={{ width: 720 }}>
      <DialogBody>
        {(sessions.data ?? []).length === 0 ? (
          <p>{t('platformTenants.noSupportSessions')}</p>
        ) : (
          <HTMLTable className="crud-table" striped data-testid="support-sessions">
            <thead>
              <tr>
                <th>{t('platformTenants.supportBy')}</th>
                <th>{t('platformTenants.supportReason')}</th>
                <th>{t('platformTenants.supportStarted')}</th>
                <th>{t('platformTenants.supportEnded')}</th>
              </tr>
            </thead>
            <tbody>
              {(sessions.data ?? []).map((s) => (
                <tr key={s.id}>
                  <td>{s.superadminName}</td>
                  <td>{s.reason}</td>
                  <td>{dateTime(s.startedAt)}</td>
                  <td>{s.endedAt ? `${dateTime(s.endedAt)} (${t(`platformTenants.endReason.${s.endReason ?? 'ended'}`)})` : t('platformTenants.supportOngoing')}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
    </Dialog>
  );
}
