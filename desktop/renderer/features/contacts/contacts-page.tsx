import { Alert, Button, ButtonGroup, Menu, MenuItem, NonIdealState, Popover, Spinner } from '@blueprintjs/core';
import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import { CONTACT_PAGE_SIZE_DEFAULT } from '@shared/schemas/contacts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteContactMutation,
  useExportContactsMutation,
  useListContactsQuery,
  useRemoveDuplicateContactsMutation,
  useSetContactBlockMutation,
  useSyncContactsMutation,
  type ContactDto,
  type ContactFileFormat,
  type RemoveDuplicatesResponse,
} from '../../api/contacts.api';
import { useListKanbansQuery } from '../../api/kanban.api';
import { useListTagsQuery } from '../../api/tags.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { useWriteAccess } from '../../app/crud/write-access';
import { showToast } from '../../app/feedback/toaster';
import { ContactFilters, hasFilters, NO_FILTERS, type ContactListFilters } from './contact-filters';
import { ContactFormDialog } from './contact-form-dialog';
import { ContactImportDialog } from './contact-import-dialog';
import { ContactsTable } from './contacts-table';
import { RemoveDuplicatesResultDialog } from './remove-duplicates-result-dialog';
import { ContactSyncResultDialog } from './contact-sync-result-dialog';
import type { ContactSyncAnswer } from '@shared/schemas/groups';
import { useDebouncedValue } from './use-debounced-value';
import '../../app/crud/crud.css';
import './contacts.css';
import { PageHeader } from '../../app/layout/page-header';

const SEARCH_DEBOUNCE_MS = 400;

export interface ContactsPageProps {
  /** Route id of the route table (`contatos`, or `atendimento/contatos` in chat mode). */
  routeId: string;
  /**
   * `manage`: the contacts screen with its file tools (import, export, duplicates, sync).
   * `chat`: the same list beside the tickets, for finding and editing a contact.
   */
  mode: 'manage' | 'chat';
}

/**
 * Contacts (spec sections 2, 3 and 5): search from 2 characters, filters by tags, wallet users
 * and kanban column, pages of 20, create/edit/delete, block flags, and (supervisors and
 * administrators) import, export, duplicate removal and the phone sync.
 */
export function ContactsPage({ routeId, mode }: ContactsPageProps) {
  const { t, i18n } = useTranslation();
  // Delete, import, export, duplicates, sync and wallets: super or admin (docs/api.md).
  const { canWrite: canManage } = useWriteAccess();
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<ContactListFilters>(NO_FILTERS);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<ContactDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ContactDto | null>(null);
  const [importing, setImporting] = useState(false);
  const [confirmingDuplicates, setConfirmingDuplicates] = useState(false);
  const [duplicatesResult, setDuplicatesResult] = useState<RemoveDuplicatesResponse | null>(null);
  const [syncResult, setSyncResult] = useState<ContactSyncAnswer | null>(null);

  const debounced = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const searchParam = debounced.length >= CONTACT_SEARCH_MIN_CHARS ? debounced : undefined;
  const listArgs = {
    searchParam,
    tags: filters.tags,
    wallets: filters.wallets,
    kanbanId: filters.kanbanId,
    pageNumber,
    pageSize: CONTACT_PAGE_SIZE_DEFAULT,
  };
  const list = useListContactsQuery(listArgs);
  const tags = useListTagsQuery();
  const kanbans = useListKanbansQuery();
  // GET /users/ is refused to agents: wallets are neither filtered nor edited by them.
  const users = useListAllTenantUsersQuery(undefined, { skip: !canManage });

  const [deleteContact, deletion] = useDeleteContactMutation();
  const [setBlock] = useSetContactBlockMutation();
  const [exportContacts, exporting] = useExportContactsMutation();
  const [removeDuplicates, removingDuplicates] = useRemoveDuplicateContactsMutation();
  const [syncContacts, syncing] = useSyncContactsMutation();

  const tagOptions = useMemo(() => (tags.data ?? []).map((tag) => ({ id: tag.id, label: tag.name })), [tags.data]);
  const kanbanOptions = useMemo(
    () => (kanbans.data ?? []).map((column) => ({ id: column.id, name: column.name })),
    [kanbans.data],
  );
  const walletOptions = useMemo(
    () => (canManage ? (users.data ?? []).map((user) => ({ id: user.id, label: user.name, hint: user.email })) : null),
    [canManage, users.data],
  );

  const changeSearch = (value: string) => {
    setSearch(value);
    setPageNumber(1);
  };
  const changeFilters = (next: ContactListFilters) => {
    setFilters(next);
    setPageNumber(1);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    // A contact with tickets is refused (ERR_CONTACT_TICKETS_REGISTERED): the base query toasts why.
    const result = await deleteContact(deleting.id);
    if (!('error' in result)) showToast(t('contacts.deleted', { name: deleting.name }), 'success');
    setDeleting(null);
  };

  const runExport = async (format: ContactFileFormat) => {
    const result = await exportContacts({ format, filters: { searchParam, ...filters } });
    if ('data' in result && result.data) showToast(t('contacts.exported', { fileName: result.data.fileName }), 'success');
  };

  const confirmRemoveDuplicates = async () => {
    const result = await removeDuplicates();
    setConfirmingDuplicates(false);
    if ('data' in result && result.data) {
      setDuplicatesResult(result.data);
      showToast(
        t('contacts.duplicates.doneToast', {
          count: result.data.removed,
          amount: result.data.removed.toLocaleString(i18n.language),
        }),
        'success',
      );
    }
  };

  const runSync = async () => {
    // Until a channel exists the server refuses (ERR_NO_DEF_WAPP_FOUND) and the toast says so.
    const result = await syncContacts();
    if ('data' in result && result.data) setSyncResult(result.data);
    else if ('error' in result) {
      // No channel can sync (ERR_CHANNEL_OPERATION_UNSUPPORTED): the answer names each channel and
      // why, which the result dialog shows beside the error's toast.
      const channels = (result.error as { data?: { channels?: unknown } } | undefined)?.data?.channels;
      if (Array.isArray(channels)) setSyncResult({ created: 0, updated: 0, skipped: 0, channels: channels as ContactSyncAnswer['channels'] });
    }
  };

  const page = list.data;
  const contacts = page?.contacts ?? [];
  const total = page?.count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / CONTACT_PAGE_SIZE_DEFAULT));
  // The last contacts of the last page were deleted (here or elsewhere): step back to a page that has rows.
  const pageEmptied = !list.isFetching && page !== undefined && contacts.length === 0 && pageNumber > 1;
  useEffect(() => {
    if (pageEmptied) setPageNumber(lastPage);
  }, [pageEmptied, lastPage]);
  const firstRow = total === 0 ? 0 : (pageNumber - 1) * CONTACT_PAGE_SIZE_DEFAULT + 1;
  const lastRow = Math.min(total, pageNumber * CONTACT_PAGE_SIZE_DEFAULT);
  const narrowed = Boolean(searchParam) || hasFilters(filters);

  let body;
  if (list.isLoading) {
    body = <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />;
  } else if (list.isError && !page) {
    body = (
      <NonIdealState
        icon="warning-sign"
        title={t('crud.loadFailed')}
        action={<Button icon="refresh" text={t('common.retry')} onClick={() => void list.refetch()} />}
      />
    );
  } else if (contacts.length === 0) {
    body = narrowed ? (
      <div data-testid="contacts-no-match">
        <NonIdealState icon="search" title={t('contacts.noMatch')} description={t('contacts.noMatchHelp')} />
      </div>
    ) : (
      <div data-testid="contacts-empty">
        <NonIdealState
          icon="people"
          title={t('contacts.empty')}
          description={t('contacts.emptyHelp')}
          action={
            <Button
              icon="add"
              intent="primary"
              text={t('contacts.add')}
              onClick={() => setEditing('new')}
              data-testid="contact-add-empty"
            />
          }
        />
      </div>
    );
  } else {
    body = (
      <>
        <div className={list.isFetching ? 'contacts-table-wrap is-fetching' : 'contacts-table-wrap'}>
          <ContactsTable
            contacts={contacts}
            canDelete={canManage}
            onEdit={setEditing}
            onDelete={setDeleting}
            onToggleBlock={(contact, flag, value) => void setBlock({ id: contact.id, flag, value })}
          />
        </div>
        <div className="crud-footer contacts-pager" data-testid="contacts-pager">
          <span className="crud-muted" data-testid="contacts-range">
            {t(page?.countEstimated ? 'contacts.rangeEstimated' : 'contacts.range', {
              first: firstRow.toLocaleString(i18n.language),
              last: lastRow.toLocaleString(i18n.language),
              total: total.toLocaleString(i18n.language),
            })}
          </span>
          <ButtonGroup>
            <Button
              icon="chevron-left"
              text={t('contacts.previous')}
              disabled={pageNumber <= 1}
              onClick={() => setPageNumber((n) => Math.max(1, n - 1))}
              data-testid="contacts-previous"
            />
            <Button
              disabled
              text={t('contacts.pageOf', {
                page: pageNumber.toLocaleString(i18n.language),
                pages: lastPage.toLocaleString(i18n.language),
              })}
            />
            <Button
              endIcon="chevron-right"
              text={t('contacts.next')}
              disabled={!page?.hasMore}
              onClick={() => setPageNumber((n) => n + 1)}
              data-testid="contacts-next"
            />
          </ButtonGroup>
        </div>
      </>
    );
  }

  const showFileTools = mode === 'manage' && canManage;

  return (
    <div className="page crud-page contacts-page" data-testid={`page-${routeId.replace(/\//g, '-')}`}>
      <PageHeader
        title={t(`routes.${routeId}`)}
        description={mode === 'chat' ? t('contacts.chatDescription') : t('contacts.description')}
        actionsClassName="contacts-actions"
        actions={
          <>
            {showFileTools ? (
              <>
                <Button
                  icon="mobile-phone"
                  text={t('contacts.sync')}
                  loading={syncing.isLoading}
                  onClick={() => void runSync()}
                  data-testid="contacts-sync"
                />
                <Button
                  icon="merge-columns"
                  text={t('contacts.duplicates.button')}
                  onClick={() => setConfirmingDuplicates(true)}
                  data-testid="contacts-remove-duplicates"
                />
                <Button
                  icon="import"
                  text={t('contacts.import.button')}
                  onClick={() => setImporting(true)}
                  data-testid="contacts-import"
                />
                <Popover
                  placement="bottom-end"
                  content={
                    <Menu data-testid="contacts-export-menu">
                      <MenuItem
                        icon="th"
                        text={t('contacts.exportCsv')}
                        onClick={() => void runExport('csv')}
                        data-testid="contacts-export-csv"
                      />
                      <MenuItem
                        icon="th-derived"
                        text={t('contacts.exportXlsx')}
                        onClick={() => void runExport('xlsx')}
                        data-testid="contacts-export-xlsx"
                      />
                    </Menu>
                  }
                >
                  <Button
                    icon="export"
                    endIcon="caret-down"
                    text={t('contacts.export')}
                    loading={exporting.isLoading}
                    data-testid="contacts-export"
                  />
                </Popover>
              </>
            ) : null}
            <Button
              intent="primary"
              icon="add"
              text={t('contacts.add')}
              onClick={() => setEditing('new')}
              data-testid="contact-add"
            />
          </>
        }
      />

      <ContactFilters
        search={search}
        onSearchChange={changeSearch}
        filters={filters}
        onFiltersChange={changeFilters}
        tagOptions={tagOptions}
        walletOptions={walletOptions}
        kanbanOptions={kanbanOptions}
      />

      {body}

      {editing ? (
        <ContactFormDialog
          contact={editing === 'new' ? null : editing}
          tagOptions={tagOptions}
          kanbanOptions={kanbanOptions}
          walletOptions={walletOptions}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDeleteAlert
        itemName={deleting?.name ?? null}
        deleting={deletion.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
      {importing ? <ContactImportDialog onClose={() => setImporting(false)} /> : null}
      <Alert
        isOpen={confirmingDuplicates}
        intent="warning"
        icon="merge-columns"
        confirmButtonText={t('contacts.duplicates.confirm')}
        cancelButtonText={t('common.cancel')}
        loading={removingDuplicates.isLoading}
        onConfirm={() => void confirmRemoveDuplicates()}
        onCancel={() => setConfirmingDuplicates(false)}
        className="contacts-duplicates-alert"
      >
        <p data-testid="duplicates-confirm-text">{t('contacts.duplicates.confirmText')}</p>
      </Alert>
      {duplicatesResult ? (
        <RemoveDuplicatesResultDialog result={duplicatesResult} onClose={() => setDuplicatesResult(null)} />
      ) : null}
      {syncResult ? <ContactSyncResultDialog result={syncResult} onClose={() => setSyncResult(null)} /> : null}
    </div>
  );
}
