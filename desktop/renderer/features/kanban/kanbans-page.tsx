import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateKanbanMutation,
  useDeleteKanbanMutation,
  useListKanbansQuery,
  useReorderKanbansMutation,
  useUpdateKanbanMutation,
  type Kanban,
} from '../../api/kanban.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { pickDefaultColor } from '../../app/crud/catalog-validation';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { useWriteAccess } from '../../app/crud/write-access';
import { KanbanTabs } from './kanban-tabs';
import { PositionedFormDialog } from './positioned-form-dialog';
import { ReorderableTable } from './reorderable-table';

/** /kanban/kanbans: the kanban columns, in board order; drag a row (or use its arrows) to reorder. */
export function KanbansPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListKanbansQuery();
  const [editing, setEditing] = useState<Kanban | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Kanban | null>(null);
  const [createKanban] = useCreateKanbanMutation();
  const [updateKanban] = useUpdateKanbanMutation();
  const [deleteKanban, deletion] = useDeleteKanbanMutation();
  const [reorderKanbans] = useReorderKanbansMutation();
  const kanbans = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteKanban(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  const current = editing === 'new' ? null : editing;

  return (
    <CrudPage
      routeId="kanban/kanbans"
      tabs={<KanbanTabs />}
      description={canWrite ? t('kanban.columnsDescription') : t('kanban.columnsDescriptionReadOnly')}
      add={canWrite ? { label: t('kanban.addColumn'), onClick: () => setEditing('new'), testId: 'kanban-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={kanbans.length === 0}
      empty={{ icon: 'column-layout', title: t('kanban.emptyColumns'), description: t('kanban.emptyColumnsHelp') }}
      dialogs={
        <>
          {editing ? (
            <PositionedFormDialog
              testId="kanban-form"
              title={current ? t('kanban.editColumn') : t('kanban.createColumn')}
              savedText={t('kanban.columnSaved')}
              initial={{
                name: current?.name ?? '',
                color: current?.color ?? pickDefaultColor(kanbans.length),
                active: current?.active ?? true,
              }}
              save={(values) =>
                current
                  ? updateKanban({ id: current.id, body: { ...values, active: values.active ?? true } }).unwrap()
                  : createKanban({ ...values, active: values.active ?? true }).unwrap()
              }
              onClose={() => setEditing(null)}
            />
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
      <ReorderableTable<Kanban>
        testId="kanban-columns"
        items={kanbans}
        canWrite={canWrite}
        extraHeaders={<th className="crud-col-narrow">{t('crud.status')}</th>}
        extraCells={(kanban) => (
          <td className="crud-col-narrow">
            <ActiveTag active={kanban.active} />
          </td>
        )}
        onReorder={(ids) => void reorderKanbans(ids)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
    </CrudPage>
  );
}
