import { Button, ControlGroup, HTMLSelect, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useLinkUserTenantMutation,
  useListAdminTenantsQuery,
  useListAdminUsersQuery,
  useUnlinkUserTenantMutation,
} from '../../api/admin-tenants.api';
import { describeError } from '../../api/error-mapper';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';

/**
 * /usuariotenants: users of every tenant for the platform super administrator, filtered by
 * tenant and searched by name or e-mail; a user is linked to or unlinked from other tenants
 * (/userTenants). The link to the user's own tenant is fixed.
 */
export function TenantUsersPage() {
  const { t } = useTranslation();
  const [tenantId, setTenantId] = useState<number | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [linkTo, setLinkTo] = useState<Record<number, number>>({});
  const tenants = useListAdminTenantsQuery();
  const list = useListAdminUsersQuery({ tenantId, searchParam: search.trim() || undefined, pageNumber: page });
  const [link] = useLinkUserTenantMutation();
  const [unlink] = useUnlinkUserTenantMutation();
  const users = list.data?.users ?? [];
  const warn = (error: unknown) => showToast(describeError(error, t), 'warning');
  return (
    <CrudPage
      routeId="usuariotenants"
      description={t('platformTenants.usersDescription')}
      list={list}
      isEmpty={false}
      empty={{ icon: 'people', title: t('platformTenants.noUsers') }}
    >
      <ControlGroup className="tenant-users-filters">
        <HTMLSelect
          value={tenantId ?? ''}
          onChange={(e) => {
            setTenantId(e.currentTarget.value ? Number(e.currentTarget.value) : undefined);
            setPage(1);
          }}
          data-testid="tenant-users-filter"
        >
          <option value="">{t('platformTenants.allTenants')}</option>
          {(tenants.data ?? []).map((tenant) => (
            <option key={tenant.id} value={tenant.id}>
              {tenant.name}
            </option>
          ))}
        </HTMLSelect>
        <InputGroup
          leftIcon="search"
          placeholder={t('platformTenants.searchUsers')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          data-testid="tenant-users-search"
        />
      </ControlGroup>
      <HTMLTable className="crud-table" striped data-testid="tenant-users-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th>E-mail</th>
            <th>{t('platformTenants.profile')}</th>
            <th>{t('platformTenants.homeTenant')}</th>
            <th>{t('platformTenants.linkedTenants')}</th>
            <th>{t('platformTenants.linkTo')}</th>
          </tr>
        </thead>
        <tbody>
          {users.length === 0 ? (
            <tr>
              <td colSpan={6}>{t('platformTenants.noUsers')}</td>
            </tr>
          ) : null}
          {users.map((user) => (
            <tr key={user.id} data-testid="tenant-user-row">
              <td>{user.name}</td>
              <td>{user.email}</td>
              <td>{user.profile}</td>
              <td>{user.tenantName}</td>
              <td>
                {user.linkedTenants.map((l) => (
                  <Tag
                    key={l.linkId}
                    minimal
                    className="tenant-link-tag"
                    onRemove={l.tenantId === user.tenantId ? undefined : () => void unlink({ linkId: l.linkId, tenantId: l.tenantId }).unwrap().catch(warn)}
                  >
                    {l.tenantName}
                  </Tag>
                ))}
              </td>
              <td>
                <ControlGroup>
                  <HTMLSelect value={linkTo[user.id] ?? ''} onChange={(e) => setLinkTo({ ...linkTo, [user.id]: Number(e.currentTarget.value) })}>
                    <option value="">—</option>
                    {(tenants.data ?? [])
                      .filter((tenant) => !user.linkedTenants.some((l) => l.tenantId === tenant.id))
                      .map((tenant) => (
                        <option key={tenant.id} value={tenant.id}>
                          {tenant.name}
                        </option>
                      ))}
                  </HTMLSelect>
                  <Button
                    icon="link"
                    disabled={!linkTo[user.id]}
                    aria-label={t('platformTenants.linkTo')}
                    onClick={() =>
                      void link({ userId: user.id, tenantId: linkTo[user.id]! })
                        .unwrap()
                        .then(() => showToast(t('platformTenants.saved'), 'success'))
                        .catch(warn)
                    }
                  />
                </ControlGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <ControlGroup>
        <Button icon="chevron-left" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label="<" />
        <Button icon="chevron-right" disabled={!list.data?.hasMore} onClick={() => setPage(page + 1)} aria-label=">" />
      </ControlGroup>
    </CrudPage>
  );
}
