import { useTranslation } from 'react-i18next';
import {
  useCreateLaneMutation,
  useDeleteLaneMutation,
  useListLanesQuery,
  useReorderLanesMutation,
  useUpdateLaneMutation,
  type Lane,
} from '../../api/kanban.api';
import { CatalogPage } from '../../app/crud/catalog-page';
import { pickDefaultColor } from '../../app/crud/catalog-validation';
import { SettingsTabs } from '../settings/settings-tabs';
import { PositionedFormDialog } from './positioned-form-dialog';
import { ReorderableTable } from './reorderable-table';

/**
 * /lanes and /configuracoes/lanes (the route table has both; spec section 2): the lanes in
 * order, reordered by drag and drop or with the arrows like the kanban columns.
 */
export function LanesPage({ inSettings }: { inSettings: boolean }) {
  const { t } = useTranslation();
  const [createLane] = useCreateLaneMutation();
  const [updateLane] = useUpdateLaneMutation();
  const [deleteLane, deletion] = useDeleteLaneMutation();
  const [reorderLanes] = useReorderLanesMutation();
  return (
    <CatalogPage<Lane>
      routeId={inSettings ? 'configuracoes/lanes' : 'lanes'}
      tabs={inSettings ? <SettingsTabs /> : undefined}
      description={t('lanes.description')}
      list={useListLanesQuery()}
      testId="lane"
      addLabel={t('lanes.add')}
      empty={{ icon: 'layout-linear', title: t('lanes.empty'), description: t('lanes.emptyHelp') }}
      remove={deleteLane}
      removing={deletion.isLoading}
      form={(current, close, lanes) => (
        <PositionedFormDialog
          testId="lane-form"
          title={current ? t('lanes.editTitle') : t('lanes.createTitle')}
          savedText={t('lanes.saved')}
          initial={{ name: current?.name ?? '', color: current?.color ?? pickDefaultColor(lanes.length) }}
          save={({ name, color }) =>
            current ? updateLane({ id: current.id, body: { name, color } }).unwrap() : createLane({ name, color }).unwrap()
          }
          onClose={close}
        />
      )}
      renderList={(lanes, actions) => (
        <ReorderableTable<Lane>
          testId="lanes"
          items={lanes}
          canWrite={actions.canWrite}
          onReorder={(ids) => void reorderLanes(ids)}
          onEdit={actions.edit}
          onDelete={actions.remove}
        />
      )}
    />
  );
}
