import { useTranslation } from 'react-i18next';
import {
  useCreateKanbanMutation,
  useDeleteKanbanMutation,
  useListKanbansQuery,
  useReorderKanbansMutation,
  useUpdateKanbanMutation,
  type Kanban,
} from '../../api/kanban.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { pickDefaultColor } from '../../app/crud/catalog-validation';
import { useWriteAccess } from '../../app/crud/write-access';
import { KanbanTabs } from './kanban-tabs';
import { PositionedFormDialog } from './positioned-form-dialog';
import { ReorderableTable } from './reorderable-table';

/** /kanban/kanbans: the kanban columns, in board order; drag a row (or use its arrows) to reorder. */
export function KanbansPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const [createKanban] = useCreateKanbanMutation();
  const [updateKanban] = useUpdateKanbanMutation();
  const [deleteKanban, deletion] = useDeleteKanbanMutation();
  const [reorderKanbans] = useReorderKanbansMutation();
  return (
    <CatalogPage<Kanban>
      routeId="kanban/kanbans"
      tabs={<KanbanTabs />}
      description={canWrite ? t('kanban.columnsDescription') : t('kanban.columnsDescriptionReadOnly')}
      list={useListKanbansQuery()}
      testId="kanban"
      addLabel={t('kanban.addColumn')}
      empty={{ icon: 'column-layout', title: t('kanban.emptyColumns'), description: t('kanban.emptyColumnsHelp') }}
      remove={deleteKanban}
      removing={deletion.isLoading}
      form={(current, close, kanbans) => (
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
          onClose={close}
        />
      )}
      renderList={(kanbans, actions) => (
        <ReorderableTable<Kanban>
          testId="kanban-columns"
          items={kanbans}
          canWrite={actions.canWrite}
          extraHeaders={<th className="crud-col-narrow">{t('crud.status')}</th>}
          extraCells={(kanban) => (
            <td className="crud-col-narrow">
              <ActiveTag active={kanban.active} />
            </td>
          )}
          onReorder={(ids) => void reorderKanbans(ids)}
          onEdit={actions.edit}
          onDelete={actions.remove}
        />
      )}
    />
  );
}
