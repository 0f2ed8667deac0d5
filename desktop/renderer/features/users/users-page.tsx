import { Alert, Button, HTMLTable, InputGroup, NonIdealState, Tag, Tooltip } from '@blueprintjs/core';
import { USER_PAGE_SIZE_DEFAULT } from '@shared/schemas/users';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListQueuesQuery } from '../../api/queues.api';
import {
  useDeleteUserMutation,
  useListTenantUsersQuery,
  usePurgeUserDesktopMutation,
  type TenantUser,
} from '../../api/users.api';
import { showToast } from '../../app/feedback/toaster';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { useAppSelector } from '../../app/store-hooks';
import { PresenceDot, presenceOfUser } from './presence-dot';
import { pageCount } from './user-form.logic';
import { UserFormDialog } from './user-form-dialog';

/** Typing pauses this long before the list is asked again. */
const SEARCH_DEBOUNCE_MS = 350;

/**
 * /usuarios: the tenant's users with search and paging; administrators create, edit and delete
 * them (spec section 6), supervisors read the list. The plan's user limit is the server's to
 * enforce: a refused creation says 'Limite de usuários atingido.'. Supervisors and administrators
 * may also clear a user's desktop app data (POST /users/{id}/desktop-purge, issue #15): each of
 * the user's consoles wipes its local cache when the event reaches it. Each user shows their
 * presence (online, away, offline), kept live by `user:status`.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const { canWrite, canAdmin } = useWriteAccess();
  const ownId = useAppSelector((state) => state.session.userId);
  const [search, setSearch] = useState('');
  const [searchParam, setSearchParam] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<TenantUser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TenantUser | null>(null);
  const [deleteUser, deletion] = useDeleteUserMutation();
  const [purging, setPurging] = useState<TenantUser | null>(null);
  const [purgeUserDesktop, purge] = usePurgeUserDesktopMutation();
  const queues = useListQueuesQuery(undefined, { skip: !canWrite });
  const list = useListTenantUsersQuery({ searchParam, pageNumber, pageSize: USER_PAGE_SIZE_DEFAULT }, { skip: !canWrite });

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearchParam(search.trim());
      setPageNumber(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const queueNames = useMemo(() => new Map((queues.data ?? []).map((queue) => [queue.id, queue.name])), [queues.data]);
  const page = list.data;
  const pages = pageCount(page?.count ?? 0, USER_PAGE_SIZE_DEFAULT);

  // Deleting the last row of the last page steps back one page.
  useEffect(() => {
    if (page && page.users.length === 0 && pageNumber > 1) setPageNumber(Math.min(pageNumber - 1, pages));
  }, [page, pageNumber, pages]);

  if (!canWrite) {
    return (
      <div className="page">
        <NonIdealState icon="lock" title={t('routes.usuarios')} description={t('users.forbidden')} />
      </div>
    );
  }

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteUser(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  const confirmPurge = async () => {
    if (!purging) return;
    const result = await purgeUserDesktop(purging.id);
    if (!('error' in result)) showToast(t('users.purgeDesktopDone', { name: purging.name }), 'success');
    setPurging(null);
  };

  const purgeButton = (user: TenantUser) => (
    <Tooltip content={t('users.purgeDesktop')} placement="top">
      <Button
        variant="minimal"
        icon="eraser"
        aria-label={`${t('users.purgeDesktop')}: ${user.name}`}
        onClick={() => setPurging(user)}
        data-testid="row-purge-desktop"
      />
    </Tooltip>
  );

  const searching = searchParam !== '';

  return (
    <CrudPage
      routeId="usuarios"
      description={t('users.description')}
      add={canAdmin ? { label: t('users.add'), onClick: () => setEditing('new'), testId: 'user-add' } : null}
      readOnlyNotice={canAdmin ? null : t('users.readOnly')}
      list={{ ...list, isLoading: list.isLoading && !page }}
      isEmpty={(page?.users.length ?? 0) === 0}
      empty={
        searching
          ? { icon: 'search', title: t('users.noMatch', { search: searchParam }) }
          : { icon: 'people', title: t('users.empty') }
      }
      actions={
        <InputGroup
          leftIcon="search"
          type="search"
          placeholder={t('users.searchPlaceholder')}
          aria-label={t('users.searchPlaceholder')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          className="user-search"
          data-testid="user-search"
        />
      }
      dialogs={
        <>
          {editing ? <UserFormDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
          <Alert
            isOpen={purging !== null}
            intent="warning"
            icon="eraser"
            confirmButtonText={t('users.purgeDesktopConfirmButton')}
            cancelButtonText={t('common.cancel')}
            loading={purge.isLoading}
            onConfirm={() => void confirmPurge()}
            onCancel={() => setPurging(null)}
            canEscapeKeyCancel={!purge.isLoading}
            className="user-purge-alert"
          >
            <p data-testid="confirm-purge-text">{t('users.purgeDesktopConfirm', { name: purging?.name ?? '' })}</p>
          </Alert>
        </>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="user-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th>{t('users.email')}</th>
            <th className="crud-col-narrow">{t('users.profile')}</th>
            <th>{t('users.queues')}</th>
            <th className="crud-col-actions">{t('crud.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {(page?.users ?? []).map((user) => (
            <tr key={user.id} data-testid="user-row">
              <td>
                <PresenceDot presence={presenceOfUser(user)} />
                {user.name}
                {user.blockVoice ? (
                  <Tag minimal round icon="phone" className="user-voice-blocked" title={t('users.blockVoice')}>
                    {t('users.voiceBlocked')}
                  </Tag>
                ) : null}
              </td>
              <td>{user.email}</td>
              <td className="crud-col-narrow">
                <Tag minimal round intent={user.profile === 'admin' ? 'primary' : user.profile === 'super' ? 'success' : 'none'}>
                  {t(`profiles.${user.profile}`)}
                </Tag>
              </td>
              <td>
                {user.queues.length === 0 ? (
                  <span className="crud-muted">{t('users.noQueue')}</span>
                ) : (
                  <span className="team-members">
                    {user.queues.map((id) => (
                      <Tag key={id} minimal round>
                        {queueNames.get(id) ?? `#${id}`}
                      </Tag>
                    ))}
                  </span>
                )}
              </td>
              <td className="crud-col-actions">
                {purgeButton(user)}
                {!canAdmin ? null : user.id === ownId || user.profile === 'superadmin' ? (
                  <Button
                    variant="minimal"
                    icon="edit"
                    aria-label={`${t('crud.edit')}: ${user.name}`}
                    onClick={() => setEditing(user)}
                    data-testid="row-edit"
                  />
                ) : (
                  <RowActions name={user.name} onEdit={() => setEditing(user)} onDelete={() => setDeleting(user)} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div className="crud-footer" data-testid="user-paging">
        <span className="crud-muted">{t('users.count', { count: page?.count ?? 0 })}</span>
        <span className="user-paging">
          <Button
            variant="minimal"
            icon="chevron-left"
            aria-label={t('users.previousPage')}
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber(pageNumber - 1)}
          />
          <span>{t('users.pageOf', { page: pageNumber, pages })}</span>
          <Button
            variant="minimal"
            icon="chevron-right"
            aria-label={t('users.nextPage')}
            disabled={!page?.hasMore}
            onClick={() => setPageNumber(pageNumber + 1)}
            data-testid="user-next-page"
          />
        </span>
      </div>
    </CrudPage>
  );
}
