import { HTMLTable } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteTagMutation, useListTagsQuery, type Tag } from '../../api/tags.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { TagColorChip } from './tag-color-chip';
import { TagFormDialog } from './tag-form-dialog';

/** /etiquetas: the tenant's tags, shown as the coloured chips contacts carry. */
export function TagsPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListTagsQuery();
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [deleteTag, deletion] = useDeleteTagMutation();
  const tags = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    // A tag still on contacts is refused (ERR_TAG_CONTACTS_EXISTS); the base query toasts why.
    const result = await deleteTag(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId="etiquetas"
      description={t('tags.description')}
      add={canWrite ? { label: t('tags.add'), onClick: () => setEditing('new'), testId: 'tag-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={tags.length === 0}
      empty={{ icon: 'tag', title: t('tags.empty'), description: t('tags.emptyHelp') }}
      dialogs={
        <>
          {editing ? (
            <TagFormDialog tag={editing === 'new' ? null : editing} nextIndex={tags.length} onClose={() => setEditing(null)} />
          ) : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="tag-table">
        <thead>
          <tr>
            <th>{t('tags.tag')}</th>
            <th className="crud-col-narrow">{t('crud.color')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {tags.map((tag) => (
            <tr key={tag.id} data-testid="tag-row">
              <td>
                <TagColorChip name={tag.name} color={tag.color} muted={!tag.active} />
              </td>
              <td className="crud-col-narrow">
                <code>{tag.color}</code>
              </td>
              <td className="crud-col-narrow">
                <ActiveTag active={tag.active} />
              </td>
              {canWrite ? (
                <td className="crud-col-actions">
                  <RowActions name={tag.name} onEdit={() => setEditing(tag)} onDelete={() => setDeleting(tag)} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
