import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateLaneMutation,
  useDeleteLaneMutation,
  useListLanesQuery,
  useReorderLanesMutation,
  useUpdateLaneMutation,
  type Lane,
} from '../../api/kanban.api';
import { showToast } from '../../app/feedback/toaster';
import { pickDefaultColor } from '../../app/crud/catalog-validation';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { useWriteAccess } from '../../app/crud/write-access';
import { SettingsTabs } from '../settings/settings-tabs';
import { PositionedFormDialog } from './positioned-form-dialog';
import { ReorderableTable } from './reorderable-table';

/**
 * /lanes and /configuracoes/lanes (the route table has both; spec section 2): the lanes in
 * order, reordered by drag and drop or with the arrows like the kanban columns.
 */
export function LanesPage({ inSettings }: { inSettings: boolean }) {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListLanesQuery();
  const [editing, setEditing] = useState<Lane | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Lane | null>(null);
  const [createLane] = useCreateLaneMutation();
  const [updateLane] = useUpdateLaneMutation();
  const [deleteLane, deletion] = useDeleteLaneMutation();
  const [reorderLanes] = useReorderLanesMutation();
  const lanes = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteLane(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  const current = editing === 'new' ? null : editing;

  return (
    <CrudPage
      routeId={inSettings ? 'configuracoes/lanes' : 'lanes'}
      tabs={inSettings ? <SettingsTabs /> : undefined}
      description={t('lanes.description')}
      add={canWrite ? { label: t('lanes.add'), onClick: () => setEditing('new'), testId: 'lane-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={lanes.length === 0}
      empty={{ icon: 'layout-linear', title: t('lanes.empty'), description: t('lanes.emptyHelp') }}
      dialogs={
        <>
          {editing ? (
            <PositionedFormDialog
              testId="lane-form"
              title={current ? t('lanes.editTitle') : t('lanes.createTitle')}
              savedText={t('lanes.saved')}
              initial={{ name: current?.name ?? '', color: current?.color ?? pickDefaultColor(lanes.length) }}
              save={({ name, color }) =>
                current ? updateLane({ id: current.id, body: { name, color } }).unwrap() : createLane({ name, color }).unwrap()
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
      <ReorderableTable<Lane>
        testId="lanes"
        items={lanes}
        canWrite={canWrite}
        onReorder={(ids) => void reorderLanes(ids)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
    </CrudPage>
  );
}
