import { HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useListAllTenantsChannelsQuery } from '../../api/channels.api';
import { CrudPage } from '../../app/crud/crud-page';
import { StatusTag } from './channel-dialogs';
import './channels.css';

/** Session states change in other tenants, whose events this socket does not receive. */
const REFRESH_MS = 15_000;

/**
 * /sessoestenants (the platform's super administrator): every tenant's channels with their
 * session state, read-only; each tenant connects and configures its own on /sessoes.
 */
export function AllTenantsChannelsPage() {
  const { t } = useTranslation();
  const list = useListAllTenantsChannelsQuery(undefined, { pollingInterval: REFRESH_MS });
  const channels = list.data ?? [];
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
    >
      <HTMLTable className="crud-table" striped interactive data-testid="tenants-channel-table">
        <thead>
          <tr>
            <th>{t('channels.tenant')}</th>
            <th>{t('channels.name')}</th>
            <th>{t('channels.type')}</th>
            <th>{t('channels.number')}</th>
            <th className="crud-col-narrow">{t('channels.sessionStatus')}</th>
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
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
