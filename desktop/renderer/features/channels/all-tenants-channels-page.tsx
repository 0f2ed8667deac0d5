import { Alert, Button, HTMLTable, Tag, Tooltip } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteTenantChannelMutation,
  useDisconnectTenantChannelMutation,
  useRestartTenantChannelMutation,
} from '../../api/admin-tenants.api';
import { useListAllTenantsChannelsQuery } from '../../api/channels.api';
import { describeError } from '../../api/error-mapper';
import { showToast } from '../../app/feedback/toaster';
import { CrudPage } from '../../app/crud/crud-page';
import { StatusTag } from './channel-dialogs';
import './channels.css';

/** Session states change in other tenants, whose events this socket does not receive. */
const REFRESH_MS = 15_000;

/**
 * /sessoestenants (the platform's super administrator): every tenant's channels with their
 * session state; the super administrator may restart or end a session or delete a channel, while
 * each tenant connects and configures its own on /sessoes.
 */
export function AllTenantsChannelsPage() {
  const { t } = useTranslation();
  const list = useListAllTenantsChannelsQuery(undefined, { pollingInterval: REFRESH_MS });
  const channels = list.data ?? [];
  const [restart] = useRestartTenantChannelMutation();
  const [disconnect] = useDisconnectTenantChannelMutation();
  const [remove, removal] = useDeleteTenantChannelMutation();
  const [deleting, setDeleting] = useState<(typeof channels)[number] | null>(null);
  const run = (call: Promise<unknown>) =>
    void call
      .then(() => showToast(t('platformTenants.channels.done'), 'success'))
      .catch((error) => showToast(describeError(error, t), 'warning'))
      .finally(() => void list.refetch());
  return (
    <CrudPage
      routeId="sessoestenants"
      description={
        <>
          {t('channels.descriptionTenants')}{' '}
          <strong className="channel-cross-tenant-note" data-testid="channels-cross-tenant-note">
            {t('channels.crossTenantNote')}
          </strong>
        </>
      }
      list={list}
      isEmpty={channels.length === 0}
      empty={{ icon: 'mobile-phone', title: t('channels.empty') }}
      dialogs={
        <Alert
          isOpen={deleting !== null}
          intent="danger"
          icon="trash"
          loading={removal.isLoading}
          cancelButtonText={t('common.cancel')}
          confirmButtonText={t('crud.delete')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            if (deleting) run(remove(deleting.id).unwrap());
            setDeleting(null);
          }}
        >
          <p>{t('platformTenants.channels.deleteConfirm', { name: deleting?.name, tenant: deleting?.tenantName })}</p>
        </Alert>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="tenants-channel-table">
        <thead>
          <tr>
            <th>{t('channels.tenant')}</th>
            <th>{t('channels.name')}</th>
            <th>{t('channels.type')}</th>
            <th>{t('channels.number')}</th>
            <th className="crud-col-narrow">{t('channels.sessionStatus')}</th>
            <th className="crud-col-narrow" />
          </tr>
        </thead>
        <tbody>
          {channels.map((channel) => (
            <tr key={channel.id} data-testid="tenants-channel-row" data-tenant-id={channel.tenantId}>
              <td>{channel.tenantName}</td>
              <td>
                {channel.name}{' '}
                {channel.isDefault ? (
                  <Tag minimal intent="primary" icon="star">
                    {t('channels.default')}
                  </Tag>
                ) : null}
              </td>
              <td>{t(`channels.types.${channel.type}`)}</td>
              <td>{channel.number || <span className="crud-muted">{t('channels.noNumber')}</span>}</td>
              <td className="crud-col-narrow">
                <StatusTag channel={channel} />
              </td>
              <td className="crud-row-actions">
                <Tooltip content={t('platformTenants.channels.restart')}>
                  <Button variant="minimal" icon="refresh" aria-label={t('platformTenants.channels.restart')} onClick={() => run(restart(channel.id).unwrap())} data-testid="tenant-channel-restart" />
                </Tooltip>
                <Tooltip content={t('platformTenants.channels.disconnect')}>
                  <Button variant="minimal" icon="disable" aria-label={t('platformTenants.channels.disconnect')} onClick={() => run(disconnect(channel.id).unwrap())} data-testid="tenant-channel-disconnect" />
                </Tooltip>
                <Tooltip content={t('crud.delete')}>
                  <Button variant="minimal" intent="danger" icon="trash" aria-label={`${t('crud.delete')}: ${channel.name}`} onClick={() => setDeleting(channel)} data-testid="tenant-channel-delete" />
                </Tooltip>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
